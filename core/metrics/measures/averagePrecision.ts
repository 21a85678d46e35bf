import { type RankedQuery, ReusedFloat64Array, type TrecMeasure } from '../trecMeasure.ts';

// Kept for the last query asked (map, gm_map and map_cut read the same sums; see relevantCounts).
let summedQuery: RankedQuery | undefined;
let summedLevel = Number.NaN;
let summed = new Float64Array(1);
const sumsMemory = new ReusedFloat64Array();

/**
 * The precision at each relevant document of the first i ranks, summed in rank order (as trec_eval adds them), at
 * index i (0 … ranking.length): map is the last sum over R, map_cut reads it at each cutoff. Read only.
 */
export function precisionSums(query: RankedQuery, relevanceLevel: number): Float64Array {
  if (query === summedQuery && relevanceLevel === summedLevel) return summed;
  const ranking = query.ranking;
  const sums = sumsMemory.view(ranking.length + 1);
  sums[0] = 0;
  let relevantSoFar = 0;
  let sum = 0;
  for (let i = 0; i < ranking.length; i++) {
    if (ranking[i]! >= relevanceLevel) {
      relevantSoFar++;
      sum += relevantSoFar / (i + 1);
    }
    sums[i + 1] = sum;
  }
  summedQuery = query;
  summedLevel = relevanceLevel;
  summed = sums;
  return sums;
}

export const averagePrecision: TrecMeasure = {
  name: 'map',
  help:
    'Mean Average Precision: precision after each relevant document is retrieved, summed and divided by the ' +
    'number of relevant documents (R) of the query, then averaged over queries.',
  kind: 'float',
  compute(query, options) {
    // Each relevant document adds a positive precision: the sum is 0 exactly when none was retrieved.
    const sum = precisionSums(query, options.relevanceLevel)[query.ranking.length]!;
    return sum > 0 ? sum / query.numRel : 0;
  },
};
