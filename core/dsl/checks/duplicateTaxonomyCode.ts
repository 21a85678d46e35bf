import { statementsOf } from '../ast.ts';
import { duplicateNamesCheck } from './duplicateNames.ts';

export const duplicateTaxonomyCode = duplicateNamesCheck({
  code: 'duplicate-taxonomy-code',
  description: 'Two taxonomy entries with the same code: items typed with it would get either label.',
  noun: 'taxonomy code',
  collect: (block) =>
    statementsOf(block, 'taxonomy').map((s) =>
      s.entries.map((e) => ({ key: e.code.text, shown: `\`${e.code.text}\``, range: e.code.range })),
    ),
});
