// The measures keep inputs computed for the last query they were given (prefix counts, DCG sums, the ideal's
// levels, the last bpref): a value must never come from another query, relevance level or gains. Each measure's
// value on a query object seen before, between others, equals its value on a fresh copy of that query.
import assert from 'node:assert/strict';
import test from 'node:test';
import { trecMeasures } from '../../../../core/metrics/registry.ts';
import type { MeasureOptions, RankedQuery, TrecMeasure } from '../../../../core/metrics/trecMeasure.ts';
import { options, rankedQuery, U } from './rankedQuery.ts';

const parametersOf = (measure: TrecMeasure): readonly number[] =>
  measure.defaultCutoffs ?? measure.defaultThresholds ?? measure.defaultNumbers ?? [];

const copyOf = (query: RankedQuery): RankedQuery => ({
  ranking: query.ranking.slice(),
  numRel: query.numRel,
  labelCounts: { labels: [...query.labelCounts.labels], counts: [...query.labelCounts.counts] },
});

test('a measure given queries, levels and gains in turn answers each as it answers a fresh copy', () => {
  const first = rankedQuery([2, 0, U, 1, 3, -2, 0, 1, U, 2, 1, 0], { 0: 4, 1: 5, 2: 3, 3: 1 });
  const second = rankedQuery([0, 0, 1, U, U], { 0: 2, 1: 7 });
  const secondAtLevel2 = rankedQuery([0, 0, 1, U, U], { 0: 2, 1: 7 }, 2);
  const cases: [RankedQuery, MeasureOptions][] = [
    [first, options()],
    [second, options()],
    [first, options(2)],
    [first, options()],
    [first, options(1, new Map([[1, 3]]))],
    [second, options(1, new Map([[1, 3]]))],
    [first, options(1, new Map([[1, 3]]))],
    [secondAtLevel2, options(2)],
    [second, options()],
  ];
  for (const measure of trecMeasures) {
    const parameters = parametersOf(measure);
    // All of the sequence first (each call after another on the same or another query), then fresh copies.
    const kept = cases.map(([query, measureOptions]) => measure.compute(query, measureOptions, parameters));
    cases.forEach(([query, measureOptions], i) => {
      const fresh = measure.compute(copyOf(query), measureOptions, parameters);
      const what = `${measure.name} on ranking ${[...query.ranking]}, level ${measureOptions.relevanceLevel}`;
      assert.deepEqual(kept[i], fresh, what);
    });
  }
});
