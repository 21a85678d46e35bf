// trec_eval's own test suite (test/fixtures/trec_eval, from its Makefile): our output must equal trec_eval's
// expected output byte for byte, every line of every file — no measure is skipped.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { readQrels } from '../../../core/formats/trecQrels.ts';
import { evaluateRunFile } from '../../../core/metrics/evaluate.ts';
import { selectMeasures } from '../../../core/metrics/measureSelection.ts';
import { formatTrecEvalText } from '../../../core/metrics/trecEvalOutput.ts';
import { assertSameTrecEvalLines } from './trecEvalComparison.ts';
import { trecEvalSuite as suite, suiteCases, suiteOptions } from './trecEvalSuite.ts';

for (const c of suiteCases) {
  const flags = [
    c.measures.map((m) => `-m ${m}`).join(' '),
    c.perQuery ? '-q' : '',
    c.complete ? '-c' : '',
    c.maxRetrieved ? `-M${c.maxRetrieved}` : '',
    c.relevanceLevel ? `-l${c.relevanceLevel}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  test(`trec_eval ${flags} ${c.qrels} ${c.run} equals ${c.expected}`, async () => {
    const qrels = await readQrels(join(suite, c.qrels));
    const selection = selectMeasures(c.measures);
    assert.deepEqual(selection.skipped, []);
    const evaluation = await evaluateRunFile(qrels, join(suite, c.run), suiteOptions(c));
    const ours = formatTrecEvalText(evaluation, { perQuery: c.perQuery ?? false, runidLine: 'summary' });
    assertSameTrecEvalLines(ours, readFileSync(join(suite, c.expected), 'latin1'), c.expected);
  });
}

test('gzip-compressed qrels and run give the same numbers as the plain files', async () => {
  const { gzipSync } = await import('node:zlib');
  const { writeFileSync } = await import('node:fs');
  const { scratchDir } = await import('../../helpers.ts');
  const dir = scratchDir();
  writeFileSync(join(dir, 'q.gz'), gzipSync(readFileSync(join(suite, 'qrels.test'))));
  writeFileSync(join(dir, 'r'), gzipSync(readFileSync(join(suite, 'results.test')))); // no .gz suffix: sniffed
  const options = suiteOptions({ measures: ['all_trec'] });
  const plainQrels = await readQrels(join(suite, 'qrels.test'));
  const plain = await evaluateRunFile(plainQrels, join(suite, 'results.test'), options);
  const gzQrels = await readQrels(join(dir, 'q.gz'));
  const gz = await evaluateRunFile(gzQrels, join(dir, 'r'), options);
  assert.deepEqual(gz.all, plain.all);
});
