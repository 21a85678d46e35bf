// trec_eval's relative_P (m_rel_P.c): precision at k divided by the best precision possible at k, i.e. relevant
// documents in the first k over min(k, R) — precision up to R, recall after it.
import { relevantInTop, standardCutoffs, type TrecMeasure } from '../trecMeasure.ts';

export const relativePrecision: TrecMeasure = {
  name: 'relative_P',
  help:
    'Relative precision at cutoffs: relevant documents in the first k divided by min(k, R), the most there could ' +
    'be (0 for a query with no relevant document). Default cutoffs: -m relative_P.5,10,15,20,30,100,200,500,1000',
  kind: 'float',
  defaultCutoffs: standardCutoffs,
  compute(query, options, cutoffs) {
    if (query.numRel === 0) return cutoffs.map(() => 0);
    return cutoffs.map((k) => relevantInTop(query, k, options.relevanceLevel) / Math.min(k, query.numRel));
  },
};
