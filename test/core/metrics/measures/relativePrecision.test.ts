// relative_P by hand: relevant documents in the first k over min(k, R).
import { test } from 'node:test';
import { relativePrecision } from '../../../../core/metrics/measures/relativePrecision.ts';
import { near, options, rankedQuery, U } from './rankedQuery.ts';

test('precision up to R, recall after it', () => {
  // R = 4; relevant at ranks 1, 4, 5: k=1 → 1/1; k=2 → 1/2; k=5 → 3/4; k=10 → 3/4 (the run has 6).
  const query = rankedQuery([1, 0, 0, 1, 1, 0], { 0: 5, 1: 4 });
  near(relativePrecision.compute(query, options(), [1, 2, 5, 10]), [1, 0.5, 0.75, 0.75]);
});

test('no relevant document in the qrels: 0', () => {
  near(relativePrecision.compute(rankedQuery([0, U], { 0: 3 }), options(), [1, 5]), [0, 0]);
});
