import { type LintRule, plural, quote } from '../rule.ts';

export const rankNotInteger: LintRule = {
  id: 'rank-not-integer',
  severity: 'warning',
  description:
    'A run rank that is not an integer. trec_eval ignores the rank column (it sorts by score), but other tools ' +
    'read it, and the rank/score check cannot use the line. Reported once per file with the count.',
  fileTypes: ['run'],
  scope: 'file',
  skipsPlainLines: true,
  readsFields: true,
  create({ format, report }) {
    const field = format.rankField;
    let count = 0;
    let first = { line: 0, column: 0, endColumn: 0, text: '' };
    return {
      line(line) {
        if (line.kind !== 'content' || !line.wellFormed || !Number.isNaN(line.rank)) return;
        if (count++ === 0) {
          first = {
            line: line.number,
            column: line.fieldColumn(field),
            endColumn: line.fieldEndColumn(field),
            text: line.fieldText(field),
          };
        }
      },
      end() {
        if (count === 0) return;
        report({
          line: first.line,
          column: first.column,
          endColumn: first.endColumn,
          message:
            `rank ${quote(first.text)} is not an integer (${plural(count, 'line')} like this): trec_eval ignores ` +
            'ranks, but other tools read them',
        });
      },
    };
  },
};
