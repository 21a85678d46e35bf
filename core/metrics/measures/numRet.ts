import type { TrecMeasure } from '../trecMeasure.ts';

export const numRet: TrecMeasure = {
  name: 'num_ret',
  help: 'Number of documents retrieved (after -M truncation). Summed over queries.',
  kind: 'count',
  compute: (query) => query.ranking.length,
};
