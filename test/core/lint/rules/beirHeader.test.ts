import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findings, where } from '../lintTestHelpers.ts';

test('a BEIR file starting with a judgment: warning on line 1, which the loader drops', () => {
  const [d, ...more] = findings('q1\td1\t1\nq1\td2\t0\nq2\td1\t2\n', 'beir-header');
  assert.deepEqual(more, []);
  assert.equal(where(d!), '1:1-1:8 warning beir-header');
  assert.match(d!.message, /^no header line: the BEIR loader skips the first line as its header/);
});

test('a header line, standard or not, is fine', () => {
  assert.deepEqual(findings('query-id\tcorpus-id\tscore\nq1\td1\t1\n', 'beir-header'), []);
  assert.deepEqual(findings('qid\tdocid\trel\nq1\td1\t1\nq1\td2\t0\n', 'beir-header', 'beir-qrels'), []);
});
