// The rank-based measures with trec_eval's own parameters (-m iprec_at_recall..10,.25, -m G.1=3,2=9, …) and
// options (-c -l2 -M50), line for line against trec_eval 10's output on the same files
// (test/fixtures/trec_eval-parameters, README there says which command made each).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { readQrels } from '../../../../core/formats/trecQrels.ts';
import { evaluateRunFile } from '../../../../core/metrics/evaluate.ts';
import { selectMeasures } from '../../../../core/metrics/measureSelection.ts';
import { formatTrecEvalText } from '../../../../core/metrics/trecEvalOutput.ts';
import { fixturesDir } from '../../../helpers.ts';
import { assertSameTrecEvalLines } from '../trecEvalComparison.ts';

interface ParameterCase {
  expected: string;
  qrels: string;
  run: string;
  measures: string[];
  complete?: boolean;
  relevanceLevel?: number;
  maxRetrieved?: number;
}

const cases: ParameterCase[] = [
  {
    // The thresholds and cutoffs of trec_eval's Makefile meas_params check, and more.
    expected: 'qrels.test.cutoffs.q',
    qrels: 'trec_eval/qrels.test',
    run: 'trec_eval/results.test',
    measures: [
      'iprec_at_recall..10,.20,.25,.75,.50',
      'Rprec_mult.5.0,0.2,0.35',
      '11pt_avg..25,.5,.75',
      'success.2,5,20',
      'map_cut.3,7,2000',
      'relative_P.2,50',
    ],
  },
  {
    // Graded TREC Web judgments (−2 junk … 4) with custom gains: label 0 made relevant, labels reordered.
    expected: 'runA.gains.q',
    qrels: 'reference-measures/web.qrels',
    run: 'reference-measures/runA.run',
    measures: ['G.1=3,2=9,4=4.5', 'ndcg_rel.0=1,3=1', 'Rndcg.2=5,4=2', 'dcg', 'ideal_dcg', 'binG'],
  },
  {
    // Gains less than 1 apart: trec_eval's int-truncating comparison and glibc's merge sort decide the ideal order.
    expected: 'runA.fractional-gains.q',
    qrels: 'reference-measures/web.qrels',
    run: 'reference-measures/runA.run',
    measures: ['G.1=0.5,3=2.7,0=0.2', 'Rndcg.2=1.5,1=0.6', 'ndcg_rel.4=0.3,2=0.9,1=1.4', 'ideal_dcg.3=0.5,1=0.9,0=0.4'],
  },
  {
    expected: 'runA.dcg-pairs.q',
    qrels: 'reference-measures/web.qrels',
    run: 'reference-measures/runA.run',
    measures: ['dcg.1=2,2=2,4=0'],
  },
  {
    // runB misses topics (-c counts them), -l2 and -M50.
    expected: 'runB.graded.q.c.l2.M50',
    qrels: 'reference-measures/web.qrels',
    run: 'reference-measures/runB.run',
    measures: [
      'G.1=3,2=9,4=4.5',
      'ndcg_rel',
      'Rndcg',
      'dcg',
      'ideal_dcg',
      'binG',
      'iprec_at_recall',
      '11pt_avg',
      'Rprec_mult',
    ],
    complete: true,
    relevanceLevel: 2,
    maxRetrieved: 50,
  },
];

for (const c of cases) {
  test(`trec_eval -q ${c.measures.map((m) => `-m ${m}`).join(' ')} equals ${c.expected}`, async () => {
    const qrels = await readQrels(join(fixturesDir, c.qrels));
    const evaluation = await evaluateRunFile(qrels, join(fixturesDir, c.run), {
      measures: selectMeasures(c.measures).measures,
      relevanceLevel: c.relevanceLevel ?? 1,
      maxRetrieved: c.maxRetrieved ?? Number.POSITIVE_INFINITY,
      complete: c.complete ?? false,
    });
    const ours = formatTrecEvalText(evaluation, { perQuery: true, runidLine: 'none' });
    const expected = readFileSync(join(fixturesDir, 'trec_eval-parameters', c.expected), 'utf8');
    assertSameTrecEvalLines(ours, expected, c.expected);
  });
}
