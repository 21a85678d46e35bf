import { statementsOf } from '../ast.ts';
import { duplicateNamesCheck } from './duplicateNames.ts';

export const duplicateVerdict = duplicateNamesCheck({
  code: 'duplicate-verdict',
  description: 'A verdict listed twice would show two identical buttons in the review view.',
  noun: 'verdict',
  collect: (block) =>
    statementsOf(block, 'verdicts').map((s) =>
      s.names.map((n) => ({ key: n.text, shown: `\`${n.text}\``, range: n.range })),
    ),
});
