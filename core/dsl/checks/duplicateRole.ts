import { sourceStatements } from '../ast.ts';
import { duplicateNamesCheck } from './duplicateNames.ts';

export const duplicateRole = duplicateNamesCheck({
  code: 'duplicate-role',
  description: 'A mapping gives the same role twice (`id: a  id: b`): only one field can play a role.',
  noun: 'role',
  collect: (block) =>
    sourceStatements(block).map((s) =>
      s.mappings.map((m) => ({ key: m.role.text, shown: `\`${m.role.text}\``, range: m.role.range })),
    ),
});
