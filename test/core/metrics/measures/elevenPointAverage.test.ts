// 11pt_avg by hand: the mean of iprec_at_recall's 11 values (see interpolatedPrecisionAtRecall.test.ts).
import { test } from 'node:test';
import { elevenPointAverage } from '../../../../core/metrics/measures/elevenPointAverage.ts';
import { near, options, rankedQuery, U } from './rankedQuery.ts';

const query = rankedQuery([1, 0, 0, 1, 1, 0], { 0: 5, 1: 4 });

test('the mean of interpolated precision at 0.0 … 1.0', () => {
  // 1, 1, 1, 1, .6, .6, .6, .6, .6, 0, 0 → 7/11.
  near(elevenPointAverage.compute(query, options(), elevenPointAverage.defaultNumbers!), 7 / 11);
});

test('other levels: trec_eval 8 three-point average', () => {
  // 0.2·4 → 1: 1; 0.5·4 = 2: .6; 0.8·4 = 3.2 → 3: .6.
  near(elevenPointAverage.compute(query, options(), [0.2, 0.5, 0.8]), 2.2 / 3);
});

test('an empty ranking (-J): NaN as in trec_eval; a query absent from the run (-c, one unjudged document): 0', () => {
  near(elevenPointAverage.compute(rankedQuery([], { 1: 4 }), options(), elevenPointAverage.defaultNumbers!), NaN);
  near(elevenPointAverage.compute(rankedQuery([U], { 1: 4 }), options(), elevenPointAverage.defaultNumbers!), 0);
});
