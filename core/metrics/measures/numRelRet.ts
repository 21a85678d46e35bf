import { relevantInTop, type TrecMeasure } from '../trecMeasure.ts';

export const numRelRet: TrecMeasure = {
  name: 'num_rel_ret',
  help: 'Number of relevant documents retrieved. Summed over queries.',
  kind: 'count',
  compute: (query, options) => relevantInTop(query, query.ranking.length, options.relevanceLevel),
};
