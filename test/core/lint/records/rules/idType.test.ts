import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findings, where } from '../recordLintHelpers.ts';

test('an id that is null, a boolean, an object or an array is an error on the value', () => {
  const text =
    '{"_id": null, "text": "a"}\n{"_id": true, "text": "a"}\n{"_id": {"x": 1}, "text": "a"}\n{"_id": ["q"], "text": "a"}\n';
  const found = findings(text, 'id-type');
  assert.deepEqual(found.map(where), [
    '1:9-1:13 error id-type',
    '2:9-2:13 error id-type',
    '3:9-3:17 error id-type',
    '4:9-4:14 error id-type',
  ]);
  assert.equal(found[0]!.message, "expected the id '_id' to be a string, found null");
  assert.equal(found[2]!.message, "expected the id '_id' to be a string, found an object");
});

test('strings and numbers are not id-type errors (numbers are numeric-id warnings)', () => {
  assert.deepEqual(findings('{"_id": "q1", "text": "a"}\n{"_id": 2, "text": "a"}\n', 'id-type'), []);
});

test('an id field found through a dotted mapping is located inside its object', () => {
  const found = findings('{"meta": {"id": false}, "text": "a"}\n', 'id-type', { mapping: { id: 'meta.id' } });
  assert.deepEqual(found.map(where), ['1:17-1:22 error id-type']);
});
