// success by hand: 1 once a relevant document is in the first k.
import { test } from 'node:test';
import { success } from '../../../../core/metrics/measures/success.ts';
import { near, options, rankedQuery, U } from './rankedQuery.ts';

test('default cutoffs 1, 5, 10', () => {
  near([...success.defaultCutoffs!], [1, 5, 10]);
});

test('first relevant at rank 3', () => {
  const query = rankedQuery([0, U, 1, 0], { 0: 2, 1: 1 });
  near(success.compute(query, options(), [1, 2, 3, 10]), [0, 0, 1, 1]);
});

test('-l 2 ignores label 1', () => {
  const query = rankedQuery([1, 1, 2], { 1: 2, 2: 1 }, 2);
  near(success.compute(query, options(2), [2, 3]), [0, 1]);
});
