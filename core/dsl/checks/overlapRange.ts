import { statementsOf } from '../ast.ts';
import { eachBlock, type StudyCheck } from './check.ts';

export const overlapRange: StudyCheck = {
  code: 'overlap-range',
  severity: 'error',
  description: '`overlap N` (annotators per item) must be at least 1 and at most the number of annotators.',
  check(context) {
    eachBlock(context, (block, report) => {
      const annotators = new Set(statementsOf(block, 'annotators').flatMap((s) => s.names.map((n) => n.text))).size;
      for (const overlap of statementsOf(block, 'overlap')) {
        const count = overlap.count;
        if (!count || !Number.isFinite(count.value)) continue;
        if (count.value < 1) {
          report({ range: count.range, message: `expected an overlap of at least 1, found ${count.text}` });
        } else if (count.value > annotators) {
          report({
            range: count.range,
            message: `expected an overlap of at most ${annotators} (the number of annotators), found ${count.text}: each item needs ${count.text} different annotators`,
          });
        }
      }
    });
  },
};
