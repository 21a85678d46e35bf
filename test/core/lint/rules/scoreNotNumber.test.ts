import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findings, runLines, where } from '../lintTestHelpers.ts';

test('a score with a decimal comma is an error at the score: atof reads 1', () => {
  const [d, ...more] = findings(`${runLines('q1', 2)}q1 Q0 d3 3 1,5 tag\n`, 'score-not-number');
  assert.deepEqual(more, []);
  assert.equal(where(d!), '3:12-3:15 error score-not-number');
  assert.equal(d!.message, "score '1,5' is not a decimal number: trec_eval would rank the document with score 1");
});

test('nan is refused without guessing what atof makes of it', () => {
  const [d] = findings(`${runLines('q1', 2)}q1 Q0 d3 3 nan tag\n`, 'score-not-number');
  assert.equal(d!.message, "score 'nan' is not a decimal number");
});

test('integers, exponents, signs and long decimals are numbers', () => {
  const text = 'q1 Q0 d1 1 12 t\nq1 Q0 d2 2 1e-3 t\nq1 Q0 d3 3 -0.5 t\nq1 Q0 d4 4 -0.6898301657029192123 t\n';
  assert.deepEqual(findings(text, 'score-not-number'), []);
});
