import type { RecordRule } from '../rule.ts';

export const missingFinalNewline: RecordRule = {
  id: 'missing-final-newline',
  severity: 'hint',
  description:
    'The last line does not end with a newline: appending a record (echo >> file) or concatenating files (cat a b) ' +
    'glues two records into one line.',
  formats: ['jsonl', 'csv', 'tsv'],
  create({ report }) {
    return {
      end(file) {
        const { lines, endsWithNewline, lastLineEndColumn } = file;
        if (endsWithNewline || lines === 0) return;
        report({
          line: lines,
          column: lastLineEndColumn,
          endColumn: lastLineEndColumn,
          message: 'the last line does not end with a newline: appending a record later glues it to this one',
        });
      },
    };
  },
};
