import type { TrecMeasure } from '../trecMeasure.ts';
import { idealDcg, rankingDcg } from './discountedGain.ts';

export const ndcg: TrecMeasure = {
  name: 'ndcg',
  help:
    'Normalized Discounted Cumulative Gain (Järvelin and Kekäläinen 2002) over the whole ranking: gain = the ' +
    'relevance label (negative labels and unjudged documents gain 0), discount log2(rank + 1), normalised by the ' +
    'ideal ranking of all judged documents. Not affected by -l. --gains 0:0,1:0,2:1 gives each label its gain.',
  kind: 'float',
  takesPairs: true,
  compute(query, options) {
    const ideal = idealDcg(query.labelCounts, Number.POSITIVE_INFINITY, options.gains);
    return ideal > 0 ? rankingDcg(query.ranking, query.ranking.length, options.gains) / ideal : 0;
  },
};
