import type { TrecMeasure } from '../trecMeasure.ts';

export const unjudged: TrecMeasure = {
  name: 'unj',
  help:
    'Unjudged at cutoffs: the fraction of the first k retrieved documents that are not judged (not in the qrels, ' +
    'or a negative label); ranks past the end of the run count as judged. A red flag when high at small k. ' +
    'Default cutoffs: -m unj.5,10,20',
  kind: 'float',
  defaultCutoffs: [5, 10, 20],
  zeroWithoutResults: true,
  compute(query, _options, cutoffs) {
    const ranking = query.ranking;
    return cutoffs.map((k) => {
      const end = Math.min(k, ranking.length);
      let count = 0;
      for (let i = 0; i < end; i++) if (ranking[i]! < 0) count++;
      return count / k;
    });
  },
};
