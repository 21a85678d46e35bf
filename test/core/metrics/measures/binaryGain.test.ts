// binG by hand: each retrieved relevant document gains 1 / log2(2 + non-relevant documents before it).
import { test } from 'node:test';
import { binaryGain } from '../../../../core/metrics/measures/binaryGain.ts';
import { near, options, rankedQuery, U } from './rankedQuery.ts';

test('relevant at ranks 1, 4, 5 of R = 4', () => {
  // 1/log2(2) + 1/log2(4) + 1/log2(4) = 2; divided by R = 4.
  near(binaryGain.compute(rankedQuery([1, 0, U, 1, 1, 0], { 0: 5, 1: 4 }), options(), []), 0.5);
});

test('nothing relevant retrieved: 0', () => {
  near(binaryGain.compute(rankedQuery([0, U], { 0: 1, 1: 1 }), options(), []), 0);
});
