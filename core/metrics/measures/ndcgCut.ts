import { standardCutoffs, type TrecMeasure } from '../trecMeasure.ts';
import { idealDcg, rankingDcg } from './discountedGain.ts';

export const ndcgCut: TrecMeasure = {
  name: 'ndcg_cut',
  help:
    'nDCG at cutoffs: DCG of the first k ranks divided by the ideal DCG of k ranks (see ndcg). ' +
    'Default cutoffs: -m ndcg_cut.5,10,15,20,30,100,200,500,1000',
  kind: 'float',
  defaultCutoffs: standardCutoffs,
  compute(query, options, cutoffs) {
    return cutoffs.map((k) => {
      const ideal = idealDcg(query.labelCounts, k, options.gains);
      return ideal > 0 ? rankingDcg(query.ranking, k, options.gains) / ideal : 0;
    });
  },
};
