import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assertCostWithin } from '../../../../costCheck.ts';
import { findings, where } from '../recordLintHelpers.ts';

test('a document twice in one ranking is an error on the second, pointing at the first', () => {
  const line =
    '{"query": {"id": "q1"}, "items": [{"id": "d1", "score": 3}, {"id": "d2", "score": 2}, {"id": "d1", "score": 1}]}\n';
  const found = findings(line, 'duplicate-item');
  assert.deepEqual(found.map(where), ['1:94-1:98 error duplicate-item']);
  assert.equal(
    found[0]!.message,
    "document 'd1' is ranked again for query 'q1': first as item 1 (trec_eval aborts on a duplicate docid in a ranking)",
  );
  assert.deepEqual(found[0]!.related, { line: 1, column: 42, message: "first ranking of 'd1'" });
});

test('the same document under different queries is fine', () => {
  const text =
    '{"query": {"id": "q1"}, "items": [{"id": "d1", "score": 3}]}\n{"query": {"id": "q2"}, "items": [{"id": "d1", "score": 3}]}\n';
  assert.deepEqual(findings(text, 'duplicate-item'), []);
});

test('many repeats in a long ranking are each reported, in linear time', (t) => {
  const rankingOf = (distinct: number) => {
    const items = Array.from({ length: 20_000 }, (_, i) => `{"id": "dé${i % distinct}", "score": ${i}}`);
    return `{"query": {"id": "q1"}, "items": [${items.join(', ')}]}\n`;
  };
  const line = rankingOf(100);
  const found = findings(line, 'duplicate-item');
  assert.equal(found.length, 19_900);
  assert.equal(found.at(-1)!.related?.column, line.indexOf('"dé99"') + 1);
  // Against the same ranking without a repeat: the reports build the line's syntax tree once (measured: 5–6 times the
  // plain lint); counting each report's column from the line start (the bug this guards) costs hundreds of times.
  const distinct = rankingOf(20_000);
  assert.equal(findings(distinct, 'duplicate-item').length, 0);
  const cost = assertCostWithin(
    () => findings(line, 'duplicate-item'),
    () => findings(distinct, 'duplicate-item'),
    20,
    { work: 'linting 20,000 items with 19,900 repeats', baseline: '20,000 items without one' },
  );
  t.diagnostic(`with repeats ${cost.workMs.toFixed(1)} ms, without ${cost.baselineMs.toFixed(1)} ms`);
});
