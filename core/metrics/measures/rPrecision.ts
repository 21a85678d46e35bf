import { relevantInTop, type TrecMeasure } from '../trecMeasure.ts';

export const rPrecision: TrecMeasure = {
  name: 'Rprec',
  help: 'Precision after R documents have been retrieved, R being the number of relevant documents of the query.',
  kind: 'float',
  compute(query, options) {
    const depth = Math.min(query.ranking.length, query.numRel);
    if (depth === 0) return 0;
    return relevantInTop(query, depth, options.relevanceLevel) / query.numRel;
  },
};
