import { type LintRule, quote } from '../rule.ts';

/** What C's atof makes of a decimal field: its longest leading number, or 0. */
function atofPrefix(text: string): number | undefined {
  const match = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?/.exec(text);
  if (match) return Number(match[0]);
  return /^[+-]?(inf|nan|0x)/i.test(text) ? undefined : 0;
}

export const scoreNotNumber: LintRule = {
  id: 'score-not-number',
  severity: 'error',
  description:
    'A run score that is not a decimal number. trec_eval reads scores with atof and ranks by them, so "1,5" ' +
    'silently becomes 1 and "high" becomes 0; nan, inf and hexadecimal are refused too.',
  fileTypes: ['run'],
  scope: 'query',
  skipsPlainLines: true,
  create({ format, report }) {
    const field = format.scoreField;
    return {
      line(line) {
        if (line.kind !== 'content' || !line.wellFormed || !Number.isNaN(line.score)) return;
        const text = line.fieldText(field);
        const read = atofPrefix(text);
        report({
          line: line.number,
          column: line.fieldColumn(field),
          endColumn: line.fieldEndColumn(field),
          message:
            `score ${quote(text)} is not a decimal number` +
            (read === undefined ? '' : `: trec_eval would rank the document with score ${read}`),
        });
      },
    };
  },
};
