import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findings, summary, where } from '../lintTestHelpers.ts';

test('a byte order mark is a hint at 1:1, and columns after it do not count it', () => {
  const [d] = findings('\ufeffq1 0 d1 1\nq1 0 d1 0\n', 'bom');
  assert.equal(where(d!), '1:1-1:1 hint bom');
  assert.match(d!.message, /trec_eval reads it as part of the first query id/);
  const duplicate = findings('\ufeffq1 0 d1 1\nq1 0 d1 0\n', 'duplicate-pair')[0]!;
  assert.equal(duplicate.related?.column, 6);
});

test('no byte order mark, no hint', () => {
  assert.deepEqual(summary('q1 0 d1 1\n'), []);
});
