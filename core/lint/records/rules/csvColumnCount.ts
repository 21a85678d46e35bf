import type { RecordRule } from '../rule.ts';

export const csvColumnCount: RecordRule = {
  id: 'csv-column-count',
  severity: 'error',
  description:
    'A CSV/TSV row with more or fewer fields than the header. pandas refuses extra fields ("Expected 3 fields in ' +
    'line 5, saw 4"), csv.DictReader files them under the key None; missing fields read as empty. Usually an ' +
    'unquoted comma, or a tab inside a TSV value.',
  formats: ['csv', 'tsv'],
  create({ format, report }) {
    let expected = -1;
    const inside = format === 'csv' ? 'an unquoted comma inside a value?' : 'a tab inside a value?';
    return {
      header(header) {
        expected = header.names.length;
      },
      record(record) {
        const row = record.row;
        if (record.kind !== 'record' || row === undefined || expected < 0 || row.fieldCount === expected) return;
        const found = row.fieldCount;
        const fields = `${expected} field${expected === 1 ? '' : 's'}`;
        if (found > expected) {
          const extra = record.fieldSpan(expected);
          report({
            line: extra.line,
            column: extra.column,
            endLine: record.endLine,
            endColumn: row.rowEndColumn,
            message:
              `expected ${fields} as in the header, found ${found} (${inside}): pandas refuses the row, ` +
              'csv.DictReader files the extra values under the key None',
          });
          return;
        }
        const span = record.recordSpan();
        report({
          line: span.line,
          column: span.column,
          endLine: span.endLine,
          endColumn: span.endColumn,
          message: `expected ${fields} as in the header, found ${found}: the missing ones read as empty (NaN in pandas, None in csv.DictReader)`,
        });
      },
    };
  },
};
