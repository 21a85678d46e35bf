import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findings, where } from '../recordLintHelpers.ts';

test('a last line without a newline is a zero-width hint at its end', () => {
  const [d] = findings('{"_id": "q1", "text": "a"}\n{"_id": "q2", "text": "😀"}', 'missing-final-newline');
  assert.equal(where(d!), '2:27-2:27 hint missing-final-newline');
  assert.match(d!.message, /appending a record later glues it to this one/);
});

test('a final newline, or an empty file, is fine', () => {
  assert.deepEqual(findings('{"_id": "q1", "text": "a"}\n', 'missing-final-newline'), []);
  assert.deepEqual(findings('', 'missing-final-newline'), []);
  assert.deepEqual(findings('_id,text\nq1,a', 'missing-final-newline').map(where), [
    '2:5-2:5 hint missing-final-newline',
  ]);
});
