import { type LintRule, quote } from '../rule.ts';

export const unknownQuery: LintRule = {
  id: 'unknown-query',
  severity: 'warning',
  description:
    'A query id that is not in the queries file of the study that uses this file: a typo, or judgments of another ' +
    'collection. Reported once per query, at its first line. Only when a study file declares the queries.',
  fileTypes: ['qrels', 'run', 'beir-qrels'],
  scope: 'query',
  create({ study, queries, report }) {
    const known = study?.queries;
    if (known === undefined) return {};
    const seen = new Set<number>();
    return {
      line(line) {
        if (line.kind !== 'content' || !line.wellFormed || seen.has(line.qid)) return;
        seen.add(line.qid);
        const qid = queries.text(line.qid);
        if (known.has(qid)) return;
        report({
          line: line.number,
          column: line.fieldColumn(0),
          endColumn: line.fieldEndColumn(0),
          message: `query ${quote(qid)} is not in ${known.source}, the queries of ${study!.name}`,
        });
      },
    };
  },
};
