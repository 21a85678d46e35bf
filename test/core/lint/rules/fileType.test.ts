import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lintText } from '../../../../core/lint/lintText.ts';
import { runLines, summary, where } from '../lintTestHelpers.ts';

test('an unrecognisable file is one error, not one per line', () => {
  const result = lintText('alpha beta\ngamma delta\n'.repeat(500));
  assert.equal(result.type, 'unknown');
  assert.deepEqual(result.diagnostics.map(where), ['1:1-1:11 error file-type']);
  assert.match(result.diagnostics[0]!.message, /^cannot tell what kind of file this is: 2 columns/);
});

test('a run forced as qrels: one error naming what it looks like, then nothing more', () => {
  const result = lintText(runLines('q1', 500), 'qrels');
  assert.equal(result.type, 'qrels');
  assert.deepEqual(result.diagnostics.map(where), ['1:12-1:19 error file-type']);
  assert.match(
    result.diagnostics[0]!.message,
    /^100 of the first 100 lines are not valid TREC qrels lines \(line 1: expected 4 columns .*\); it looks like a TREC run \(6 columns\); the rest of the file is not linted$/,
  );
});

test('qrels with fractional labels throughout trip the guard; a few bad lines do not', () => {
  let text = '';
  for (let i = 0; i < 300; i++) text += `q1 0 d${i} 0.5\n`;
  assert.deepEqual(
    summary(text).map((s) => s.split(' ').at(-1)),
    ['file-type'],
  );
  let mostlyGood = '';
  for (let i = 0; i < 300; i++) mostlyGood += `q1 0 d${i} ${i % 3 === 0 ? '0.5' : '1'}\n`;
  assert.equal(summary(mostlyGood).length, 100);
});

test('a short file with bad lines lists them (someone is typing it)', () => {
  assert.deepEqual(summary('q1 0 d1\nq1 0 d2\n', 'qrels'), [
    '1:1-1:8 error column-count',
    '2:1-2:8 error column-count',
  ]);
});
