import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findings, summary, where } from '../recordLintHelpers.ts';

test('a byte order mark is a hint at 1:1, and columns after it do not count it', () => {
  const text = '\ufeff{"_id": "q1", "text": "a"}\n{"_id": "q1", "text": "b"}\n';
  const [d] = findings(text, 'bom');
  assert.equal(where(d!), '1:1-1:1 hint bom');
  assert.match(d!.message, /json\.loads refuses the first line unless the file is opened as 'utf-8-sig'$/);
  assert.equal(findings(text, 'duplicate-id')[0]!.related?.column, 9);
});

test('in a CSV, the BOM is not part of the first column name for the linter, and the hint says csv keeps it', () => {
  const [d] = findings('\ufeff_id,text\nq1,a\n', 'bom');
  assert.match(d!.message, /csv reads it as part of the first column's name/);
  assert.deepEqual(findings('\ufeff_id,text\nq1,a\n', 'missing-column', { mapping: { id: '_id' } }), []);
});

test('no byte order mark, no hint', () => {
  assert.deepEqual(summary('{"_id": "q1", "text": "a"}\n'), []);
});
