import { type LintRule, plural } from '../rule.ts';

export const crlfLineEndings: LintRule = {
  id: 'crlf',
  severity: 'hint',
  description:
    "Windows line endings (\\r\\n). trec_eval copes, but tools that split lines on '\\n' keep a '\\r' at the end " +
    'of the last field (the label, the run tag). Reported once per file with the count.',
  fileTypes: ['qrels', 'run', 'beir-qrels'],
  scope: 'file',
  skipsPlainLines: true,
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
            'in the last field',
        });
      },
    };
  },
};
