import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findings, qrelsLines, runLines, where } from '../lintTestHelpers.ts';

test('a qrels line with a missing column is an error spanning the line', () => {
  const [d, ...more] = findings('q1 0 d1 1\nq1 0 d2\nq1 0 d3 0\n', 'column-count');
  assert.deepEqual(more, []);
  assert.equal(where(d!), '2:1-2:8 error column-count');
  assert.equal(d!.message, 'expected 4 columns (qid iter docid rel), found 3');
});

test('an extra qrels column is an error on the extra fields (trec_eval rejects the line)', () => {
  const [d] = findings('q1 0 d1 1\nq1  0\td2 1 x y \nq1 0 d3 0\n', 'column-count');
  assert.equal(where(d!), '2:12-2:15 error column-count');
  assert.match(d!.message, /found 6: trec_eval rejects the line as malformed/);
});

test('an empty qrels line is an error (trec_eval: Malformed line); in a run it is skipped', () => {
  assert.deepEqual(findings('q1 0 d1 1\n\nq1 0 d2 0\n', 'column-count').map(where), ['2:1-2:1 error column-count']);
  assert.deepEqual(findings('q1 0 d1 1\n  \t\nq1 0 d2 0\n', 'column-count').map(where), ['2:1-2:4 error column-count']);
  assert.deepEqual(findings(`${runLines('q1', 2)}\n${runLines('q2', 2)}`, 'column-count'), []);
});

test('a short run line is an error; a BEIR row with two fields too', () => {
  const run = `${runLines('q1', 3)}q1 Q0 d9 4 0.5\n`;
  assert.deepEqual(findings(run, 'column-count').map(where), ['4:1-4:15 error column-count']);
  const beir = 'query-id\tcorpus-id\tscore\nq1\td1\t1\nq1\td2\n';
  const [d] = findings(beir, 'column-count');
  assert.equal(where(d!), '3:1-3:6 error column-count');
  assert.equal(d!.message, 'expected 3 tab-separated columns (query-id corpus-id score), found 2');
});

test('well-formed files, tabs or runs of spaces, have no column problem', () => {
  assert.deepEqual(findings(qrelsLines('q1', 5), 'column-count'), []);
  assert.deepEqual(findings('q1\t0\td1\t1\nq1   0  d2 \t 0\n', 'column-count'), []);
  assert.deepEqual(findings(runLines('q1', 5), 'column-count'), []);
});
