// trec_eval 10 on real TREC Web 2010 judgments (graded −2..4) and two runs with score ties, unjudged documents
// and missing topics (test/fixtures/reference-measures, README there): every line of `trec_eval -q -m all_trec`
// (and with -c) must be ours, byte for byte.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { readQrels } from '../../../core/formats/trecQrels.ts';
import { evaluateRunFile } from '../../../core/metrics/evaluate.ts';
import { selectMeasures } from '../../../core/metrics/measureSelection.ts';
import { formatTrecEvalText } from '../../../core/metrics/trecEvalOutput.ts';
import { fixturesDir } from '../../helpers.ts';
import { assertSameTrecEvalLines } from './trecEvalComparison.ts';

const folder = join(fixturesDir, 'reference-measures');

const cases = ['runA', 'runB'].flatMap((run) => [
  // trec_eval -q -m all_trec runX.inrun.qrels runX.run
  { run, qrels: `${run}.inrun.qrels`, complete: false, expected: `${run}.trec_eval.all_trec.q` },
  // trec_eval -q -c -m all_trec web.qrels runX.run
  { run, qrels: 'web.qrels', complete: true, expected: `${run}.trec_eval.all_trec.q.c` },
]);

for (const c of cases) {
  test(`trec_eval -q${c.complete ? ' -c' : ''} -m all_trec ${c.qrels} ${c.run}.run equals ${c.expected}`, async () => {
    const qrels = await readQrels(join(folder, c.qrels));
    const evaluation = await evaluateRunFile(qrels, join(folder, `${c.run}.run`), {
      measures: selectMeasures(['all_trec']).measures,
      relevanceLevel: 1,
      maxRetrieved: Number.POSITIVE_INFINITY,
      complete: c.complete,
    });
    const ours = formatTrecEvalText(evaluation, { perQuery: true, runidLine: 'summary' });
    assertSameTrecEvalLines(ours, readFileSync(join(folder, c.expected), 'latin1'), c.expected);
  });
}
