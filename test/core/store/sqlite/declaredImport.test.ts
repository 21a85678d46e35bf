// Importing what a study file declares, on real SQLite files: a 50k-document corpus whose import is aborted part-way
// (from a progress message, or a timer) leaves the database exactly as it was and a later import completes; pools
// alone; named files instead of the declared ones; the caller's mistakes as ImportRequestError.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseStudyFile, resolveStudies } from '../../../../core/dsl/index.ts';
import type { StudyModel } from '../../../../core/dsl/model.ts';
import type { ImportedRecord } from '../../../../core/importers/types.ts';
import { ImportRequestError, importDeclaredSources } from '../../../../core/store/declaredImport.ts';
import { SqliteStudyStore } from '../../../../core/store/sqlite/sqliteStudyStore.ts';
import { locateNativeBinding, openDatabase, type SqliteDatabase } from '../../../../core/store/sqliteDatabase.ts';
import { ImportCancelledError, studyDatabasePath } from '../../../../core/store/studyDatabase.ts';
import { nativeDir, scratchDir } from '../../../helpers.ts';

const nativeBinding = locateNativeBinding(nativeDir);
const documents = 50_000;
const queries = 20;

interface Workspace {
  folder: string;
  study: StudyModel;
  /** The study's store, which imports. */
  store: SqliteStudyStore;
  /** A second connection to its database, for the rows the tests look at. */
  db: SqliteDatabase;
  close(): Promise<void>;
}

/** A study file with 20 queries, a 50k-document corpus and a run ranking 30 documents per query; database synced. */
async function workspace(body?: string): Promise<Workspace> {
  const folder = scratchDir();
  mkdirSync(join(folder, 'data'));
  mkdirSync(join(folder, 'runs'));
  const studyFile = join(folder, 'big.assess');
  const text =
    body ??
    `study "big" {
  queries "data/queries.jsonl" { id: qid  text: query }
  corpus  "data/corpus.jsonl"  { id: _id  body: text  title: title }
  pool    "runs/bm25.trec" depth 10
  scale ordinal { 0 "No" key "0"  1 "Yes" key "1" }
  annotators alice bob
}
`;
  writeFileSync(studyFile, text);
  const queryLines = Array.from({ length: queries }, (_, q) => JSON.stringify({ qid: `q${q}`, query: `query ${q}` }));
  writeFileSync(join(folder, 'data', 'queries.jsonl'), `${queryLines.join('\n')}\n`);
  const corpus: string[] = [];
  for (let d = 0; d < documents; d++) {
    corpus.push(JSON.stringify({ _id: `d${d}`, title: `Title ${d}`, text: `The body of document ${d}, some words.` }));
  }
  writeFileSync(join(folder, 'data', 'corpus.jsonl'), `${corpus.join('\n')}\n`);
  const run: string[] = [];
  for (let q = 0; q < queries; q++) {
    for (let r = 1; r <= 30; r++) run.push(`q${q} Q0 d${q * 100 + r} ${r} ${100 - r} bm25`);
  }
  writeFileSync(join(folder, 'runs', 'bm25.trec'), `${run.join('\n')}\n`);
  const model = resolveStudies(parseStudyFile(text), studyFile);
  const store = await SqliteStudyStore.open(studyDatabasePath(studyFile), { nativeBinding });
  await store.studies.sync(model);
  const db = openDatabase(studyDatabasePath(studyFile), { nativeBinding });
  const close = async () => {
    db.close();
    await store.close();
  };
  return { folder, study: model.studies[0]!, store, db, close };
}

/** Every row of the study's tables, and whether any staging table is left in the store's connection's temp database. */
function snapshot({ db, store }: Workspace): unknown {
  const tables = ['study', 'query', 'document', 'run', 'pair', 'pair_origin', 'annotator', 'judgment', 'import_log'];
  return {
    ...Object.fromEntries(tables.map((t) => [t, db.prepare(`SELECT * FROM ${t} ORDER BY 1, 2`).all()])),
    staging: store.imports.stagingTables(),
  };
}

const rows = ({ db }: Workspace, table: string) => db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;

test('an import aborted from a progress message writes nothing; the next import completes', async () => {
  const ws = await workspace();
  // Something there before, so that "unchanged" is more than "empty": the queries alone.
  await importDeclaredSources(ws.store, ws.study, ws.folder, {
    files: [
      {
        target: 'queries',
        path: join(ws.folder, 'data', 'queries.jsonl'),
        shown: 'data/queries.jsonl',
        mapping: { id: 'qid', text: 'query' },
      },
    ],
  });
  assert.equal(rows(ws, 'query'), queries);
  const before = snapshot(ws);

  const controller = new AbortController();
  const messages: string[] = [];
  const started = performance.now();
  let abortedAt = 0;
  await assert.rejects(
    importDeclaredSources(ws.store, ws.study, ws.folder, {
      signal: controller.signal,
      onProgress: (message) => {
        messages.push(message);
        if (message === 'data/corpus.jsonl: 20,000 records read') {
          abortedAt = performance.now();
          controller.abort();
        }
      },
    }),
    (error: unknown) => error instanceof ImportCancelledError && /nothing was written/.test(error.message),
  );
  const stoppedAfter = performance.now() - abortedAt;
  assert.ok(abortedAt > 0, 'the corpus was being read when the import was aborted');
  assert.ok(!messages.includes('data/corpus.jsonl: 50,000 records read'), 'it stopped before the end of the corpus');
  assert.deepEqual(snapshot(ws), before);

  const completed: string[] = [];
  const report = await importDeclaredSources(ws.store, ws.study, ws.folder, { onProgress: (m) => completed.push(m) });
  const total = performance.now() - started;
  assert.deepEqual(report.documents, { added: documents, updated: 0, unchanged: 0 });
  assert.deepEqual(report.queries, { added: 0, updated: 0, unchanged: queries });
  assert.equal(report.pools[0]?.pairs, queries * 10);
  assert.equal(rows(ws, 'document'), documents);
  assert.deepEqual(
    ws.db.prepare('SELECT file, target, format, records FROM import_log ORDER BY id').all(),
    [
      { file: 'data/queries.jsonl', target: 'queries', format: 'beir', records: queries },
      { file: 'data/queries.jsonl', target: 'queries', format: 'beir', records: queries },
      { file: 'data/corpus.jsonl', target: 'corpus', format: 'beir', records: documents },
    ],
    'one log entry per file of the two completed imports, none of the cancelled one',
  );
  assert.deepEqual(completed, [
    'reading run runs/bm25.trec (top 10)',
    'reading data/queries.jsonl (beir)',
    `data/queries.jsonl: ${queries} records read`,
    'reading data/corpus.jsonl (beir)',
    'data/corpus.jsonl: 10,000 records read',
    'data/corpus.jsonl: 20,000 records read',
    'data/corpus.jsonl: 30,000 records read',
    'data/corpus.jsonl: 40,000 records read',
    'data/corpus.jsonl: 50,000 records read',
    'data/corpus.jsonl: 50,000 records read',
  ]);
  console.log(`abort → rejection ${stoppedAfter.toFixed(1)} ms; cancelled + full import ${total.toFixed(0)} ms`);
  await ws.close();
});

