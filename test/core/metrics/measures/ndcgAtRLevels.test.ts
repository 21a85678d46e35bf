// Rndcg by hand (graded.ts): the ideal moves from gain 2 to gain 1 after rank 1 and ends after rank 3, so nDCG is
// read at rank 1 (1/2) and rank 3 (2/IDEAL), and averaged.
import { test } from 'node:test';
import { ndcgAtRLevels } from '../../../../core/metrics/measures/ndcgAtRLevels.ts';
import { gradedQuery, IDEAL } from './graded.ts';
import { near, options, rankedQuery } from './rankedQuery.ts';

test('Rndcg, by hand', () => {
  near(ndcgAtRLevels.compute(gradedQuery, options(), []), (0.5 + 2 / IDEAL) / 2);
});

test('a run longer than the ideal is read once more at its end', () => {
  // Judged: one label 1, one label 0. Run: label 0, label 1, unjudged. The ideal (gain 1) ends after rank 1:
  // nDCG@1 = 0; the run goes on to rank 3: DCG 1/log2 3 over ideal 1.
  near(ndcgAtRLevels.compute(rankedQuery([0, 1, -1], { 0: 1, 1: 1 }), options(), []), (0 + 1 / Math.log2(3)) / 2);
});

test('no relevant document in the qrels (by -l): 0', () => {
  near(ndcgAtRLevels.compute(rankedQuery([1], { 0: 1, 1: 1 }, 2), options(2), []), 0);
});
