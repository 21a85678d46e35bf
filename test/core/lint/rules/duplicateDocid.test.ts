import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findings, runLines, where } from '../lintTestHelpers.ts';

test('a docid ranked twice for a query is an error on the second, pointing at the first', () => {
  const text = `${runLines('q1', 3)}q1 Q0 d2 4 0.1 tag\n`;
  const [d, ...more] = findings(text, 'duplicate-docid');
  assert.deepEqual(more, []);
  assert.equal(where(d!), '4:7-4:9 error duplicate-docid');
  assert.equal(
    d!.message,
    "document 'd2' is ranked again for query 'q1': first ranked on line 2 (trec_eval aborts on it)",
  );
  assert.deepEqual(d!.related, { line: 2, column: 7, message: "first ranking of 'd2' for query 'q1'" });
});

test('the same docid in different rankings is fine', () => {
  assert.deepEqual(findings(`${runLines('q1', 3)}${runLines('q2', 3)}`, 'duplicate-docid'), []);
});
