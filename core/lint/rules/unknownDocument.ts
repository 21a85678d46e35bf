import { type LintRule, quote } from '../rule.ts';

export const unknownDocument: LintRule = {
  id: 'unknown-document',
  severity: 'warning',
  description:
    'A document id that is not in the corpus file of the study that uses this file: a typo, a stale id after the ' +
    'corpus was rebuilt, or a passage id where document ids are expected. Only when a study file declares the corpus.',
  fileTypes: ['qrels', 'run', 'beir-qrels'],
  scope: 'query',
  create({ study, format, report }) {
    const known = study?.corpus;
    if (known === undefined) return {};
    const field = format.docidField;
    return {
      line(line) {
        if (line.kind !== 'content' || !line.wellFormed) return;
        if (known.has(line.fieldString(field))) return;
        const docid = line.fieldText(field);
        report({
          line: line.number,
          column: line.fieldColumn(field),
          endColumn: line.fieldEndColumn(field),
          message: `document ${quote(docid)} is not in ${known.source}, the corpus of ${study!.name}`,
        });
      },
    };
  },
};
