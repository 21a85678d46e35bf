import { relevantInTop, type TrecMeasure } from '../trecMeasure.ts';

export const setPrecision: TrecMeasure = {
  name: 'set_P',
  help: 'Precision of the whole retrieved set: relevant retrieved / retrieved (0 when nothing is retrieved).',
  kind: 'float',
  compute(query, options) {
    const retrieved = query.ranking.length;
    return retrieved > 0 ? relevantInTop(query, retrieved, options.relevanceLevel) / retrieved : 0;
  },
};
