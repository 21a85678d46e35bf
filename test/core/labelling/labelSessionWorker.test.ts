// A labelling session over the study store in a worker thread, as the extension host runs it: the queue crosses as
// a typed array, a label and its undo are each one port call, the cursor is saved, and refusals keep their words.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { LabelSession } from '../../../core/labelling/labelSession.ts';
import { studyDatabasePath } from '../../../core/store/studyDatabase.ts';
import { openWorkerStudyStore } from '../../../core/worker/workerStudyStore.ts';
import { repoRoot } from '../../helpers.ts';
import { storeKinds } from '../../storeKinds.ts';
import { labellingStudy, nativeBinding, plainStudy } from './labellingStudy.ts';

const workerScript = join(repoRoot, 'core', 'worker', 'studyWorker.ts');

test('a session on a store in a worker labels, undoes and reopens where the annotator was', async () => {
  const study = await labellingStudy({ ...plainStudy(2, 3), extra: '  annotators alice bob  overlap 1' });
  const file = studyDatabasePath(study.studyFile);
  const store = await openWorkerStudyStore(file, { nativeBinding, workerScript });
  try {
    const queue = await store.labels.labelQueue(
      { studyId: study.studyId, annotatorId: -1, assignedOnly: false, unlabelledOnly: false },
      'query',
    );
    assert.ok(queue instanceof Int32Array, 'the queue crosses the thread as a typed array');
    assert.equal(queue.length, 6);

    const open = () => LabelSession.open(store, { studyFile: study.studyFile, study: study.study, annotator: 'alice' });
    const alice = await open();
    const state = alice.state();
    assert.deepEqual(state.progress, { assigned: 3, judged: 0 });
    const version = state.queue.version;
    const first = (await alice.pairAt(0, version, true))!;
    const stored = await alice.commit({ position: 0, pairId: first.pairId, label: 2, queueVersion: version });
    assert.deepEqual(stored.progress, { assigned: 3, judged: 1 });
    assert.equal(stored.pair.mine?.label, 2);
    await alice.commit({
      position: 1,
      pairId: (await alice.pairAt(1, version, false))!.pairId,
      label: 1,
      queueVersion: version,
    });
    const undone = (await alice.undo())!;
    assert.equal(undone.pair.position, 1);
    assert.equal(undone.pair.mine, undefined);
    assert.deepEqual(
      study.db.prepare('SELECT pair_id AS pairId, label FROM current_judgment').all(),
      [{ pairId: first.pairId, label: 2 }],
      'what the worker committed is in the file',
    );
    await assert.rejects(() => alice.commit({ position: 0, pairId: first.pairId, label: 7, queueVersion: version }), {
      name: 'StoreError',
      message: /label 7 is not on the scale of study 's'/,
    });
    await assert.rejects(
      () => LabelSession.open(store, { studyFile: study.studyFile, study: study.study, annotator: 'mallory' }),
      { name: 'StoreError', message: /'mallory' is not an annotator of study 's'/ },
    );

    const again = await open();
    assert.equal(again.state().position, 1, 'back on the pair the undo returned to');
    assert.deepEqual(again.state().progress, { assigned: 3, judged: 1 });
  } finally {
    await store.close();
    await study.close();
  }
});

// (The store of the first test is SQLite's worker thread, which opens a study file; this one needs no worker.)
for (const kind of storeKinds)
  test(`an LLM judge's name cannot label: the annotator rule of the store, in its words (${kind})`, async () => {
    const study = await labellingStudy(plainStudy(1, 2), kind);
    await study.store.studies.ensureAnnotator('llm-judge', 'llm');
    await assert.rejects(
      () => LabelSession.open(study.store, { studyFile: study.studyFile, study: study.study, annotator: 'llm-judge' }),
      { name: 'StoreError', message: `'llm-judge' is an LLM judge in ${study.store.location}, not a person` },
    );
    await study.close();
  });
