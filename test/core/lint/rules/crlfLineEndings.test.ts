import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findings, summary, where } from '../lintTestHelpers.ts';

test('CRLF endings: one hint at the first, with the count, and the \\r is not part of the label', () => {
  const text = 'q1 0 d1 1\nq1 0 d2 1\r\nq1 0 d3 0\r\n';
  const [d, ...more] = findings(text, 'crlf');
  assert.deepEqual(more, []);
  assert.equal(where(d!), '2:10-2:11 hint crlf');
  assert.match(d!.message, /^Windows line endings \(CRLF\) on 2 lines/);
  assert.deepEqual(summary(text), ['2:10-2:11 hint crlf']);
});

test('LF endings: nothing', () => {
  assert.deepEqual(findings('q1 0 d1 1\n', 'crlf'), []);
});
