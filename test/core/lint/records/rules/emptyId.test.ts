import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findings, where } from '../recordLintHelpers.ts';

test('an empty id is an error on the id value', () => {
  const found = findings(
    '{"_id": "q1", "text": "a"}\n{"_id": "", "text": "b"}\n{"text": "c", "_id": "  "}\n',
    'empty-id',
  );
  assert.deepEqual(found.map(where), ['2:9-2:11 error empty-id', '3:22-3:26 error empty-id']);
  assert.equal(found[0]!.message, "expected an id in '_id', found an empty string: nothing can refer to this record");
  assert.equal(found[1]!.message, "expected an id in '_id', found only spaces: nothing can refer to this record");
});

test('the mapped id field is the one checked, in CSV and TSV too', () => {
  const mapping = { id: 'qid' };
  assert.deepEqual(findings('{"qid": "", "_id": "x"}\n', 'empty-id', { mapping }).map(where), [
    '1:9-1:11 error empty-id',
  ]);
  assert.deepEqual(findings('qid,text\nq1,a\n,b\n"",c\n', 'empty-id', { mapping }).map(where), [
    '3:1-3:1 error empty-id',
    '4:1-4:3 error empty-id',
  ]);
  assert.deepEqual(findings('text\tqid\na\t\n', 'empty-id', { mapping }).map(where), ['2:3-2:3 error empty-id']);
});

test('two empty ids are not also duplicates of each other', () => {
  assert.deepEqual(findings('{"_id": "", "text": "a"}\n{"_id": "", "text": "b"}\n', 'duplicate-id'), []);
});
