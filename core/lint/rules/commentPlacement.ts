import type { LintRule } from '../rule.ts';

// trec_eval's qrels reader (get_qrels.c) skips a comment line and then parses the next line as a judgment without
// checking whether it is a comment too; after a comment on the last line it reads past the end of its buffer.

export const commentPlacement: LintRule = {
  id: 'comment-placement',
  severity: 'warning',
  description:
    "A qrels comment trec_eval mishandles: its reader skips one '#' line and parses the next line as a judgment " +
    'even when it is a comment, and a comment on the last line makes it read past the end of the file.',
  fileTypes: ['qrels'],
  scope: 'file',
  skipsPlainLines: true,
  create({ report }) {
    // The last comment line trec_eval skipped: the line right after it is parsed whatever it is. (Kept as a line
    // number rather than a flag set on every line, so the rule needs to see only comments, not plain lines.)
    let lastSkipped = 0;
    let lastComment = { line: 0, endColumn: 0 };
    return {
      line(line) {
        if (line.kind !== 'comment') return;
        if (lastSkipped === 0 || lastSkipped !== line.number - 1) lastSkipped = line.number;
        else {
          report({
            line: line.number,
            column: 1,
            endColumn: line.endColumn(),
            message:
              'comment right after another comment: trec_eval skips only one comment line at a time and reads ' +
              "this one as a judgment ('Malformed line' unless it has exactly 4 fields)",
          });
        }
        lastComment = { line: line.number, endColumn: line.endColumn() };
      },
      end(file) {
        if (lastComment.line === 0 || lastComment.line !== file.lines) return;
        report({
          line: lastComment.line,
          column: 1,
          endColumn: lastComment.endColumn,
          message: 'comment on the last line: trec_eval reads past the end of the file after it; end with a judgment',
        });
      },
    };
  },
};
