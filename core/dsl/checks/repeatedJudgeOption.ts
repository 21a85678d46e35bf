import { statementsOf } from '../ast.ts';
import { eachBlock, type StudyCheck } from './check.ts';

export const repeatedJudgeOption: StudyCheck = {
  code: 'repeated-judge-option',
  severity: 'error',
  description: 'A judge option given twice in one judge block: which one applies would be a guess.',
  check(context) {
    eachBlock(context, (block, report) => {
      for (const judge of statementsOf(block, 'judge')) {
        const seen = new Map<string, { start: number; end: number }>();
        for (const option of judge.options) {
          const first = seen.get(option.name);
          if (!first) {
            seen.set(option.name, option.nameRange);
            continue;
          }
          report({
            range: option.nameRange,
            message: `\`${option.name}\` is given twice in this judge block: expected it once`,
            related: { range: first, message: `first \`${option.name}\`` },
          });
        }
      }
    });
  },
};
