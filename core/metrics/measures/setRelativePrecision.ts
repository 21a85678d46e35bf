import { relevantInTop, type TrecMeasure } from '../trecMeasure.ts';

export const setRelativePrecision: TrecMeasure = {
  name: 'set_relative_P',
  help:
    'Relative precision of the whole retrieved set: relevant retrieved / min(retrieved, R) — the best a set of ' +
    'that size could do is 1.',
  kind: 'float',
  compute(query, options) {
    const retrieved = query.ranking.length;
    if (retrieved === 0 || query.numRel === 0) return 0;
    return relevantInTop(query, retrieved, options.relevanceLevel) / Math.min(retrieved, query.numRel);
  },
};
