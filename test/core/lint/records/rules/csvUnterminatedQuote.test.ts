import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findings, summary, where } from '../recordLintHelpers.ts';

test('a quote that never closes is one error on the opening quote, to the end of its line', () => {
  const text = '_id,text\nd1,ok\nd2,"broken\nd3,more\nd4,end\n';
  const found = findings(text, 'csv-unterminated-quote');
  assert.deepEqual(found.map(where), ['3:4-3:11 error csv-unterminated-quote']);
  assert.equal(
    found[0]!.message,
    `expected a closing '"' for the quoted field opened here, found the end of the file: the rest of the file (3 lines) reads as one field`,
  );
  // The swallowed lines are one field: no other error about them.
  assert.deepEqual(summary(text), ['3:4-3:11 error csv-unterminated-quote']);
});

test('a quote closed on a later line is a multi-line field, not an error', () => {
  assert.deepEqual(findings('_id,text\nd1,"a\nb"\n', 'csv-unterminated-quote'), []);
});

test('a quote in the middle of an unquoted field is text (csv and pandas read it so)', () => {
  assert.deepEqual(summary('_id,text\nd1,5" screen\n'), []);
});

test('an unterminated quote in the header', () => {
  assert.deepEqual(findings('_id,"text\nd1,a\n', 'csv-unterminated-quote').map(where), [
    '1:5-1:10 error csv-unterminated-quote',
  ]);
});
