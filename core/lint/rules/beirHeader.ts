import { parseIntegerField } from '../../formats/trecFields.ts';
import type { LintRule } from '../rule.ts';

export const beirHeader: LintRule = {
  id: 'beir-header',
  severity: 'warning',
  description:
    'A BEIR qrels TSV whose first line is a judgment instead of the header (query-id, corpus-id, score separated by tabs): the ' +
    'BEIR loader always skips the first line, so that judgment is silently lost.',
  fileTypes: ['beir-qrels'],
  scope: 'file',
  skipsPlainLines: true,
  readsFields: true,
  create({ report }) {
    return {
      line(line) {
        if (line.kind !== 'header' || line.fieldCount < 3) return;
        // A header's third field is a name; a judgment's is its integer score.
        if (Number.isNaN(parseIntegerField(line.bytes, line.starts[2]!, line.ends[2]!))) return;
        report({
          line: line.number,
          column: 1,
          endColumn: line.endColumn(),
          message:
            'no header line: the BEIR loader skips the first line as its header, so this judgment is silently ' +
            'lost; add the line "query-id\\tcorpus-id\\tscore" above it',
        });
      },
    };
  },
};
