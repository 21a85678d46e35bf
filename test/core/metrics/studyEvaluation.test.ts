// The Evaluate view's numbers (evaluateStudyRuns) over a real SQLite study: nDCG takes the gains the study's scale
// declares (FollowTable: a table that violates the instruction gains 0, not 1), and without them gains the label.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import type { LabelSession } from '../../../core/labelling/labelSession.ts';
import { evaluateStudyRuns } from '../../../core/metrics/studyEvaluation.ts';
import { locateNativeBinding } from '../../../core/store/sqliteDatabase.ts';
import { studyDatabasePath } from '../../../core/store/studyDatabase.ts';
import { openWorkerStudyStore } from '../../../core/worker/workerStudyStore.ts';
import { evaluateRequestHandlers } from '../../../extension/panels/evaluateHandlers.ts';
import { nativeDir, repoRoot } from '../../helpers.ts';
import { createLabelStudy } from '../../webview/label/labelStudy.ts';

/** Labels the pair (qid, docid) through the Label view's session. */
async function labelPair(session: LabelSession, qid: string, docid: string, label: number): Promise<void> {
  const { queue } = session.state();
  for (let position = 0; position < queue.length; position++) {
    const pair = (await session.pairAt(position, queue.version, false))!;
    if (pair.query.qid === qid && pair.document?.docid === docid) {
      await session.commit({ position, pairId: pair.pairId, label, queueVersion: queue.version });
      return;
    }
  }
  throw new Error(`pair ${qid} ${docid} is not in the queue`);
}

/** One query; the run ranks b (violates, 1) above a (follows, 2) above c (off-topic, 0); alice labelled all three. */
async function labelledStudy(scaleLevels: string[]) {
  const study = await createLabelStudy({
    queries: [{ qid: 'q1', text: 'sales by region' }],
    documents: ['a', 'b', 'c'].map((docid) => ({ docid, text: `table ${docid}` })),
    ranking: { q1: ['b', 'a', 'c'] },
    scaleLevels,
  });
  const alice = await study.session('alice');
  for (const [docid, label] of [
    ['a', 2],
    ['b', 1],
    ['c', 0],
  ] as const) {
    await labelPair(alice, 'q1', docid, label);
  }
  return study;
}

async function evaluated(scaleLevels: string[]) {
  const study = await labelledStudy(scaleLevels);
  try {
    const studyId = await study.store.studies.studyId('dev');
    return await evaluateStudyRuns(study.store, studyId, study.study, study.folder, 'adjudicated-else-majority');
  } finally {
    await study.close();
  }
}

test("the Evaluate view's nDCG takes the gains the study's scale declares, and says so", async () => {
  const report = await evaluated([
    '0 "Off-topic" key "0"',
    '1 "Violates" key "1" gain 0',
    '2 "Follows" key "2" gain 1',
  ]);
  // Gains 0, 1, 0 in rank order: DCG = 1/log2 3; the ideal ranking (a first) has DCG 1: ndcg_cut_10 = 0.6309.
  assert.equal(report.runs[0]!.all.ndcg_cut_10!.toFixed(4), '0.6309');
  // The binary measures are the labels' (≥ 1 relevant): b and a at ranks 1 and 2, AP = 1.
  assert.equal(report.runs[0]!.all.map, 1);
  assert.deepEqual(report.gains, { 1: 0, 2: 1 });
});

test('without declared gains nDCG gains the label, as trec_eval', async () => {
  const report = await evaluated(['0 "Off-topic" key "0"', '1 "Violates" key "1"', '2 "Follows" key "2"']);
  // Gains 1, 2, 0: DCG = 1 + 2/log2 3 = 2.2619; ideal 2 + 1/log2 3 = 2.6309: ndcg_cut_10 = 0.8597.
  assert.equal(report.runs[0]!.all.ndcg_cut_10!.toFixed(4), '0.8597');
  assert.equal(report.gains, undefined);
});

test("the Evaluate view's report from the store's worker (the extension's) is the one computed in process", async () => {
  const study = await labelledStudy(['0 "Off-topic" key "0"', '1 "Violates" key "1" gain 0', '2 "Follows" key "2"']);
  const worker = await openWorkerStudyStore(studyDatabasePath(study.studyFile), {
    nativeBinding: locateNativeBinding(nativeDir),
    workerScript: join(repoRoot, 'core', 'worker', 'studyWorker.ts'),
  });
  try {
    const studyId = await study.store.studies.studyId('dev');
    const args = { studyId, study: study.study, folder: study.folder, from: 'annotator:alice' };
    const inProcess = await evaluateStudyRuns(study.store, studyId, study.study, study.folder, args.from);
    assert.deepEqual(await worker.jobs.evaluateStudyRuns(args), inProcess);
    assert.equal(inProcess.labels, 3);
    // The handlers hand it to the worker when the store is one.
    const { reportId: _, ...fromHandlers } = await evaluateRequestHandlers(() => ({
      store: worker,
      studyId,
      study: study.study,
      folder: study.folder,
    }))['evaluate/report']({ from: 'annotator:alice', baseline: undefined });
    assert.deepEqual(fromHandlers, inProcess);
  } finally {
    await worker.close();
    await study.close();
  }
});
