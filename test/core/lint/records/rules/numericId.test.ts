import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findings, where } from '../recordLintHelpers.ts';

test('a number id is a warning on the number, quoting it as written', () => {
  const found = findings('{"_id": 3, "text": "a"}\n{"text": "b", "_id": 4.0}\n', 'numeric-id');
  assert.deepEqual(found.map(where), ['1:9-1:10 warning numeric-id', '2:22-2:25 warning numeric-id']);
  assert.equal(
    found[0]!.message,
    "expected the id '_id' to be a string, found the number 3: loaders disagree on converting it (an int key never " +
      'matches the text \'3\' in qrels); write it as "3"',
  );
  assert.match(found[1]!.message, /found the number 4\.0: .*write it as "4"$/);
});

test('a number id and the same id as a string are duplicates', () => {
  const [d] = findings('{"_id": "7", "text": "a"}\n{"_id": 7, "text": "b"}\n', 'duplicate-id');
  assert.equal(where(d!), '2:9-2:10 error duplicate-id');
});

test('CSV ids are always text: no warning', () => {
  assert.deepEqual(findings('_id,text\n3,a\n', 'numeric-id'), []);
});
