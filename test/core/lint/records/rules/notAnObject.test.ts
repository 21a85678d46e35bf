import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findings, where } from '../recordLintHelpers.ts';

test('a line that is an array, a string or a number is an error over the whole value', () => {
  const found = findings('{"_id": "q1", "text": "a"}\n  [1, 2] \n"q2"\n42\nnull\n', 'not-an-object');
  assert.deepEqual(found.map(where), [
    '2:3-2:9 error not-an-object',
    '3:1-3:5 error not-an-object',
    '4:1-4:3 error not-an-object',
    '5:1-5:5 error not-an-object',
  ]);
  assert.equal(
    found[0]!.message,
    "expected a JSON object ('{…}') on each line, found an array (a JSON array on one line: is this a .json file rather than JSONL?)",
  );
  assert.equal(found[1]!.message, "expected a JSON object ('{…}') on each line, found a string ('q2')");
  assert.equal(found[2]!.message, "expected a JSON object ('{…}') on each line, found a number (42)");
});

test('objects are not reported', () => {
  assert.deepEqual(findings('{"_id": "q1", "text": "a"}\n{}\n', 'not-an-object'), []);
});
