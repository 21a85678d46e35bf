import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findings, where } from '../recordLintHelpers.ts';

test('a blank line in JSONL is an error covering its spaces', () => {
  const found = findings('{"_id": "q1", "text": "a"}\n\n{"_id": "q2", "text": "b"}\n  \t\n', 'blank-line');
  assert.deepEqual(found.map(where), ['2:1-2:1 error blank-line', '4:1-4:4 error blank-line']);
  assert.match(found[0]!.message, /^expected a JSON object, found a blank line: json\.loads fails on it/);
});

test('a blank last line (two newlines at the end) is one too; a single final newline is not', () => {
  assert.deepEqual(findings('{"_id": "q1", "text": "a"}\n\n', 'blank-line').map(where), ['2:1-2:1 error blank-line']);
  assert.deepEqual(findings('{"_id": "q1", "text": "a"}\n', 'blank-line'), []);
});

test('CSV and TSV readers skip blank lines: no error there', () => {
  assert.deepEqual(findings('_id,text\nq1,a\n\nq2,b\n', 'blank-line'), []);
});
