import { statementsOf } from '../ast.ts';
import { duplicateNamesCheck } from './duplicateNames.ts';

export const duplicateAnnotator = duplicateNamesCheck({
  code: 'duplicate-annotator',
  description: 'An annotator listed twice would be counted twice for overlap and agreement.',
  noun: 'annotator',
  collect: (block) => [
    statementsOf(block, 'annotators').flatMap((s) =>
      s.names.map((n) => ({ key: n.text, shown: `\`${n.text}\``, range: n.range })),
    ),
  ],
});
