import { standardCutoffs, type TrecMeasure } from '../trecMeasure.ts';
import { idealDcgSums, rankingDcgSums } from './discountedGain.ts';

export const ndcgCut: TrecMeasure = {
  name: 'ndcg_cut',
  help:
    'nDCG at cutoffs: DCG of the first k ranks divided by the ideal DCG of k ranks (see ndcg). ' +
    'Default cutoffs: -m ndcg_cut.5,10,15,20,30,100,200,500,1000',
  kind: 'float',
  defaultCutoffs: standardCutoffs,
  compute(query, options, cutoffs) {
    // Both sums are read at each cutoff (the ideal summed as deep as the largest).
    const deepest = cutoffs.reduce((a, b) => Math.max(a, b), 0);
    const ideal = idealDcgSums(query.labelCounts, deepest, options.gains);
    const dcg = rankingDcgSums(query, options.gains, deepest);
    const idealLast = ideal.length - 1;
    const last = dcg.length - 1;
    return cutoffs.map((k) => {
      const idealAtK = ideal[k < idealLast ? k : idealLast]!;
      return idealAtK > 0 ? dcg[k < last ? k : last]! / idealAtK : 0;
    });
  },
};
