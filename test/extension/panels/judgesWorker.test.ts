// The Agreement view's Judges section off the editor's thread: with a worker store (the extension's SQLite store),
// the `agreement/judges` handler asks the worker's job (workerJobs.judgeQualityReport), and its report is the one
// computed in process over the same record — κ with its bootstrap interval, the confusion matrix, the system rankings.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseStudyFile, resolveStudies } from '../../../core/dsl/index.ts';
import { SqliteStudyStore } from '../../../core/store/sqlite/sqliteStudyStore.ts';
import { locateNativeBinding } from '../../../core/store/sqliteDatabase.ts';
import { openWorkerStudyStore } from '../../../core/worker/workerStudyStore.ts';
import { agreementRequestHandlers } from '../../../extension/panels/agreementHandlers.ts';
import { nativeDir, repoRoot, scratchDir } from '../../helpers.ts';

const nativeBinding = locateNativeBinding(nativeDir);
const workerScript = join(repoRoot, 'core', 'worker', 'studyWorker.ts');

test("the Judges section's report computed in the worker is the one computed in process", async () => {
  const folder = scratchDir();
  // Two runs ranking the same 12 pairs in opposite orders.
  let a = '';
  let b = '';
  for (let q = 1; q <= 3; q++) {
    for (let d = 1; d <= 4; d++) {
      a += `q${q} Q0 d${q}-${d} ${d} ${10 - d} a\n`;
      b += `q${q} Q0 d${q}-${d} ${5 - d} ${d} b\n`;
    }
  }
  writeFileSync(join(folder, 'a.run'), a);
  writeFileSync(join(folder, 'b.run'), b);
  const studyFile = join(folder, 's.assess');
  const model = resolveStudies(
    parseStudyFile(`study "s" {
  queries "q.jsonl" { id: qid  text: query }
  corpus  "c.jsonl" { id: docid  body: text }
  pool "a.run" depth 4
  pool "b.run" depth 4
  scale ordinal { 0 "No" key "0"  1 "Partly" key "1"  2 "Yes" key "2" }
  annotators alice
  judge "m" { accept when kappa >= 0.5 }
}
`),
    studyFile,
  );
  const study = model.studies[0]!;
  const file = join(folder, 'study.sqlite');
  const worker = await openWorkerStudyStore(file, { nativeBinding, workerScript });
  const local = await SqliteStudyStore.open(file, { nativeBinding });
  try {
    await worker.studies.sync(model);
    for (let k = 0; k < 12; k++) {
      const qid = `q${Math.floor(k / 4) + 1}`;
      const docid = `d${Math.floor(k / 4) + 1}-${(k % 4) + 1}`;
      const alice = k % 3;
      await local.labels.addJudgment({ study: 's', qid, docid, annotator: 'alice', label: alice, source: 'manual' });
      await local.labels.addJudgment({
        study: 's',
        qid,
        docid,
        annotator: 'llm:m@abc',
        label: k % 5 === 0 ? (alice + 1) % 3 : alice,
        source: 'imported',
      });
    }
    const studyId = await worker.studies.studyId('s');
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
    const hooks = { bootstrap: 200, seed: 7, onAdjudicate: async () => {} };
    const fromWorker = agreementRequestHandlers(() => ({ store: counted, studyId, study, folder }), hooks);
    const fromHere = agreementRequestHandlers(() => ({ store: local, studyId, study, folder }), hooks);
    const inWorker = await fromWorker['agreement/judges']({});
    assert.deepEqual(inWorker, await fromHere['agreement/judges']({}));
    assert.deepEqual(jobs, ['judgeQualityReport']);
    // A real report: one judge over 12 shared pairs, a bootstrap interval, two runs ranked, the gate checked.
    const [judge] = inWorker.judges;
    assert.equal(inWorker.judges.length, 1);
    assert.equal(judge!.sharedPairs, 12);
    assert.ok(judge!.kappa.interval !== null, 'a bootstrap interval');
    assert.equal(judge!.rankings?.systems.length, 2);
    assert.equal(judge!.gate.declared, true);
    // Another measure goes to the worker too.
    assert.equal((await fromWorker['agreement/judges']({ measure: 'P.2' })).options.measure, 'P.2');
  } finally {
    await local.close();
    await worker.close();
  }
});
