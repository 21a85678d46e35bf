import { type LintRule, plural } from '../rule.ts';

export const trailingWhitespace: LintRule = {
  id: 'trailing-whitespace',
  severity: 'hint',
  description:
    'Spaces or tabs at the end of lines. trec_eval ignores them, but a TSV reader sees an extra empty field and ' +
    'naive split(" ") calls an empty last column. Reported once per file with the count.',
  fileTypes: ['qrels', 'run', 'beir-qrels'],
  scope: 'file',
  skipsPlainLines: true,
  create({ report }) {
    let count = 0;
    let first = { line: 0, column: 0, endColumn: 0 };
    return {
      line(line) {
        if (line.kind !== 'content' && line.kind !== 'header') return;
        const last = line.bytes[line.end - 1];
        if (line.end === line.start || (last !== 32 && last !== 9)) return;
        if (count++ === 0) {
          let start = line.end;
          while (start > line.start && (line.bytes[start - 1] === 32 || line.bytes[start - 1] === 9)) start--;
          first = { line: line.number, column: line.column(start), endColumn: line.endColumn() };
        }
      },
      end() {
        if (count === 0) return;
        report({ ...first, message: `trailing whitespace on ${plural(count, 'line')}` });
      },
    };
  },
};
