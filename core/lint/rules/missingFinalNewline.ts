import type { LintRule } from '../rule.ts';

export const missingFinalNewline: LintRule = {
  id: 'missing-final-newline',
  severity: 'hint',
  description:
    "The last line does not end with a newline: concatenating files (cat a b) glues it to the next file's first " +
    'line, and some line-based tools drop it.',
  fileTypes: ['qrels', 'run', 'beir-qrels'],
  scope: 'file',
  skipsPlainLines: true,
  create({ report }) {
    return {
      end(file) {
        const column = file.lastLineEndColumn;
        if (file.endsWithNewline || column === undefined) return;
        report({
          line: file.lines,
          column,
          endColumn: column,
          message: "the last line does not end with a newline: 'cat' glues it to the next file's first line",
        });
      },
    };
  },
};
