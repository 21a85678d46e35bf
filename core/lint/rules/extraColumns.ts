import { describeColumns } from '../fileFormats.ts';
import { type LintRule, plural } from '../rule.ts';

export const extraColumns: LintRule = {
  id: 'extra-columns',
  severity: 'warning',
  description:
    'Lines with more columns than the format has, which the reader silently ignores (fields after the run tag, ' +
    'after the BEIR score). Reported once per file, at the first such line, with the count.',
  fileTypes: ['run', 'beir-qrels'],
  scope: 'file',
  skipsPlainLines: true,
  readsFields: true,
  create({ format, report }) {
    const expected = format.columns.length;
    let count = 0;
    let first = { line: 0, column: 0, endColumn: 0, found: 0 };
    return {
      line(line) {
        if (line.kind !== 'content' || line.fieldCount <= expected) return;
        if (count++ === 0) {
          const column = line.fieldColumn(expected);
          // An empty extra field after a trailing tab starts past the trimmed end: mark the empty field itself.
          first = {
            line: line.number,
            column,
            endColumn: Math.max(column, line.column(line.trimmedEnd())),
            found: line.fieldCount,
          };
        }
      },
      end() {
        if (count === 0) return;
        const last = format.columns[expected - 1];
        report({
          line: first.line,
          column: first.column,
          endColumn: first.endColumn,
          message:
            `${first.found} columns where ${describeColumns(format)} are expected: ${format.reader} ignores ` +
            `everything after the ${last} (${plural(count, 'line')} like this)`,
        });
      },
    };
  },
};
