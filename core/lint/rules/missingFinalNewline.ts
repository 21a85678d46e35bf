import type { LintRule } from '../rule.ts';

export const missingFinalNewline: LintRule = {
  id: 'missing-final-newline',
  severity: 'hint',
  description:
    "The last line does not end with a newline: concatenating files (cat a b) glues it to the next file's first " +
    'line, and some line-based tools drop it.',
  fileTypes: ['qrels', 'run', 'beir-qrels'],
  scope: 'file',
  create({ report }) {
    const last = { line: 0, column: 1 };
    return {
      line(line) {
        last.line = line.number;
        last.column = line.endColumn();
      },
      end(file) {
        if (file.endsWithNewline || last.line === 0) return;
        report({
          line: last.line,
          column: last.column,
          endColumn: last.column,
          message: "the last line does not end with a newline: 'cat' glues it to the next file's first line",
        });
      },
    };
  },
};