test('an import aborted by a timer while a file is read leaves the database as it was', async () => {
  const ws = await workspace();
  const before = snapshot(ws);
  const controller = new AbortController();
  await assert.rejects(
    importDeclaredSources(ws.store, ws.study, ws.folder, {
      signal: controller.signal,
      onProgress: (message) => {
        // Aborted from outside the import's own call stack, as a Cancel button does.
        if (message.startsWith('reading data/corpus.jsonl')) setTimeout(() => controller.abort(), 5);
      },
    }),
    ImportCancelledError,
  );
  assert.deepEqual(snapshot(ws), before);
  assert.equal(rows(ws, 'document'), 0);
  await ws.close();
});

test('a signal aborted before the start reads nothing and writes nothing', async () => {
  const ws = await workspace();
  const before = snapshot(ws);
  const messages: string[] = [];
  await assert.rejects(
    importDeclaredSources(ws.store, ws.study, ws.folder, {
      signal: AbortSignal.abort(),
      onProgress: (m) => messages.push(m),
    }),
    ImportCancelledError,
  );
  assert.deepEqual(messages, []);
  assert.deepEqual(snapshot(ws), before);
  await ws.close();
});

test('importBatch: an abort between staged batches drops the staging; the same database imports again', async () => {
  const ws = await workspace();
  const controller = new AbortController();
  async function* records(): AsyncIterable<ImportedRecord> {
    for (let i = 0; i < 25_000; i++) {
      if (i === 15_000) controller.abort();
      yield { kind: 'document', docid: `x${i}`, body: 'b', format: 'plain', metadata: {}, at: { file: 'x', line: i } };
    }
  }
  const origin = { file: 'x.jsonl', target: 'corpus', format: 'jsonl' };
  const before = snapshot(ws);
  await assert.rejects(
    ws.store.imports.importBatch(
      'big',
      [{ records: records() }].map((f) => ({ ...f, origin })),
      [],
      controller.signal,
    ),
    ImportCancelledError,
  );
  assert.deepEqual(snapshot(ws), before);
  const report = await ws.store.imports.importBatch('big', [{ records: records(), origin }]);
  assert.equal(report.documents.added, 25_000, 'without a signal the same records import');
  await ws.close();
});

test('pools alone: sources false reads the runs only; named runs are pooled with the declared ones', async () => {
  const ws = await workspace();
  writeFileSync(join(ws.folder, 'runs', 'extra.trec'), 'q0 Q0 d9999 1 5 extra\nq1 Q0 d101 1 5 extra\n');
  const report = await importDeclaredSources(ws.store, ws.study, ws.folder, {
    sources: false,
    runs: [{ path: join(ws.folder, 'runs', 'extra.trec'), shown: 'runs/extra.trec', depth: 5 }],
  });
  assert.deepEqual(report.files, []);
  assert.deepEqual(
    report.pools.map((p) => [p.run, p.added, p.pairs]),
    [
      ['runs/bm25.trec', queries * 10, queries * 10],
      ['runs/extra.trec', 1, queries * 10 + 1],
    ],
  );
  assert.equal(rows(ws, 'document'), 0);
  await ws.close();
});

test('the caller’s mistakes: nothing to import, a file named twice', async () => {
  const ws = await workspace(`study "big" {
  scale ordinal { 0 "No" key "0"  1 "Yes" key "1" }
}
`);
  await assert.rejects(
    importDeclaredSources(ws.store, ws.study, ws.folder),
    (error: unknown) =>
      error instanceof ImportRequestError &&
      error.reason === 'nothing to import' &&
      error.message ===
        "nothing to import: study 'big' declares no queries, corpus, pools or qrels, and no file was named",
  );
  const path = join(ws.folder, 'data', 'queries.jsonl');
  await assert.rejects(
    importDeclaredSources(ws.store, ws.study, ws.folder, {
      files: [
        { target: 'queries', path, shown: 'data/queries.jsonl' },
        { target: 'queries', path, shown: './data/queries.jsonl' },
      ],
    }),
    (error: unknown) =>
      error instanceof ImportRequestError &&
      error.reason === 'named twice' &&
      error.message === './data/queries.jsonl is named twice',
  );
  assert.equal(rows(ws, 'query'), 0);
  await ws.close();
});
