import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findings, where } from '../lintTestHelpers.ts';

test('a last line without newline is a hint at its end', () => {
  const [d] = findings('q1 0 d1 1\nq1 0 d2 0', 'missing-final-newline');
  assert.equal(where(d!), '2:10-2:10 hint missing-final-newline');
});

test('a final newline, or an empty file, is fine', () => {
  assert.deepEqual(findings('q1 0 d1 1\n', 'missing-final-newline'), []);
  assert.deepEqual(findings('', 'missing-final-newline'), []);
});
