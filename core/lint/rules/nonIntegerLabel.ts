import { type LintRule, quote } from '../rule.ts';

/** What C's atol makes of a field: its leading integer, or 0. */
function atol(text: string): number {
  const match = /^\s*([+-]?\d+)/.exec(text);
  return match ? Number(match[1]) : 0;
}

export const nonIntegerLabel: LintRule = {
  id: 'non-integer-label',
  severity: 'error',
  description:
    'A relevance label that is not an integer. trec_eval reads qrels labels with atol, so 1.5 silently becomes 1 ' +
    'and "high" becomes 0; the BEIR loader fails on int(). Negative labels (-2) and large ones (16) are fine.',
  fileTypes: ['qrels', 'beir-qrels'],
  scope: 'query',
  skipsPlainLines: true,
  create({ format, report }) {
    const field = format.labelField;
    const what = format.type === 'beir-qrels' ? 'score' : 'relevance label';
    return {
      line(line) {
        if (line.kind !== 'content' || !line.wellFormed || !Number.isNaN(line.label)) return;
        const text = line.fieldText(field);
        const consequence =
          format.type === 'beir-qrels' ? 'the BEIR loader fails on it' : `trec_eval would read it as ${atol(text)}`;
        report({
          line: line.number,
          column: line.fieldColumn(field),
          endColumn: line.fieldEndColumn(field),
          message: `${what} ${quote(text)} is not an integer: ${consequence}`,
        });
      },
    };
  },
};
