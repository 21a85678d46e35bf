import { requiredStatements } from '../keywords.ts';
import { blockLabel, eachBlock, listWords, type StudyCheck } from './check.ts';

export const missingStatement: StudyCheck = {
  code: 'missing-statement',
  severity: 'error',
  description: 'A study needs `queries`, `corpus` and `scale`; a review needs `items`. Reported on the block’s name.',
  check(context) {
    eachBlock(context, (block, report) => {
      const required = requiredStatements[block.kind];
      const missing = required.filter((kind) => !block.statements.some((s) => s.kind === kind));
      if (missing.length === 0) return;
      report({
        range: block.name?.range ?? block.keyword,
        message: `${blockLabel(block)} has no ${listWords(missing)} statement: a ${block.kind} needs ${listWords(required)}`,
      });
    });
  },
};
