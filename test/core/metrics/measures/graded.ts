// The graded query of the G, ndcg_rel, Rndcg, dcg and ideal_dcg tests: judged one document of label 2, two of
// label 1, one of label 0; the run ranks a label 1, a label 0, the label 2, then an unjudged document.
// Run DCG = 1/log2 2 + 2/log2 4 = 2. Ideal gains 2, 1, 1 (label 0 ends the ideal):
// ideal DCG at 1 = 2, at 2 = 2 + 1/log2 3, at 3 = 2.5 + 1/log2 3 (= IDEAL).
import { rankedQuery, U } from './rankedQuery.ts';

export const gradedQuery = rankedQuery([1, 0, 2, U], { 0: 1, 1: 2, 2: 1 });
export const IDEAL = 2.5 + 1 / Math.log2(3);
