// nDCG with gains from a study's scale (--gains): FollowTable labels 2 compliant, 1 violating, 0 off-topic, and a
// violating table is worth nothing, not 1. Without gains, trec_eval's gain = label (trecEvalTestSuite.test.ts).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { readQrels } from '../../../core/formats/trecQrels.ts';
import { evaluateRunFile, type RunEvaluation } from '../../../core/metrics/evaluate.ts';
import { selectMeasures } from '../../../core/metrics/measureSelection.ts';
import { scratchDir } from '../../helpers.ts';

async function evaluate(qrelsText: string, runText: string, gains?: Map<number, number>): Promise<RunEvaluation> {
  const dir = scratchDir();
  writeFileSync(join(dir, 'qrels'), qrelsText);
  writeFileSync(join(dir, 'run'), runText);
  return evaluateRunFile(await readQrels(join(dir, 'qrels')), join(dir, 'run'), {
    measures: selectMeasures(['ndcg', 'ndcg_cut.1,3']).measures,
    relevanceLevel: 1,
    maxRetrieved: Number.POSITIVE_INFINITY,
    complete: false,
    ...(gains && { gains }),
  });
}

const value = (evaluation: RunEvaluation, name: string): number => {
  const found = evaluation.all.find((v) => v.name === name);
  assert.ok(found, `no value ${name}`);
  return found.value;
};
const near = (actual: number, expected: number, what: string) =>
  assert.ok(Math.abs(actual - expected) < 1e-9, `${what}: ${actual}, expected ${expected}`);

// a compliant (2), b violating (1), c off-topic (0); the run ranks the violating table first: b, a, c.
const qrels = 'q 0 a 2\nq 0 b 1\nq 0 c 0\n';
const run = 'q Q0 b 1 3 r\nq Q0 a 2 2 r\nq Q0 c 3 1 r\n';

test('without gains, gain = label (trec_eval): the violating table first still earns 1', async () => {
  const evaluation = await evaluate(qrels, run);
  // DCG = 1/log2 2 + 2/log2 3 = 1 + 1.261860 = 2.261860; ideal [a b] = 2 + 1/log2 3 = 2.630930.
  near(value(evaluation, 'ndcg'), (1 + 2 / Math.log2(3)) / (2 + 1 / Math.log2(3)), 'ndcg');
  near(value(evaluation, 'ndcg_cut_1'), 1 / 2, 'ndcg_cut_1: b gains 1 of the ideal 2');
});

test('--gains 0:0,1:0,2:1: the violating table gains 0', async () => {
  const evaluation = await evaluate(
    qrels,
    run,
    new Map([
      [0, 0],
      [1, 0],
      [2, 1],
    ]),
  );
  // DCG = 0 + 1/log2 3 = 0.630930; ideal [a] = 1 → 0.630930.
  near(value(evaluation, 'ndcg'), 1 / Math.log2(3), 'ndcg');
  near(value(evaluation, 'ndcg_cut_1'), 0, 'ndcg_cut_1: b gains nothing');
  near(value(evaluation, 'ndcg_cut_3'), 1 / Math.log2(3), 'ndcg_cut_3');
});

test('gains reorder the ideal ranking; a label not listed gains itself', async () => {
  // 1:3 makes label 1 worth more than label 2 (which keeps gain 2): the ideal is [b a], DCG 3 + 2/log2 3.
  // The run is that ideal: 1 (with the ideal ordered by label, [a b], it would be 3.892/3.262 = 1.19 > 1).
  const reordered = await evaluate(qrels, run, new Map([[1, 3]]));
  near(value(reordered, 'ndcg'), 1, 'ndcg');
  near(value(reordered, 'ndcg_cut_1'), 1, 'ndcg_cut_1');
});
