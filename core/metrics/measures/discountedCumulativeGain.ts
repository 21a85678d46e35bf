import type { TrecMeasure } from '../trecMeasure.ts';
import { dcgAndIdeal } from './gainLevels.ts';

export const discountedCumulativeGain: TrecMeasure = {
  name: 'dcg',
  help:
    'Discounted Cumulative Gain over the whole ranking, not normalised: the sum of gain / log2(rank + 1), gain = ' +
    'the relevance label (unjudged documents and negative labels gain 0). Not affected by -l. Not in all_trec.',
  kind: 'float',
  takesPairs: true,
  compute: (query, options) => dcgAndIdeal(query, options.gains).dcg,
};
