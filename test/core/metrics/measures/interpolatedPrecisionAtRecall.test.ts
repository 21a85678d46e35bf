// iprec_at_recall by hand. Ranking relevant at ranks 1, 4, 5 of 6, R = 4: precision by rank 1, .5, 1/3, .5, .6, .5.
// Level f reads the round(f·4)-th relevant document: 0 → best anywhere (1); 1 (rank 1) → 1; 2 (rank 4) → best of
// ranks 4..6 = .6; 3 (rank 5) → .6; 4 → never retrieved, 0.
import { test } from 'node:test';
import { interpolatedPrecisionAtRecall } from '../../../../core/metrics/measures/interpolatedPrecisionAtRecall.ts';
import { near, options, rankedQuery, U } from './rankedQuery.ts';

const levels = interpolatedPrecisionAtRecall.defaultThresholds!;

test('the 11 default levels are 0.0 … 1.0', () => {
  near([...levels], [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1]);
});

test('interpolated precision at the 11 levels, by hand', () => {
  const query = rankedQuery([1, 0, 0, 1, 1, 0], { 0: 5, 1: 4 });
  // round(f·4): 0, 0, 1, 1, 2, 2, 2, 3, 3, 4, 4 (0.4·4 = 1.6 → 2; 0.5·4 = 2; 0.7·4 = 2.8 → 3; 0.9·4 = 3.6 → 4).
  near(interpolatedPrecisionAtRecall.compute(query, options(), levels), [1, 1, 1, 1, 0.6, 0.6, 0.6, 0.6, 0.6, 0, 0]);
});

test('a half rounds up (trec_eval 10 lround): R = 3, level 0.5 reads the 2nd relevant document', () => {
  // Relevant at ranks 2 and 6: precision .5 at rank 2, 2/6 at rank 6; the 2nd relevant is read at rank 6.
  const query = rankedQuery([0, 1, 0, 0, 0, 1], { 0: 4, 1: 3 });
  near(interpolatedPrecisionAtRecall.compute(query, options(), [0.5, 0.6]), [1 / 3, 1 / 3]);
  // 0.1·3 = 0.3 → 0: the best precision anywhere (.5 at rank 2).
  near(interpolatedPrecisionAtRecall.compute(query, options(), [0.1]), [0.5]);
});

test('-l 2: only labels ≥ 2 are relevant', () => {
  const query = rankedQuery([1, 2, 1, 2], { 1: 2, 2: 2 }, 2);
  // R = 2; relevant at ranks 2 and 4: precision .5 and .5.
  near(interpolatedPrecisionAtRecall.compute(query, options(2), [0, 0.5, 1]), [0.5, 0.5, 0.5]);
});

test('no relevant document retrieved: every level 0', () => {
  near(
    interpolatedPrecisionAtRecall.compute(rankedQuery([0, -1], { 0: 1, 1: 2 }), options(), levels),
    levels.map(() => 0),
  );
});

test('an empty ranking (-J removed every document): precision 0/0 at the levels of 0 relevant documents', () => {
  // R = 2: round(0·2) = round(0.1·2) = 0 → NaN, trec_eval's "-nan"; round(0.5·2) = 1 and 2 are never reached → 0.
  near(interpolatedPrecisionAtRecall.compute(rankedQuery([], { 1: 2 }), options(), [0, 0.1, 0.5, 1]), [NaN, NaN, 0, 0]);
});

test('a query absent from the run (-c) is 0, not NaN: trec_eval ranks one unjudged document for it', () => {
  near(interpolatedPrecisionAtRecall.compute(rankedQuery([U], { 1: 2 }), options(), [0, 1]), [0, 0]);
});
