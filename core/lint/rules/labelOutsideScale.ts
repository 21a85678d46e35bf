import { type LintRule, quote } from '../rule.ts';

export const labelOutsideScale: LintRule = {
  id: 'label-outside-scale',
  severity: 'error',
  description:
    "A relevance label that is not a value of the study's scale (a 3 in a 0–2 study): measures that read grades " +
    '(nDCG) weigh it as the study never meant. Only when a study file declares the scale.',
  fileTypes: ['qrels', 'beir-qrels'],
  scope: 'query',
  create({ study, format, report }) {
    const values = study?.scaleValues;
    if (values === undefined || values.length === 0) return {};
    const allowed = new Set(values);
    const listed = [...values].sort((a, b) => a - b).join(', ');
    const field = format.labelField;
    return {
      line(line) {
        if (line.kind !== 'content' || !line.wellFormed || Number.isNaN(line.label) || allowed.has(line.label)) return;
        report({
          line: line.number,
          column: line.fieldColumn(field),
          endColumn: line.fieldEndColumn(field),
          message: `label ${quote(String(line.label))} is not on the scale of ${study!.name} (${listed})`,
        });
      },
    };
  },
};
