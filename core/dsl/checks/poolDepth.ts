import { statementsOf } from '../ast.ts';
import { eachBlock, type StudyCheck } from './check.ts';

export const poolDepth: StudyCheck = {
  code: 'pool-depth',
  severity: 'error',
  description: 'A pool depth is the number of documents per query taken from the run: at least 1.',
  check(context) {
    eachBlock(context, (block, report) => {
      for (const pool of statementsOf(block, 'pool')) {
        if (!pool.depth || !Number.isFinite(pool.depth.value) || pool.depth.value >= 1) continue;
        report({ range: pool.depth.range, message: `expected a depth of at least 1, found ${pool.depth.text}` });
      }
    });
  },
};
