import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findings, where } from '../lintTestHelpers.ts';

test('a query with only labels ≤ 0 is a hint at its first line, on its qid', () => {
  const text = 'q1 0 d1 1\nq22 0 d1 0\nq1 0 d2 0\nq22 0 d2 -2\n';
  const [d, ...more] = findings(text, 'no-relevant-document');
  assert.deepEqual(more, []);
  assert.equal(where(d!), '2:1-2:4 hint no-relevant-document');
  assert.equal(d!.message, "query 'q22' has no relevant document: all its 2 labels are ≤ 0");
});

test('a BEIR query with a single 0 label', () => {
  const [d] = findings('query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\td1\t0\n', 'no-relevant-document');
  assert.equal(where(d!), '3:1-3:3 hint no-relevant-document');
  assert.match(d!.message, /its only label is ≤ 0$/);
});

test('any positive label makes a query fine', () => {
  assert.deepEqual(findings('q1 0 d1 0\nq1 0 d2 16\n', 'no-relevant-document'), []);
});
