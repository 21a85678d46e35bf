import { plural, type RecordRule } from '../rule.ts';

export const csvUnterminatedQuote: RecordRule = {
  id: 'csv-unterminated-quote',
  severity: 'error',
  description:
    'A quoted CSV/TSV field whose closing quote never comes: everything after it, to the end of the file, reads ' +
    'as one field (pandas: "EOF inside string"). Reported on the opening quote.',
  formats: ['csv', 'tsv'],
  create({ report }) {
    return {
      record(record) {
        const row = record.row;
        if (record.kind !== 'unterminated' || row === undefined) return;
        const rest = row.lastLine - row.quoteLine + 1;
        report({
          line: row.quoteLine,
          column: row.quoteColumn,
          endColumn: row.quoteLineEndColumn,
          message:
            `expected a closing '"' for the quoted field opened here, found the end of the file: the rest of the ` +
            `file (${plural(rest, 'line')}) reads as one field`,
        });
      },
    };
  },
};
