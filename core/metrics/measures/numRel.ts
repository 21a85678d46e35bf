import type { TrecMeasure } from '../trecMeasure.ts';

export const numRel: TrecMeasure = {
  name: 'num_rel',
  help: 'Number of relevant documents (label ≥ the relevance level). Summed over queries.',
  kind: 'count',
  compute: (query) => query.numRel,
};
