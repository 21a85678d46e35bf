import type { TrecMeasure } from '../trecMeasure.ts';
import { dcgAndIdeal } from './gainLevels.ts';

export const ndcg: TrecMeasure = {
  name: 'ndcg',
  help:
    'Normalized Discounted Cumulative Gain (Järvelin and Kekäläinen 2002) over the whole ranking: gain = the ' +
    'relevance label (negative labels and unjudged documents gain 0), discount log2(rank + 1), normalised by the ' +
    'ideal ranking of all judged documents. Not affected by -l. --gains 0:0,1:0,2:1 gives each label its gain.',
  kind: 'float',
  takesPairs: true,
  compute(query, options) {
    // dcg / ideal_dcg as trec_eval computes them (one function there too): with -m ndcg.1=0.5 its order of the gain
    // levels, with a negative mapped gain its sum.
    const { dcg, ideal } = dcgAndIdeal(query, options.gains);
    return ideal > 0 ? dcg / ideal : 0;
  },
};
