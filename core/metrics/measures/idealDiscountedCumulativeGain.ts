import type { TrecMeasure } from '../trecMeasure.ts';
import { dcgAndIdeal } from './gainLevels.ts';

export const idealDiscountedCumulativeGain: TrecMeasure = {
  name: 'ideal_dcg',
  help:
    "DCG of the ideal ranking: every judged document with a positive gain, in decreasing order of gain (ndcg's " +
    'denominator; it does not depend on the run, only on the qrels). Not affected by -l. Not in all_trec.',
  kind: 'float',
  takesPairs: true,
  compute: (query, options) => dcgAndIdeal(query, options.gains).ideal,
};
