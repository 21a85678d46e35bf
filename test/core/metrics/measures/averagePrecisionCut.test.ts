// map_cut by hand: R = 4, relevant at ranks 1, 4, 5 (precisions 1, 2/4, 3/5), each sum divided by R.
import { test } from 'node:test';
import { averagePrecisionCut } from '../../../../core/metrics/measures/averagePrecisionCut.ts';
import { near, options, rankedQuery } from './rankedQuery.ts';

test('average precision of the first k', () => {
  const query = rankedQuery([1, 0, 0, 1, 1, 0], { 0: 5, 1: 4 });
  near(averagePrecisionCut.compute(query, options(), [1, 4, 10]), [1 / 4, 1.5 / 4, 2.1 / 4]);
});

test('no relevant document: 0', () => {
  near(averagePrecisionCut.compute(rankedQuery([0], { 0: 1 }), options(), [5]), [0]);
});
