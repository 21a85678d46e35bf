import { statementsOf } from '../ast.ts';
import { eachBlock, type StudyCheck } from './check.ts';

export const rubricLevels: StudyCheck = {
  code: 'rubric-levels',
  severity: 'error',
  description: 'The Review view rates a rubric dimension with the keys 1 … 9: a rubric has at most nine levels.',
  check(context) {
    eachBlock(context, (block, report) => {
      for (const rubric of statementsOf(block, 'rubric')) {
        if (rubric.levels.length <= 9) continue;
        report({
          range: rubric.levels[9]!.range,
          message: `expected at most 9 rubric levels (the keys 1 … 9 rate them), found ${rubric.levels.length}`,
        });
      }
    });
  },
};
