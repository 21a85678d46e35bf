// dcg and ideal_dcg by hand (graded.ts); with custom gains (-m dcg.1=3,2=1) the ideal reorders the labels by gain.
import { test } from 'node:test';
import { discountedCumulativeGain } from '../../../../core/metrics/measures/discountedCumulativeGain.ts';
import { idealDiscountedCumulativeGain } from '../../../../core/metrics/measures/idealDiscountedCumulativeGain.ts';
import { gradedQuery, IDEAL } from './graded.ts';
import { near, options, rankedQuery } from './rankedQuery.ts';

test('dcg and ideal_dcg with gain = label', () => {
  near(discountedCumulativeGain.compute(gradedQuery, options(), []), 2);
  near(idealDiscountedCumulativeGain.compute(gradedQuery, options(), []), IDEAL);
});

test('label 1 gains 3, label 2 gains 1: ideal 3, 3, 1', () => {
  const gains = new Map([
    [1, 3],
    [2, 1],
  ]);
  near(discountedCumulativeGain.compute(gradedQuery, options(1, gains), []), 3 + 1 / 2);
  near(idealDiscountedCumulativeGain.compute(gradedQuery, options(1, gains), []), 3 + 3 / Math.log2(3) + 1 / 2);
});

test('a negative gain counts in the run, not in the ideal', () => {
  const gains = new Map([[0, -1]]);
  // rank 2 holds label 0: −1/log2 3.
  near(discountedCumulativeGain.compute(gradedQuery, options(1, gains), []), 2 - 1 / Math.log2(3));
  near(idealDiscountedCumulativeGain.compute(gradedQuery, options(1, gains), []), IDEAL);
});

test('a gain for a label nobody judged changes nothing', () => {
  const gains = new Map([[5, 10]]);
  near(idealDiscountedCumulativeGain.compute(gradedQuery, options(1, gains), []), IDEAL);
});

test('a huge label costs nothing: only the judged labels are levels (whole gains)', () => {
  const huge = 2 ** 31 - 1;
  const query = rankedQuery([huge, 0], { 0: 1, [huge]: 1 });
  near(idealDiscountedCumulativeGain.compute(query, options(), []), huge);
  near(discountedCumulativeGain.compute(query, options(1, new Map([[0, 0.5]])), []), huge + 0.5 / Math.log2(3));
});
