import { quote, type RecordRule } from '../rule.ts';

export const missingColumn: RecordRule = {
  id: 'missing-column',
  severity: 'error',
  description:
    'A CSV/TSV header without a column the study maps (`{ id: qid  text: query }`) or the file kind needs (BEIR: ' +
    '_id, title, text): every row lacks the field. Reported on the header line.',
  formats: ['csv', 'tsv'],
  create({ requiredFields, report }) {
    return {
      header(header) {
        const names = new Set(header.names);
        const shown = header.names.slice(0, 10).map((name) => quote(name));
        if (header.names.length > 10) shown.push(`and ${header.names.length - 10} more`);
        const listed = shown.join(', ');
        for (const field of requiredFields) {
          if (names.has(field.name)) continue;
          const span = header.span;
          report({
            line: span.line,
            column: span.column,
            endLine: span.endLine,
            endColumn: span.endColumn,
            message: `expected a column ${quote(field.name)} (${field.reason}), found only ${listed}`,
          });
        }
      },
    };
  },
};
