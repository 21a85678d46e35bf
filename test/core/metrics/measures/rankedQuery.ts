// Builds one query's evaluated ranking for the measure unit tests, from the judgments in rank order and the
// qrels' documents per label, as evaluate.ts hands them to a measure.
import assert from 'node:assert/strict';
import { judgedAtLeast, type MeasureOptions, type RankedQuery } from '../../../../core/metrics/trecMeasure.ts';

/** Unjudged document (not in the qrels). */
export const U = -1;

/** `ranking`: label per rank (U for unjudged); `judged`: label → number of judged documents with it. */
export function rankedQuery(ranking: number[], judged: Record<number, number>, relevanceLevel = 1): RankedQuery {
  const labels = Object.keys(judged)
    .map(Number)
    .sort((a, b) => a - b);
  const labelCounts = { labels, counts: labels.map((label) => judged[label]!) };
  return { ranking: Int32Array.from(ranking), numRel: judgedAtLeast(labelCounts, relevanceLevel), labelCounts };
}

export const options = (relevanceLevel = 1, gains?: Map<number, number>): MeasureOptions => ({
  relevanceLevel,
  ...(gains && { gains }),
});

export function near(actual: number | number[] | string, expected: number | number[], what = 'value'): void {
  const a = typeof actual === 'object' ? actual : [actual];
  const e = typeof expected === 'object' ? expected : [expected];
  assert.equal(a.length, e.length, `${what}: ${a.length} values, expected ${e.length}`);
  for (let i = 0; i < a.length; i++) {
    if (Number.isNaN(e[i])) {
      assert.ok(Number.isNaN(Number(a[i])), `${what}[${i}]: ${a[i]}, expected NaN`);
      continue;
    }
    assert.ok(Math.abs(Number(a[i]) - e[i]!) < 1e-12, `${what}[${i}]: ${a[i]}, expected ${e[i]}`);
  }
}
