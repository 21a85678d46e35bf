import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findings, where } from '../recordLintHelpers.ts';

test('a repeated column name is an error on the second, pointing at the first', () => {
  const found = findings('qid\ttext\tscore\ttext\nq1\ta\t1\tb\n', 'duplicate-header');
  assert.deepEqual(found.map(where), ['1:16-1:20 error duplicate-header']);
  assert.equal(
    found[0]!.message,
    "column 'text' appears again (first as column 2): pandas renames this one to 'text.1', csv.DictReader keeps only its values",
  );
  assert.deepEqual(found[0]!.related, { line: 1, column: 5, message: "first column named 'text'" });
});

test('a quoted name is the same name; empty names are not duplicates', () => {
  assert.deepEqual(findings('a,"a"\n1,2\n', 'duplicate-header').map(where), ['1:3-1:6 error duplicate-header']);
  assert.deepEqual(findings('a,,\n1,2,3\n', 'duplicate-header'), []);
});
