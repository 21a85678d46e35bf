import { relevantInTop, type TrecMeasure } from '../trecMeasure.ts';

export const setRecall: TrecMeasure = {
  name: 'set_recall',
  help: 'Recall of the whole retrieved set: relevant retrieved / R (0 when the query has no relevant document).',
  kind: 'float',
  compute(query, options) {
    return query.numRel > 0 ? relevantInTop(query, query.ranking.length, options.relevanceLevel) / query.numRel : 0;
  },
};
