import { statementsOf } from '../ast.ts';
import { eachBlock, type StudyCheck } from './check.ts';

export const scaleSize: StudyCheck = {
  code: 'scale-size',
  severity: 'error',
  description: 'A scale needs at least two values to choose from, and a `binary` scale exactly two.',
  check(context) {
    eachBlock(context, (block, report) => {
      for (const scale of statementsOf(block, 'scale')) {
        const count = scale.entries.length;
        const binary = scale.scaleKind?.text === 'binary';
        if (binary && count !== 2) {
          report({
            range: scale.scaleKind!.range,
            message: `expected exactly 2 values in a binary scale, found ${count}`,
          });
        } else if (!binary && count < 2) {
          report({ range: scale.keyword, message: `expected at least 2 scale values, found ${count}` });
        }
      }
    });
  },
};
