// trec_eval 10 on real TREC Web 2010 judgments (graded −2..4) and two runs with score ties, unjudged documents
// and missing topics (test/fixtures/reference-measures, README there): every line of `trec_eval -q -m all_trec`
// (and with -c) must be ours, byte for byte.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { readQrels } from '../../../core/formats/trecQrels.ts';
import { readZscores } from '../../../core/formats/zscores.ts';
import { type EvaluationOptions, evaluateRunFile } from '../../../core/metrics/evaluate.ts';
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

// More outputs of trec_eval 10.0-rc3 (built from its source; test/fixtures/README.md gives each command): -J, -c
// with -M and -l, the parameterised forms and -Z.
const extra = join(folder, 'trec_eval-extra');
const extraCases: {
  expected: string;
  run: string;
  qrels: string;
  measures: string[];
  perQuery?: boolean;
  options?: Partial<EvaluationOptions>;
}[] = [
  {
    expected: 'runB.trec_eval.J.all_trec.q',
    run: 'runB',
    qrels: 'runB.inrun.qrels',
    measures: ['all_trec'],
    options: { judgedOnly: true },
  },
  {
    expected: 'runB.trec_eval.cJM50l2.all_trec.q',
    run: 'runB',
    qrels: 'web.qrels',
    measures: ['all_trec'],
    options: { complete: true, judgedOnly: true, maxRetrieved: 50, relevanceLevel: 2 },
  },
  {
    expected: 'runA.trec_eval.params1.q',
    run: 'runA',
    qrels: 'runA.inrun.qrels',
    measures: [
      'utility.1,-1,-0.5,0.001',
      'set_F.0.5',
      'relstring.15',
      'ndcg.1=3,2=9',
      'rbp.p=0.8',
      'P.3,7',
      'unj.1,50',
    ],
    options: { numDocsInCollection: 50000000 },
  },
  {
    expected: 'runA.trec_eval.params2.q',
    run: 'runA',
    qrels: 'runA.inrun.qrels',
    measures: [
      'rbp_resid.p=0.8',
      'iprec_at_recall.0.25,0.125,0.5',
      'Rprec_mult.0.5,3',
      'G.1=2,4=1',
      'dcg',
      'ideal_dcg',
    ],
  },
  {
    expected: 'runB.trec_eval.set',
    run: 'runB',
    qrels: 'runB.inrun.qrels',
    measures: ['set', 'relstring'],
    perQuery: false,
  },
];

for (const c of extraCases) {
  test(`trec_eval ${c.measures.map((m) => `-m ${m}`).join(' ')} ${JSON.stringify(c.options ?? {})} equals ${c.expected}`, async () => {
    const qrels = await readQrels(join(folder, c.qrels));
    const evaluation = await evaluateRunFile(qrels, join(folder, `${c.run}.run`), {
      measures: selectMeasures(c.measures).measures,
      relevanceLevel: 1,
      maxRetrieved: Number.POSITIVE_INFINITY,
      complete: false,
      ...c.options,
    });
    const runidLine = c.measures.some((m) => ['runid', 'official', 'set', 'all_trec'].includes(m)) ? 'summary' : 'none';
    const ours = formatTrecEvalText(evaluation, { perQuery: c.perQuery ?? true, runidLine });
    assertSameTrecEvalLines(ours, readFileSync(join(extra, c.expected), 'latin1'), c.expected);
  });
}

test('trec_eval -q -Z runA.zscores: z-scores, Z-prefixed lines, -1000000 where the file has no line', async () => {
  const qrels = await readQrels(join(folder, 'runA.inrun.qrels'));
  const evaluation = await evaluateRunFile(qrels, join(folder, 'runA.run'), {
    measures: selectMeasures(['map', 'P.10', 'num_ret', 'gm_map', 'num_rel_ret']).measures,
    relevanceLevel: 1,
    maxRetrieved: Number.POSITIVE_INFINITY,
    complete: false,
    zscores: await readZscores(join(extra, 'runA.zscores')),
  });
  const ours = formatTrecEvalText(evaluation, { perQuery: true, runidLine: 'none' });
  assertSameTrecEvalLines(ours, readFileSync(join(extra, 'runA.trec_eval.Z.q'), 'latin1'), 'runA.trec_eval.Z.q');
});

test('trec_eval -q -c zeroes a query without results by line name: a renamed utility_…, relstring_7 or rbp_resid_p=… is not', async () => {
  const qrels = await readQrels(join(extra, 'renamed.qrels'));
  const specs = ['rbp.p=0.7', 'rbp_resid.p=0.7', 'rbp_resid', 'set_F.0.3', 'utility.2,-1,-0.5,0.01', 'relstring.7'];
  const evaluation = await evaluateRunFile(qrels, join(extra, 'renamed.run'), {
    measures: selectMeasures([...specs, 'relstring', 'ndcg.1=3,2=0', 'unj.2,4', 'infAP', 'gm_bpref', 'gm_map'])
      .measures,
    relevanceLevel: 1,
    maxRetrieved: Number.POSITIVE_INFINITY,
    complete: true,
    numDocsInCollection: 1000,
  });
  const ours = formatTrecEvalText(evaluation, { perQuery: true, runidLine: 'none' });
  const expected = readFileSync(join(extra, 'renamed.trec_eval.q.c'), 'latin1');
  assertSameTrecEvalLines(ours, expected, 'renamed.trec_eval.q.c');
});
