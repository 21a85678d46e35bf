import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findings, where } from '../lintTestHelpers.ts';

test('a comment right after a comment is read as a judgment by trec_eval', () => {
  const [d, ...more] = findings('# a\n# bb\nq1 0 d1 1\n', 'comment-placement');
  assert.deepEqual(more, []);
  assert.equal(where(d!), '2:1-2:5 warning comment-placement');
  assert.match(d!.message, /^comment right after another comment/);
});

test('of three comments in a row, trec_eval misreads only the second', () => {
  assert.deepEqual(findings('# a\n# b\n# c\nq1 0 d1 1\n', 'comment-placement').map(where), [
    '2:1-2:4 warning comment-placement',
  ]);
});

test('a comment on the last line is a warning', () => {
  assert.deepEqual(findings('q1 0 d1 1\n# end\n', 'comment-placement').map(where), [
    '2:1-2:6 warning comment-placement',
  ]);
});

test("single comments between judgments are fine (trec_eval's own test file)", () => {
  assert.deepEqual(findings('# c\nq1 0 d1 1\n# c\nq1 0 CR#2 0\n', 'comment-placement'), []);
});
