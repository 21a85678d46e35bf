import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findings, summary, where } from '../recordLintHelpers.ts';

test('CRLF endings are one hint at the first \\r, with the count', () => {
  const found = findings('{"_id": "q1", "text": "é"}\r\n{"_id": "q2", "text": "b"}\r\n', 'crlf');
  assert.deepEqual(found.map(where), ['1:27-1:28 hint crlf']);
  assert.match(found[0]!.message, /^Windows line endings \(CRLF\) on 2 lines/);
});

test('CRLF changes nothing else: JSON and CSV values do not keep the \\r', () => {
  assert.deepEqual(summary('{"_id": "q1", "text": "a"}\r\n{"_id": "q1", "text": "b"}\r\n'), [
    '1:27-1:28 hint crlf',
    '2:9-2:13 error duplicate-id',
  ]);
  assert.deepEqual(summary('_id,text\r\nq1,a\r\nq2,b\r\n'), ['1:9-1:10 hint crlf']);
});
