// ndcg_rel by hand (graded.ts): nDCG at rank 1 (label 1) = 1/2, at rank 3 (label 2) = 2/IDEAL; the third document
// of positive gain is not retrieved and counts the final nDCG 2/IDEAL. Mean over 3.
import { test } from 'node:test';
import { ndcgAtRelevant } from '../../../../core/metrics/measures/ndcgAtRelevant.ts';
import { gradedQuery, IDEAL } from './graded.ts';
import { near, options, rankedQuery } from './rankedQuery.ts';

test('ndcg_rel, by hand', () => {
  near(ndcgAtRelevant.compute(gradedQuery, options(), []), (0.5 + (2 * 2) / IDEAL) / 3);
});

test('the ideal ranking: 1', () => {
  near(ndcgAtRelevant.compute(rankedQuery([2, 1, 1, 0], { 0: 1, 1: 2, 2: 1 }), options(), []), 1);
});

test('no results: 0', () => {
  near(ndcgAtRelevant.compute(rankedQuery([], { 1: 2 }), options(), []), 0);
});
