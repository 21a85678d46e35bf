// A study's declared sources imported inside the store's worker (the extension's import): the report as in process,
// progress asked for while it runs, Cancel writing nothing, and a malformed file's error back as its own class with
// its positioned message; a database of a newer Qrels Studio refused with the same message as in process.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseStudyFile, resolveStudies } from '../../../core/dsl/index.ts';
import { ImportError } from '../../../core/importers/types.ts';
import { SchemaVersionError } from '../../../core/store/migrate.ts';
import { locateNativeBinding, openDatabase } from '../../../core/store/sqliteDatabase.ts';
import { ImportCancelledError } from '../../../core/store/studyDatabase.ts';
import { openWorkerStudyStore } from '../../../core/worker/workerStudyStore.ts';
import { nativeDir, repoRoot, scratchDir } from '../../helpers.ts';

const nativeBinding = locateNativeBinding(nativeDir);
const workerScript = join(repoRoot, 'core', 'worker', 'studyWorker.ts');

function studyFolder(documents: number, corpusLine?: (i: number) => string) {
  const folder = scratchDir();
  writeFileSync(join(folder, 'q.jsonl'), '{"qid":"q1","query":"solar"}\n{"qid":"q2","query":"wind"}\n');
  const line = corpusLine ?? ((i: number) => `{"docid":"d${i}","text":"document ${i}"}`);
  writeFileSync(join(folder, 'c.jsonl'), `${Array.from({ length: documents }, (_, i) => line(i)).join('\n')}\n`);
  const model = resolveStudies(
    parseStudyFile(`study "s" {
  queries "q.jsonl" { id: qid  text: query }
  corpus  "c.jsonl" { id: docid  body: text }
  scale ordinal { 0 "No" key "0"  1 "Yes" key "1" }
}
`),
    join(folder, 's.assess'),
  );
  return { folder, model, study: model.studies[0]! };
}

test('an import job imports what the study declares, in the worker, with its report and progress', async () => {
  const { folder, model, study } = studyFolder(3);
  const store = await openWorkerStudyStore(join(folder, 'study.sqlite'), { nativeBinding, workerScript });
  try {
    await store.studies.sync(model);
    assert.equal(await store.studies.hasImported('s'), false);
    const report = await store.jobs.importDeclared({ importId: 'a', study, folder });
    assert.deepEqual(report.queries, { added: 2, updated: 0, unchanged: 0 });
    assert.deepEqual(report.documents, { added: 3, updated: 0, unchanged: 0 });
    assert.equal(await store.studies.hasImported('s'), true);
    assert.equal(await store.jobs.importProgress('a'), undefined, 'no progress once it has finished');
    assert.equal(await store.jobs.cancelImport('a'), false);
  } finally {
    await store.close();
  }
});

test('Cancel stops an import in the worker with nothing written', async () => {
  const { folder, model, study } = studyFolder(200_000);
  const store = await openWorkerStudyStore(join(folder, 'study.sqlite'), { nativeBinding, workerScript });
  try {
    await store.studies.sync(model);
    const running = store.jobs.importDeclared({ importId: 'big', study, folder });
    running.catch(() => {});
    let progress: string | undefined;
    for (let i = 0; i < 200 && progress === undefined; i++) {
      progress = await store.jobs.importProgress('big');
      if (progress === undefined) await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.match(progress ?? '', /q\.jsonl|c\.jsonl/);
    assert.equal(await store.jobs.cancelImport('big'), true);
    await assert.rejects(running, ImportCancelledError);
    assert.equal(await store.studies.hasImported('s'), false);
  } finally {
    await store.close();
  }
});

test("a malformed file's error comes back from the worker as its class, with its position", async () => {
  const { folder, model, study } = studyFolder(3, (i) => (i === 1 ? '[1, 2]' : `{"docid":"d${i}","text":"t"}`));
  const store = await openWorkerStudyStore(join(folder, 'study.sqlite'), { nativeBinding, workerScript });
  try {
    await store.studies.sync(model);
    await assert.rejects(store.jobs.importDeclared({ importId: 'bad', study, folder }), (error: unknown) => {
      assert.ok(error instanceof ImportError, `an ImportError, not ${String(error)}`);
      assert.match(error.message, /^c\.jsonl:2:1: expected /);
      assert.equal(error.at.line, 2);
      return true;
    });
    assert.equal(await store.studies.hasImported('s'), false);
  } finally {
    await store.close();
  }
});

test('a database of a newer Qrels Studio is refused by the worker as in process', async () => {
  const file = join(scratchDir(), 'newer.sqlite');
  const db = openDatabase(file, { nativeBinding });
  db.pragma('user_version = 999');
  db.close();
  await assert.rejects(openWorkerStudyStore(file, { nativeBinding, workerScript }), (error: unknown) => {
    assert.ok(error instanceof SchemaVersionError, `a SchemaVersionError, not ${String(error)}`);
    assert.match(error.message, /newer than this Qrels Studio knows/);
    return true;
  });
});
