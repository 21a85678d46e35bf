import { plural, type RecordRule } from '../rule.ts';

export const crlfLineEndings: RecordRule = {
  id: 'crlf',
  severity: 'hint',
  description:
    "Windows line endings (\\r\\n). JSON parsers, pandas and csv cope, but tools that split lines on '\\n' keep a " +
    "'\\r' at the end of the record. Reported once per file with the count.",
  formats: ['jsonl', 'csv', 'tsv'],
  create({ report }) {
    let count = 0;
    let first = { line: 0, column: 0 };
    return {
      line(line) {
        if (!line.crlf) return;
        if (count++ === 0) first = { line: line.number, column: line.endColumn() };
      },
      end() {
        if (count === 0) return;
        report({
          line: first.line,
          column: first.column,
          endColumn: first.column + 1,
          message:
            `Windows line endings (CRLF) on ${plural(count, 'line')}: tools that split on '\\n' keep the '\\r' ` +
            'at the end of the record',
        });
      },
    };
  },
};
