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

test("gains less than 1 apart are equal to trec_eval's sort: -m G.1=0.5 puts label 0's gain 0 on top, G = 0", () => {
  // Levels as trec_eval lists them: label 1 (0.5, mapped, first), label 0 (0). (int)(0.5 − 0) = 0: "equal", the
  // stable sort keeps them, and the ideal ranking, read from the end, starts at gain 0: no ideal gain at all.
  const query = rankedQuery([1, 0], { 0: 1, 1: 2 });
  near(normalizedGain.compute(query, options(1, new Map([[1, 0.5]])), []), 0);
  // 1.5 apart: ordered, the ideal is 1.5, 1.5; the run gains 1.5 at rank 1, discounted by log2(2 + 1.5 − 1.5) = 1.
  near(normalizedGain.compute(query, options(1, new Map([[1, 1.5]])), []), 1.5 / 3);
});
