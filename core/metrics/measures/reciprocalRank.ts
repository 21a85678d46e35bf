import type { TrecMeasure } from '../trecMeasure.ts';

export const reciprocalRank: TrecMeasure = {
  name: 'recip_rank',
  help: 'Reciprocal of the rank of the first relevant document retrieved (0 when none is).',
  kind: 'float',
  compute(query, options) {
    const ranking = query.ranking;
    for (let i = 0; i < ranking.length; i++) if (ranking[i]! >= options.relevanceLevel) return 1 / (i + 1);
    return 0;
  },
};
