import { statementsOf } from '../ast.ts';
import { duplicateNamesCheck } from './duplicateNames.ts';

export const duplicateRubricName = duplicateNamesCheck({
  code: 'duplicate-rubric-name',
  description: 'A rubric level or dimension listed twice: ratings are stored by name, so the two would merge.',
  noun: 'rubric',
  collect: (block) =>
    statementsOf(block, 'rubric').flatMap((s) => [
      s.levels.map((l) => ({ key: l.text, shown: `level \`${l.text}\``, range: l.range })),
      s.dimensions.map((d) => ({ key: d.name.text, shown: `dimension \`${d.name.text}\``, range: d.name.range })),
    ]),
});
