import { statementsOf } from '../ast.ts';
import { duplicateNamesCheck } from './duplicateNames.ts';

export const duplicateJudge = duplicateNamesCheck({
  code: 'duplicate-judge',
  description: 'Two judges with the same model: their labels would be recorded under the same annotator id.',
  noun: 'judge',
  collect: (block) => [
    statementsOf(block, 'judge').flatMap((s) =>
      s.model ? [{ key: s.model.value, shown: JSON.stringify(s.model.value), range: s.model.range }] : [],
    ),
  ],
});
