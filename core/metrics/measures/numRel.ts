import { judgedAtLeast, type TrecMeasure } from '../trecMeasure.ts';

export const numRel: TrecMeasure = {
  name: 'num_rel',
  help: 'Number of relevant documents (label ≥ the relevance level). Summed over queries.',
  kind: 'count',
  compute: (query) => query.numRel,
  // trec_eval's te_calc_avg_num_rel: under -c the summary counts the judgments labelled > 0 in the whole qrels,
  // whatever -l says (the per-query lines follow -l). We print the lines trec_eval prints.
  completeSummary: (queries) => queries.reduce((total, labelCounts) => total + judgedAtLeast(labelCounts, 1), 0),
};
