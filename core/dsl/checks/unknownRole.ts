import { sourceStatements } from '../ast.ts';
import { closestWords } from '../editDistance.ts';
import { sourceRoles } from '../keywords.ts';
import { eachBlock, listWords, type StudyCheck } from './check.ts';

export const unknownRole: StudyCheck = {
  code: 'unknown-role',
  severity: 'error',
  description: 'A mapping role the data source does not have (queries: id, text, instruction, parent, type; …).',
  check(context) {
    eachBlock(context, (block, report) => {
      for (const source of sourceStatements(block)) {
        const roles = sourceRoles[source.kind];
        for (const mapping of source.mappings) {
          const { role } = mapping;
          if (roles.includes(role.text)) continue;
          const close = closestWords(role.text, roles);
          report({
            range: role.range,
            message:
              `unknown role \`${role.text}\` in the \`${source.kind}\` mapping: expected ${listWords(roles).replace(/ and /, ' or ')}` +
              (close.length > 0 ? `; did you mean ${close.map((w) => `\`${w}\``).join(' or ')}?` : ''),
            ...(close.length > 0 && {
              fixes: close.map((w) => ({
                title: `Replace \`${role.text}\` with \`${w}\``,
                edits: [{ range: role.range, newText: w }],
              })),
            }),
          });
        }
      }
    });
  },
};
