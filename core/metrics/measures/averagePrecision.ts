import type { TrecMeasure } from '../trecMeasure.ts';

export const averagePrecision: TrecMeasure = {
  name: 'map',
  help:
    'Mean Average Precision: precision after each relevant document is retrieved, summed and divided by the ' +
    'number of relevant documents (R) of the query, then averaged over queries.',
  kind: 'float',
  compute(query, options) {
    const ranking = query.ranking;
    let relevantSoFar = 0;
    let sum = 0;
    for (let i = 0; i < ranking.length; i++) {
      if (ranking[i]! >= options.relevanceLevel) {
        relevantSoFar++;
        sum += relevantSoFar / (i + 1);
      }
    }
    return relevantSoFar > 0 ? sum / query.numRel : 0;
  },
};
