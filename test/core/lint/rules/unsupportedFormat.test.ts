import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lintText } from '../../../../core/lint/lintText.ts';
import { where } from '../lintTestHelpers.ts';

function prels(lines: number): string {
  let text = '';
  for (let i = 0; i < lines; i++)
    text += `${800 + (i % 7)} GX0${i}-12-34567 ${i % 3 === 0 ? 1 : 0} ${i % 5} 0.0${i % 97}\n`;
  return text;
}

test('a statAP prels file is named once and not linted', () => {
  const result = lintText(prels(5000));
  assert.equal(result.type, 'prels');
  assert.deepEqual(result.diagnostics.map(where), ['1:1-1:27 warning unsupported-format']);
  assert.equal(result.diagnostics[0]!.message, 'this is a prels file (statAP), not a qrels file; not linted');
});

test('forced as qrels, a prels file is one error naming it', () => {
  const result = lintText(prels(5000), 'qrels');
  assert.deepEqual(
    result.diagnostics.map((d) => d.rule),
    ['file-type'],
  );
  assert.match(
    result.diagnostics[0]!.message,
    /it looks like a statAP prels file \(5 columns: qid docid rel stratum probability\)/,
  );
});

test('qrels are not mistaken for prels', () => {
  assert.equal(lintText('q1 0 d1 1\n').type, 'qrels');
});
