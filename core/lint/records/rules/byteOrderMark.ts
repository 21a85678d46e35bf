import type { RecordRule } from '../rule.ts';

export const byteOrderMark: RecordRule = {
  id: 'bom',
  severity: 'hint',
  description:
    "The file starts with a UTF-8 byte order mark. Python opened with encoding='utf-8' keeps it: json.loads " +
    "refuses the first line, and csv reads it as part of the first column's name.",
  formats: ['jsonl', 'csv', 'tsv'],
  create({ format, report }) {
    const consequence =
      format === 'jsonl'
        ? "json.loads refuses the first line unless the file is opened as 'utf-8-sig'"
        : "Python's csv reads it as part of the first column's name unless the file is opened as 'utf-8-sig'";
    return {
      line(line) {
        if (!line.bom) return;
        report({
          line: 1,
          column: 1,
          endColumn: 1,
          message: `byte order mark (U+FEFF) at the start of the file: ${consequence}`,
        });
      },
    };
  },
};
