// Rprec_mult by hand: R = 4, relevant at ranks 1, 4, 5 of 6. Depth trunc(m·4 + 0.9): 0.2 → 1, 0.4 → 2, 0.6 → 3,
// 0.8 → 4, 1.0 → 4, 1.2 → 5, 1.4 → 6, 1.6 → 7, 1.8 → 8, 2.0 → 8; past rank 6 the missing ranks are non-relevant.
import { test } from 'node:test';
import { rPrecisionMultiples } from '../../../../core/metrics/measures/rPrecisionMultiples.ts';
import { near, options, rankedQuery } from './rankedQuery.ts';

test('precision at multiples of R, by hand', () => {
  const query = rankedQuery([1, 0, 0, 1, 1, 0], { 0: 5, 1: 4 });
  near(rPrecisionMultiples.compute(query, options(), rPrecisionMultiples.defaultThresholds!), [
    1,
    0.5,
    1 / 3,
    0.5,
    0.5,
    0.6,
    0.5,
    3 / 7,
    3 / 8,
    3 / 8,
  ]);
});

test('R = 0: depth trunc(0.9) = 0, value 0', () => {
  near(rPrecisionMultiples.compute(rankedQuery([0, 0], { 0: 2 }), options(), [0.2, 2]), [0, 0]);
});

test('no results (-c): 0', () => {
  near(rPrecisionMultiples.compute(rankedQuery([], { 1: 3 }), options(), [1, 2]), [0, 0]);
});
