// G by hand (graded.ts). Rank by rank: gain so far 1, 1, 3, 3; ideal cost so far (at least 1 a rank) 2, 3, 4, 5.
// Rank 1 (gain 1): 1/log2(2 + 2 − 1); rank 3 (gain 2): 2/log2(2 + 4 − 3). Total ideal gain 2 + 1 + 1 = 4.
import { test } from 'node:test';
import { normalizedGain } from '../../../../core/metrics/measures/normalizedGain.ts';
import { gradedQuery } from './graded.ts';
import { near, options, rankedQuery } from './rankedQuery.ts';

test('G, by hand', () => {
  near(normalizedGain.compute(gradedQuery, options(), []), 3 / Math.log2(3) / 4);
});

test('the ideal order retrieved: 1', () => {
  // Gain so far equals the ideal cost so far, so each document is discounted by log2(2) = 1.
  near(normalizedGain.compute(rankedQuery([2, 1, 1], { 1: 2, 2: 1 }), options(), []), 1);
});

test('no results: 0', () => {
  near(normalizedGain.compute(rankedQuery([], { 1: 2 }), options(), []), 0);
});
