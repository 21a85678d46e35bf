// The Agreement view's report off the editor's thread: computed in the store's worker (workerJobs.agreementDashboard,
// what the extension's handlers ask when the store is a worker store) it is the same report as computed in process
// over the same record — headlines with their bootstrap intervals, pairs, queries, trend, adjudicated count.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { agreementDashboard } from '../../../core/agreement/agreementDashboard.ts';
import { parseStudyFile, resolveStudies } from '../../../core/dsl/index.ts';
import { SqliteStudyStore } from '../../../core/store/sqlite/sqliteStudyStore.ts';
import { locateNativeBinding } from '../../../core/store/sqliteDatabase.ts';
import { openWorkerStudyStore } from '../../../core/worker/workerStudyStore.ts';
import { agreementRequestHandlers } from '../../../extension/panels/agreementHandlers.ts';
import { nativeDir, repoRoot, scratchDir } from '../../helpers.ts';

const nativeBinding = locateNativeBinding(nativeDir);
const workerScript = join(repoRoot, 'core', 'worker', 'studyWorker.ts');
const model = resolveStudies(
  parseStudyFile(`study "s" {
  queries "q.jsonl" { id: qid  text: query }
  corpus  "c.jsonl" { id: docid  body: text }
  scale ordinal { 0 "No" key "0"  1 "Partly" key "1"  2 "Yes" key "2" }
  annotators alice bob carol
  adjudicator dana
  agreement krippendorff ordinal target 0.5
  agreement cohen nominal
}
`),
);
const study = model.studies[0]!;

test('the agreement report computed in the worker is the one computed in process', async () => {
  const file = join(scratchDir(), 'study.sqlite');
  const worker = await openWorkerStudyStore(file, { nativeBinding, workerScript });
  const local = await SqliteStudyStore.open(file, { nativeBinding });
  try {
    await worker.studies.sync(model);
    // Three people and an LLM judge on 3 queries × 6 documents; bob and the judge differ from alice now and then.
    for (let k = 0; k < 18; k++) {
      const qid = `q${Math.floor(k / 6) + 1}`;
      const docid = `d${k}`;
      const alice = k % 3;
      const labels: [string, number | undefined][] = [
        ['alice', alice],
        ['bob', k % 5 === 0 ? (alice + 1) % 3 : alice],
        ['carol', k < 12 ? (k % 7 === 0 ? (alice + 2) % 3 : alice) : undefined],
        ['llm:judge@abc', k % 4 === 0 ? (alice + 1) % 3 : alice],
      ];
      for (const [annotator, label] of labels) {
        if (label === undefined) continue;
        await local.labels.addJudgment({
          study: 's',
          qid,
          docid,
          annotator,
          label,
          source: annotator.startsWith('llm:') ? 'imported' : 'manual',
        });
      }
    }
    await local.labels.addJudgment({
      study: 's',
      qid: 'q1',
      docid: 'd0',
      annotator: 'dana',
      label: 1,
      source: 'adjudicated',
    });
    const studyId = await worker.studies.studyId('s');
    const options = { bootstrap: 200, seed: 7 };

    const inProcess = await agreementDashboard(local, studyId, study, options);
    const inWorker = await worker.jobs.agreementDashboard({ studyId, study, options });
    assert.deepEqual(inWorker, inProcess);
    // A real report: four annotators, an interval from the bootstrap, the adjudication counted.
    assert.equal(inProcess.annotators.length, 4);
    assert.ok(inProcess.headlines[0]!.interval !== null, 'a bootstrap interval');
    assert.equal(inProcess.adjudicated, 1);
    assert.ok(inProcess.disagreements > 0);

    // The handlers hand the report to the worker when the store is one, and compute it here otherwise: same answer.
    const onAdjudicate = async () => {};
    const jobs: string[] = [];
    const counted: typeof worker = {
      ...worker,
      jobs: new Proxy(worker.jobs, {
        get: (target, name) => {
          if (typeof name === 'string') jobs.push(name);
          return target[name as keyof typeof target];
        },
      }),
    };
    const fromWorker = agreementRequestHandlers(() => ({ store: counted, studyId, study }), { seed: 7, onAdjudicate });
    const fromHere = agreementRequestHandlers(() => ({ store: local, studyId, study }), { seed: 7, onAdjudicate });
    assert.deepEqual(
      await fromWorker['agreement/report']({ threshold: 1 }),
      await fromHere['agreement/report']({ threshold: 1 }),
    );
    assert.deepEqual(
      await fromWorker['agreement/confusion']({ a: 'alice', b: 'llm:judge@abc', threshold: 1 }),
      await fromHere['agreement/confusion']({ a: 'alice', b: 'llm:judge@abc', threshold: 1 }),
    );
    const adjudicated: number[][] = [];
    const queueOf = agreementRequestHandlers(() => ({ store: counted, studyId, study }), {
      onAdjudicate: async (_selection, pairIds) => void adjudicated.push(pairIds),
    });
    const queueHere = agreementRequestHandlers(() => ({ store: local, studyId, study }), {
      onAdjudicate: async (_selection, pairIds) => void adjudicated.push(pairIds),
    });
    assert.deepEqual(
      await queueOf['agreement/adjudicate']({ kind: 'all' }),
      await queueHere['agreement/adjudicate']({ kind: 'all' }),
    );
    assert.ok(adjudicated[0]!.length > 0);
    assert.deepEqual(adjudicated[0], adjudicated[1]);
    await assert.rejects(
      Promise.resolve(queueOf['agreement/adjudicate']({ kind: 'pair', a: 'alice', b: 'zoe' })),
      /no labels by 'zoe'/,
    );
    // Each was computed by the worker's job, not by reading the labels across the thread.
    assert.deepEqual(jobs, ['agreementDashboard', 'agreementConfusion', 'adjudicationPairIds', 'adjudicationPairIds']);
  } finally {
    await local.close();
    await worker.close();
  }
});
