// One known difference: for a query whose judgments are all negative, trec_eval 10.0-rc3 prints the ideal DCG of the
// query it evaluated before (form_res_rels.c keeps that query's label counts when the new one has no label ≥ 0);
// here it is 0, the ideal DCG of no judged document. No other measure shows it: with no positive gain in the run,
// ndcg, G, ndcg_rel and Rndcg are 0 either way.
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
