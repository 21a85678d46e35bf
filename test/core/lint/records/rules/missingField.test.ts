import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findings, where } from '../recordLintHelpers.ts';

const mapping = { id: 'qid', text: 'query', instruction: 'instruction' };

test("a mapped field absent from a record is an error over the record's braces", () => {
  const text = '{"qid": "q1", "query": "a", "instruction": "b"}\n  {"qid": "q2", "query": "a"}  \n';
  const found = findings(text, 'missing-field', { mapping });
  assert.deepEqual(found.map(where), ['2:3-2:30 error missing-field']);
  assert.equal(found[0]!.message, "missing field 'instruction' (mapped to instruction in the study)");
});

test('each missing field is its own diagnostic', () => {
  const found = findings('{"other": 1}\n', 'missing-field', { mapping });
  assert.deepEqual(
    found.map((d) => d.message),
    [
      "missing field 'qid' (mapped to id in the study)",
      "missing field 'query' (mapped to text in the study)",
      "missing field 'instruction' (mapped to instruction in the study)",
    ],
  );
  assert.ok(found.every((d) => where(d) === '1:1-1:13 error missing-field'));
});

test('a BEIR corpus record needs _id, title and text; a null title still counts as present', () => {
  const text =
    '{"_id": "d1", "title": "T", "text": "x"}\n{"_id": "d2", "text": "y"}\n{"_id": "d3", "title": null, "text": "z"}\n';
  const found = findings(text, 'missing-field');
  assert.deepEqual(found.map(where), ['2:1-2:27 error missing-field']);
  assert.equal(found[0]!.message, "missing field 'title' (a BEIR corpus record has _id, title and text)");
});

test('dotted mapped fields are looked up in nested objects, and a key with a dot is a key', () => {
  const nested = { id: '_id', lang: 'metadata.lang' };
  assert.deepEqual(findings('{"_id": "q1", "metadata": {"lang": "en"}}\n', 'missing-field', { mapping: nested }), []);
  assert.deepEqual(findings('{"_id": "q1", "metadata.lang": "en"}\n', 'missing-field', { mapping: nested }), []);
  assert.deepEqual(findings('{"_id": "q1", "metadata": {}}\n', 'missing-field', { mapping: nested }).map(where), [
    '1:1-1:30 error missing-field',
  ]);
});

test('invalid lines are left to invalid-json', () => {
  assert.deepEqual(findings('{"qid": "q1" "query": "a"}\n', 'missing-field', { mapping }), []);
});
