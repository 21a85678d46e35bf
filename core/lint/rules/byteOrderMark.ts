import type { LintRule } from '../rule.ts';

export const byteOrderMark: LintRule = {
  id: 'bom',
  severity: 'hint',
  description:
    'The file starts with a UTF-8 byte order mark. trec_eval (and Python reading it as utf-8) keep it as part of ' +
    'the first field, so the first query id differs from the same id elsewhere.',
  fileTypes: ['qrels', 'run', 'beir-qrels'],
  scope: 'file',
  skipsPlainLines: true,
  create({ format, report }) {
    return {
      line(line) {
        if (!line.bom) return;
        const what = format.header ? 'the first header field' : 'the first query id';
        report({
          line: 1,
          column: 1,
          endColumn: 1,
          message: `byte order mark (U+FEFF) at the start of the file: ${format.reader} reads it as part of ${what}`,
        });
      },
    };
  },
};
