import { sourceStatements } from '../ast.ts';
import { requiredRoles } from '../keywords.ts';
import { eachBlock, listWords, type StudyCheck } from './check.ts';

export const missingRole: StudyCheck = {
  code: 'missing-role',
  severity: 'error',
  description:
    'A mapping without a required role: queries need `id` and `text`, corpora `id` and `body`, items `id` and `text`.',
  check(context) {
    eachBlock(context, (block, report) => {
      for (const source of sourceStatements(block)) {
        // A viewer copy's records have no id of their own: the importer makes `<source>#<n>`.
        const required = requiredRoles[source.kind].filter((r) => !(r === 'id' && source.from?.text === 'hf-viewer'));
        const missing = required.filter((r) => !source.mappings.some((m) => m.role.text === r));
        if (missing.length === 0) continue;
        report({
          range: source.path?.range ?? source.keyword,
          message: `the \`${source.kind}\` mapping has no ${listWords(missing)}: expected \`{ ${required.map((r) => `${r}: FIELD`).join('  ')} }\``,
        });
      }
    });
  },
};
