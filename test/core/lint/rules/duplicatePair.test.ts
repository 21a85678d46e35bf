import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findings, qrelsLines, where } from '../lintTestHelpers.ts';

test('a pair judged twice is an error on the second occurrence, pointing at the first', () => {
  const [d, ...more] = findings('q1 0 d1 1\nq1 0 d2 0\nq2 0 d1 1\nq1  0  d2 1\n', 'duplicate-pair');
  assert.deepEqual(more, []);
  assert.equal(where(d!), '4:8-4:10 error duplicate-pair');
  assert.equal(
    d!.message,
    "document 'd2' is judged again for query 'q1': first judged on line 2 (trec_eval aborts on it)",
  );
  assert.deepEqual(d!.related, { line: 2, column: 6, message: "first judgment of 'd2' for query 'q1'" });
});

test('every further occurrence points at the first one', () => {
  const lines = findings('q1 0 d1 1\nq1 0 d1 1\nq1 0 d1 0\n', 'duplicate-pair').map((d) => [d.line, d.related?.line]);
  assert.deepEqual(lines, [
    [2, 1],
    [3, 1],
  ]);
});

test('a query whose lines come back later is still checked against its earlier lines', () => {
  const text = `${qrelsLines('q1', 50)}${qrelsLines('q2', 50)}q1 0 d7 1\nq1 0 d51 1\nq2 0 d51 0\n`;
  assert.deepEqual(findings(text, 'duplicate-pair').map(where), ['101:6-101:8 error duplicate-pair']);
});

test('columns count characters, not bytes', () => {
  const [d] = findings('qé 0 dö 1\nqé 0 dö 0\n', 'duplicate-pair');
  assert.equal(where(d!), '2:6-2:8 error duplicate-pair');
  assert.equal(d!.related?.column, 6);
});

test('the same docid under different queries, and docids differing in case, are not duplicates', () => {
  assert.deepEqual(findings('q1 0 d1 1\nq2 0 d1 1\nq1 0 D1 1\nq10 0 d1 1\n', 'duplicate-pair'), []);
});

test('BEIR duplicates are errors too (the loader keeps only the last label)', () => {
  const [d] = findings('query-id\tcorpus-id\tscore\nq1\td1\t1\nq1\td1\t0\n', 'duplicate-pair');
  assert.equal(where(d!), '3:4-3:6 error duplicate-pair');
  assert.match(d!.message, /the BEIR loader keeps only the last/);
});
