import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findings, where } from '../lintTestHelpers.ts';

test('a fractional qrels label is an error at the label, saying what trec_eval reads', () => {
  const [d, ...more] = findings('q1 0 d1 1\nq1 0 d2 1.5\nq1 0 d3 0\n', 'non-integer-label');
  assert.deepEqual(more, []);
  assert.equal(where(d!), '2:9-2:12 error non-integer-label');
  assert.equal(d!.message, "relevance label '1.5' is not an integer: trec_eval would read it as 1");
});

test('a word as label reads as 0 in trec_eval; a BEIR score that is not an integer fails the loader', () => {
  assert.match(findings('q1 0 d1 1\nq1 0 d2 high\n', 'non-integer-label')[0]!.message, /read it as 0$/);
  const [d] = findings('query-id\tcorpus-id\tscore\nq1\td1\t1\nq1\td2\t0.5\n', 'non-integer-label');
  assert.equal(where(d!), '3:7-3:10 error non-integer-label');
  assert.match(d!.message, /score '0.5' is not an integer: the BEIR loader fails on it/);
});

test('negative, large and signed labels are integers; the iter column is any token', () => {
  const text = 'q1 0 d1 -2\nq1 Q0 d2 16\nq1 0.5 d3 +1\nq1 x d4 0\n';
  assert.deepEqual(findings(text, 'non-integer-label'), []);
});
