import type { TrecMeasure } from '../trecMeasure.ts';

export const numRet: TrecMeasure = {
  name: 'num_ret',
  help: 'Number of documents retrieved (after -M truncation). Summed over queries.',
  kind: 'count',
  // Under -c a query without results is evaluated as trec_eval's one-document placeholder, which it then uncounts.
  zeroWithoutResults: true,
  compute: (query) => query.ranking.length,
};
