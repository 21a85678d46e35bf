import assert from 'node:assert/strict';
import { test } from 'node:test';
import { corpusLines, findings, where } from '../recordLintHelpers.ts';

test('a repeated id is an error on the second record, pointing at the first', () => {
  const text = `${corpusLines(3)}{"title": "T", "text": "again", "_id": "d2"}\n`;
  const found = findings(text, 'duplicate-id');
  assert.deepEqual(found.map(where), ['4:40-4:44 error duplicate-id']);
  assert.equal(
    found[0]!.message,
    "id 'd2' again: first on line 2 (loaders keep only one of them; BEIR keeps the last)",
  );
  assert.deepEqual(found[0]!.related, { line: 2, column: 9, message: "first record with id 'd2'" });
});

test('every further repeat points at the first occurrence', () => {
  const text = '{"_id": "q1", "text": "a"}\n{"_id": "q1", "text": "b"}\n{"_id": "q1", "text": "c"}\n';
  assert.deepEqual(
    findings(text, 'duplicate-id').map((d) => [d.line, d.related?.line]),
    [
      [2, 1],
      [3, 1],
    ],
  );
});

test('ids differing in case or spaces are different ids', () => {
  assert.deepEqual(
    findings('{"_id": "q1", "text": "a"}\n{"_id": "Q1", "text": "a"}\n{"_id": "q1 ", "text": "a"}\n', 'duplicate-id'),
    [],
  );
});

test('Unicode ids: columns count characters, related too', () => {
  const [d] = findings('{"_id": "😀é", "text": "a"}\n{"text": "ü", "_id": "😀é"}\n', 'duplicate-id');
  assert.equal(where(d!), '2:22-2:26 error duplicate-id');
  assert.equal(d!.related?.column, 9);
});

test('CSV and TSV rows: the id column, wherever it is', () => {
  const [d] = findings('text,qid\n"a, b",q1\nc,q1\n', 'duplicate-id', { mapping: { id: 'qid' } });
  assert.equal(where(d!), '3:3-3:5 error duplicate-id');
  assert.deepEqual(d!.related, { line: 2, column: 8, message: "first record with id 'q1'" });
});

test('a CRUMB run ranking the same query twice', () => {
  const line = '{"query": {"id": "q1"}, "items": [{"id": "d1", "score": 1}]}\n';
  const [d] = findings(line + line, 'duplicate-id');
  assert.equal(where(d!), '2:18-2:22 error duplicate-id');
  assert.equal(
    d!.message,
    "query 'q1' is ranked again: its ranking is first on line 1 (a run has one ranking per query)",
  );
});

test('a file with no id field at all is not checked', () => {
  assert.deepEqual(findings('{"name": "a"}\n{"name": "a"}\n', 'duplicate-id'), []);
});

test('without a mapping, a generic file uses its _id or id field', () => {
  assert.deepEqual(findings('{"id": "a", "x": 1}\n{"id": "a", "x": 2}\n', 'duplicate-id').map(where), [
    '2:8-2:11 error duplicate-id',
  ]);
});
