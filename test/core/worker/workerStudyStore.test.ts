// The study store across a worker thread, as the extension host uses it: the same answers as in process, errors
// that keep their class, change notifications for writes through it and for another process's commits, and a
// clear refusal of what cannot cross a thread.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseStudyFile, resolveStudies } from '../../../core/dsl/index.ts';
import type { ImportedRecord } from '../../../core/importers/types.ts';
import { SqliteStudyStore } from '../../../core/store/sqlite/sqliteStudyStore.ts';
import { locateNativeBinding } from '../../../core/store/sqliteDatabase.ts';
import { StoreError } from '../../../core/store/studyDatabase.ts';
import type { StoreChange } from '../../../core/store/studyStore.ts';
import { openWorkerStudyStore } from '../../../core/worker/workerStudyStore.ts';
import { nativeDir, repoRoot, scratchDir } from '../../helpers.ts';

const nativeBinding = locateNativeBinding(nativeDir);
const workerScript = join(repoRoot, 'core', 'worker', 'studyWorker.ts');
const model = resolveStudies(
  parseStudyFile(`study "s" {
  queries "q.jsonl" { id: qid  text: query }
  corpus  "c.jsonl" { id: docid  body: text }
  scale ordinal { 0 "No" key "0"  1 "Yes" key "1" }
}
`),
);

function nextChange(store: { onChange(l: (c: StoreChange) => void): () => void }, what: StoreChange['what']) {
  return new Promise<StoreChange>((resolve) => {
    const stop = store.onChange((change) => {
      if (change.what !== what) return;
      stop();
      resolve(change);
    });
  });
}

test('a store in a worker answers as the store in process does, and keeps error classes', async () => {
  const file = join(scratchDir(), 'study.sqlite');
  const store = await openWorkerStudyStore(file, { nativeBinding, workerScript });
  try {
    assert.equal(store.location, file);
    await store.studies.sync(model);
    const studyId = await store.studies.studyId('s');
    assert.equal(typeof studyId, 'number');
    await store.labels.addJudgment({
      study: 's',
      qid: 'q1',
      docid: 'd1',
      annotator: 'alice',
      label: 1,
      source: 'manual',
    });
    assert.deepEqual(await store.exports.currentLabels('s'), [
      { qid: 'q1', docid: 'd1', annotator: 'alice', label: 1 },
    ]);
    await assert.rejects(store.studies.studyId('nope'), (error: unknown) => {
      assert.ok(error instanceof StoreError, `a StoreError, not ${String(error)}`);
      assert.match(error.message, /no study 'nope' .*it has: s/);
      return true;
    });
    await assert.rejects(
      store.labels.addJudgment({ study: 's', qid: 'q1', docid: 'd1', annotator: 'bob', label: 7, source: 'manual' }),
      StoreError,
    );
    assert.equal(await store.jobs.ping(), 'pong');
    await assert.rejects(
      store.imports.importRecords('s', (async function* () {})(), { file: 'x', target: 'q', format: 'jsonl' }),
      /takes streams/,
    );
  } finally {
    await store.close();
  }
  await assert.rejects(store.studies.studyId('s'), /closed|stopped/);
});

test("the worker's store tells of its own writes and of another process's commits", async () => {
  const file = join(scratchDir(), 'study.sqlite');
  const store = await openWorkerStudyStore(file, { nativeBinding, workerScript });
  const other = await SqliteStudyStore.open(file, { nativeBinding });
  try {
    await store.studies.sync(model);
    const own = nextChange(store, 'labels');
    await store.labels.addJudgment({
      study: 's',
      qid: 'q1',
      docid: 'd1',
      annotator: 'alice',
      label: 1,
      source: 'manual',
    });
    assert.deepEqual(await own, { what: 'labels', study: 's' });
    const external = nextChange(store, 'external');
    await other.labels.addJudgment({
      study: 's',
      qid: 'q1',
      docid: 'd2',
      annotator: 'bob',
      label: 0,
      source: 'manual',
    });
    assert.deepEqual(await external, { what: 'external' });
  } finally {
    await other.close();
    await store.close();
  }
});

test('a worker that cannot open its database rejects with the reason', async () => {
  const folder = scratchDir();
  const { writeFileSync } = await import('node:fs');
  const file = join(folder, 'not-sqlite.sqlite');
  writeFileSync(file, 'this is not a database, it is a text file long enough to have a header of sorts\n'.repeat(10));
  await assert.rejects(openWorkerStudyStore(file, { nativeBinding, workerScript }), (error: unknown) => {
    assert.ok(error instanceof StoreError);
    assert.match(error.message, /not a Qrels Studio database/);
    return true;
  });
});

test('two imports on one store take turns: their staging tables are the connection’s own', async () => {
  const store = await SqliteStudyStore.open(join(scratchDir(), 'study.sqlite'), { nativeBinding });
  try {
    await store.studies.sync(model);
    const slowQueries = async function* (): AsyncIterable<ImportedRecord> {
      for (let i = 0; i < 3; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        yield { kind: 'query', qid: `q${i}`, text: `query ${i}`, metadata: {}, at: { file: 'q.jsonl', line: i + 1 } };
      }
    };
    const documents = async function* (): AsyncIterable<ImportedRecord> {
      for (let i = 0; i < 3; i++) {
        yield {
          kind: 'document',
          docid: `d${i}`,
          body: `text ${i}`,
          format: 'plain',
          metadata: {},
          at: { file: 'c.jsonl', line: i + 1 },
        };
      }
    };
    const [first, second] = await Promise.all([
      store.imports.importRecords('s', slowQueries(), { file: 'q.jsonl', target: 'queries', format: 'jsonl' }),
      store.imports.importRecords('s', documents(), { file: 'c.jsonl', target: 'corpus', format: 'jsonl' }),
    ]);
    assert.equal(first.queries.added, 3);
    assert.equal(first.documents.added, 0);
    assert.equal(second.documents.added, 3);
    assert.equal(second.queries.added, 0);
  } finally {
    await store.close();
  }
});
