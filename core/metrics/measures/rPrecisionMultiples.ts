// trec_eval's Rprec_mult (m_Rprec_mult.c): precision at multiples of R, to see whether a run is precision or
// recall oriented (better at 0.2·R, worse at 2·R). The depth is trunc(m·R + 0.9) as trec_eval computes it; ranks
// past the end of the run count as non-relevant.
import { relevantInTop, type TrecMeasure } from '../trecMeasure.ts';

export const rPrecisionMultiples: TrecMeasure = {
  name: 'Rprec_mult',
  help:
    'Precision after m·R documents (rounded up from m·R + 0.9, truncated), R being the number of relevant ' +
    'documents. Default multiples: -m Rprec_mult.0.2,0.4,0.6,0.8,1.0,1.2,1.4,1.6,1.8,2.0',
  kind: 'float',
  defaultThresholds: [0.2, 0.4, 0.6, 0.8, 1, 1.2, 1.4, 1.6, 1.8, 2],
  compute(query, options, multiples) {
    return multiples.map((multiple) => {
      const depth = Math.trunc(multiple * query.numRel + 0.9);
      return depth > 0 ? relevantInTop(query, depth, options.relevanceLevel) / depth : 0;
    });
  },
};
