import type { TrecMeasure } from '../trecMeasure.ts';
import { idealDcg, rankingDcg } from './discountedGain.ts';

export const ndcg: TrecMeasure = {
  name: 'ndcg',
  help:
    'Normalized Discounted Cumulative Gain (Järvelin and Kekäläinen 2002) over the whole ranking: gain = the ' +
    'relevance label (negative labels and unjudged documents gain 0), discount log2(rank + 1), normalised by the ' +
    'ideal ranking of all judged documents. Not affected by -l.',
  kind: 'float',
  compute(query) {
    const ideal = idealDcg(query.labelCounts, Number.POSITIVE_INFINITY);
    return ideal > 0 ? rankingDcg(query.ranking, query.ranking.length) / ideal : 0;
  },
};
