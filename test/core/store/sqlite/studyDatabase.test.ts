// The task database on real SQLite files, through the store (the storage port's SQLite adapter): syncing a study
// file, imports that are all-or-nothing and idempotent, judgments append-only with the current label as a view, and a
// scale value in use that cannot be removed. What is in the tables is read through a second connection.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseStudyFile, resolveStudies } from '../../../../core/dsl/index.ts';
import type { ImportedRecord } from '../../../../core/importers/types.ts';
import { SqliteStudyStore } from '../../../../core/store/sqlite/sqliteStudyStore.ts';
import { locateNativeBinding, openDatabase, type SqliteDatabase } from '../../../../core/store/sqliteDatabase.ts';
import { StoreError, studyDatabasePath } from '../../../../core/store/studyDatabase.ts';
import { nativeDir, scratchDir } from '../../../helpers.ts';

const nativeBinding = locateNativeBinding(nativeDir);

function studyText(scale = '0 "No" key "0"  1 "Yes" key "1"  2 "Very" key "2"'): string {
  return `study "s" {
  queries "q.jsonl" { id: qid  text: query }
  corpus  "c.jsonl" { id: docid  body: text }
  scale ordinal { ${scale} }
}
`;
}

interface Study {
  store: SqliteStudyStore;
  /** A second connection to the database, for what is in its tables. */
  sql: SqliteDatabase;
  close(): Promise<void>;
}

async function openStudy(text = studyText()): Promise<Study> {
  const file = join(scratchDir(), 'study.sqlite');
  const store = await SqliteStudyStore.open(file, { nativeBinding });
  await store.studies.sync(resolveStudies(parseStudyFile(text)));
  const sql = openDatabase(file, { nativeBinding });
  return {
    store,
    sql,
    async close() {
      sql.close();
      await store.close();
    },
  };
}

async function* stream(records: ImportedRecord[], failAfter?: number): AsyncIterable<ImportedRecord> {
  let i = 0;
  for (const record of records) {
    if (failAfter !== undefined && i++ === failAfter) throw new Error('q.jsonl:3:1: expected a JSON object, found `[`');
    yield record;
  }
}

const at = (line: number) => ({ file: 'x', line });
const query = (qid: string, text: string, line: number): ImportedRecord => ({
  kind: 'query',
  qid,
  text,
  metadata: {},
  at: at(line),
});
const doc = (docid: string, body: string, line: number): ImportedRecord => ({
  kind: 'document',
  docid,
  body,
  format: 'plain',
  metadata: { lang: 'en' },
  at: at(line),
});
const judgment = (qid: string, docid: string, label: number, line: number): ImportedRecord => ({
  kind: 'judgment',
  qid,
  docid,
  label,
  at: at(line),
});

function snapshot(db: Study): unknown {
  const tables = ['study', 'scale_value', 'query', 'document', 'pair', 'annotator', 'judgment', 'import_log'];
  return Object.fromEntries(tables.map((t) => [t, db.sql.prepare(`SELECT * FROM ${t} ORDER BY 1, 2`).all()]));
}

test('the database sits next to the study file, in .qrels-studio/', async () => {
  assert.equal(studyDatabasePath('/data/wqt/wqt-dev.assess'), '/data/wqt/.qrels-studio/wqt-dev.sqlite');
});

test('an import that fails part-way leaves the database exactly as before', async () => {
  const db = await openStudy();
  await db.store.imports.importRecords('s', stream([query('q1', 'first', 1)]), {
    file: 'q.jsonl',
    target: 'queries',
    format: 'jsonl',
  });
  const before = snapshot(db);
  await assert.rejects(
    db.store.imports.importRecords('s', stream([query('q2', 'a', 1), query('q3', 'b', 2), query('q4', 'c', 3)], 2), {
      file: 'q.jsonl',
      target: 'queries',
      format: 'jsonl',
    }),
    /q\.jsonl:3:1: expected a JSON object/,
  );
  assert.deepEqual(snapshot(db), before);
  await db.close();
});

test('an id twice in one file is an error naming both lines; nothing is imported', async () => {
  const db = await openStudy();
  const before = snapshot(db);
  await assert.rejects(
    db.store.imports.importRecords('s', stream([doc('d1', 'a', 1), doc('d2', 'b', 2), doc('d1', 'c', 3)]), {
      file: 'c.jsonl',
      target: 'corpus',
      format: 'jsonl',
    }),
    (error: unknown) =>
      error instanceof StoreError &&
      error.message === "x:3: expected a new document id, found 'd1' again (first at x:1)",
  );
  assert.deepEqual(snapshot(db), before);
  await db.close();
});

test('an id twice is the same error whether the study had documents (ids indexed in the staging) or none', async () => {
  const db = await openStudy();
  const origin = { file: 'c.jsonl', target: 'corpus', format: 'jsonl' };
  await db.store.imports.importRecords('s', stream([doc('d0', 'a', 1)]), origin);
  const before = snapshot(db);
  await assert.rejects(
    db.store.imports.importRecords('s', stream([doc('d1', 'a', 1), doc('d2', 'b', 2), doc('d1', 'c', 3)]), origin),
    (error: unknown) =>
      error instanceof StoreError &&
      error.message === "x:3: expected a new document id, found 'd1' again (first at x:1)",
  );
  assert.deepEqual(snapshot(db), before);
  await db.close();
});

test('whole-line documents (staged with fewer values) and others (a parent, a format, a column) keep the file order', async () => {
  const db = await openStudy();
  const origin = { file: 'c.jsonl', target: 'corpus', format: 'jsonl' };
  // 150 documents: runs of whole-line ones longer than a multi-row statement, broken by ones staged in full.
  const records: ImportedRecord[] = Array.from({ length: 150 }, (_, i) => {
    const line = i + 1;
    const record = { ...doc(`d${i}`, `body ${i}`, line), at: { file: 'c.jsonl', line, column: 1 } };
    if (i % 70 === 5) return { ...record, parent: 'd0' };
    if (i % 70 === 6) return { ...record, format: 'markdown' as const };
    if (i % 70 === 7) return { ...record, at: { file: 'c.jsonl', line, column: 3 } };
    return record;
  });
  await db.store.imports.importRecords('s', stream(records), origin);
  const rows = db.sql
    .prepare(
      "SELECT docid, body, format, parent_docid, metadata, source FROM document WHERE docid LIKE 'd%' ORDER BY id",
    )
    .all() as { docid: string; body: string; format: string; parent_docid: string | null; source: string }[];
  assert.deepEqual(
    rows.map((r) => r.docid),
    records.map((r) => (r as { docid: string }).docid),
  );
  assert.deepEqual(rows[5], {
    docid: 'd5',
    body: 'body 5',
    format: 'plain',
    parent_docid: 'd0',
    metadata: '{"lang":"en"}',
    source: 'c.jsonl',
  });
  assert.deepEqual(rows[76], {
    docid: 'd76',
    body: 'body 76',
    format: 'markdown',
    parent_docid: null,
    metadata: '{"lang":"en"}',
    source: 'c.jsonl',
  });
  assert.deepEqual(rows[100], {
    docid: 'd100',
    body: 'body 100',
    format: 'plain',
    parent_docid: null,
    metadata: '{"lang":"en"}',
    source: 'c.jsonl',
  });
  // A repeated id at whole lines is named at file:line:1, as at other columns.
  const again = [
    { ...doc('e1', 'a', 1), at: { file: 'c.jsonl', line: 1, column: 1 } },
    { ...doc('e1', 'b', 2), at: { file: 'c.jsonl', line: 2, column: 1 } },
  ];
  await assert.rejects(
    db.store.imports.importRecords('s', stream(again), origin),
    (error: unknown) =>
      error instanceof StoreError &&
      error.message === "c.jsonl:2:1: expected a new document id, found 'e1' again (first at c.jsonl:1:1)",
  );
  await db.close();
});

test('a first import with a document id twice and a judgment twice reports the document, as a later one does', async () => {
  for (const hasDocuments of [false, true]) {
    const db = await openStudy();
    if (hasDocuments) {
      await db.store.imports.importRecords('s', stream([doc('d0', 'a', 1)]), {
        file: 'c.jsonl',
        target: 'corpus',
        format: 'jsonl',
      });
    }
    await assert.rejects(
      db.store.imports.importBatch('s', [
        {
          records: stream([query('q1', 'a', 1)]),
          origin: { file: 'q.jsonl', target: 'queries', format: 'jsonl' },
        },
        {
          records: stream([doc('d1', 'a', 1), doc('d1', 'b', 2)]),
          origin: { file: 'c.jsonl', target: 'corpus', format: 'jsonl' },
        },
        {
          records: stream([judgment('q1', 'd1', 1, 1), judgment('q1', 'd1', 2, 2)]),
          origin: { file: 'l.tsv', target: 'labels', format: 'trec-qrels', annotator: 'nist' },
        },
      ]),
      /x:2: expected a new document id, found 'd1' again \(first at x:1\)/,
      `study with documents: ${hasDocuments}`,
    );
    await db.close();
  }
});

test('importing the same files twice adds nothing the second time; a changed text is updated', async () => {
  const db = await openStudy();
  const origin = { file: 'c.jsonl', target: 'corpus', format: 'jsonl' };
  const first = await db.store.imports.importRecords('s', stream([doc('d1', 'a', 1), doc('d2', 'b', 2)]), origin);
  assert.deepEqual(first.documents, { added: 2, updated: 0, unchanged: 0 });
  const again = await db.store.imports.importRecords(
    's',
    stream([doc('d1', 'a', 1), doc('d2', 'B', 2), doc('d3', 'c', 3)]),
    origin,
  );
  assert.deepEqual(again.documents, { added: 1, updated: 1, unchanged: 1 });
  assert.equal(db.sql.prepare("SELECT body FROM document WHERE docid = 'd2'").pluck().get(), 'B');

  const qrels = { file: 'old.qrels', target: 'qrels', format: 'trec-qrels', annotator: 'nist' };
  const judged = await db.store.imports.importRecords(
    's',
    stream([judgment('q1', 'd1', 1, 1), judgment('q1', 'd2', 0, 2)]),
    qrels,
  );
  assert.deepEqual(judged.judgments, { added: 2, updated: 0, unchanged: 0 });
  const twice = await db.store.imports.importRecords(
    's',
    stream([judgment('q1', 'd1', 1, 1), judgment('q1', 'd2', 2, 2)]),
    qrels,
  );
  assert.deepEqual(twice.judgments, { added: 1, updated: 0, unchanged: 1 }, 'only the changed label is a new judgment');
  assert.deepEqual(await db.store.exports.currentLabels('s'), [
    { qid: 'q1', docid: 'd1', annotator: 'nist', label: 1 },
    { qid: 'q1', docid: 'd2', annotator: 'nist', label: 2 },
  ]);
  assert.equal(db.sql.prepare('SELECT count(*) FROM judgment').pluck().get(), 3, 'judgments are never overwritten');
  await db.close();
});

test('imported labels must be on the scale; a pair judged twice in a file without times is an error', async () => {
  const db = await openStudy();
  const qrels = { file: 'q.qrels', target: 'qrels', format: 'trec-qrels', annotator: 'nist' };
  await assert.rejects(
    db.store.imports.importRecords('s', stream([judgment('q1', 'd1', 1, 1), judgment('q1', 'd2', 3, 2)]), qrels),
    /^StoreError: x:2: label 3 is not on the scale of study 's' \(0, 1, 2\)$/,
  );
  await assert.rejects(
    db.store.imports.importRecords('s', stream([judgment('q1', 'd1', 1, 1), judgment('q1', 'd1', 0, 4)]), qrels),
    /x:4: expected one judgment of document 'd1' for query 'q1' by nist, found a second \(first at x:1\)/,
  );
  assert.equal(db.sql.prepare('SELECT count(*) FROM judgment').pluck().get(), 0);
  await db.close();
});

test('judgments are appended; the current label is the latest; a scale value in use cannot be removed', async () => {
  const db = await openStudy();
  const t = (ms: number) => new Date(Date.UTC(2026, 10, 22, 10, 0, 0, ms));
  await db.store.labels.addJudgment({
    study: 's',
    qid: 'q1',
    docid: 'd1',
    annotator: 'alice',
    label: 2,
    source: 'manual',
    createdAt: t(1),
  });
  await db.store.labels.addJudgment({
    study: 's',
    qid: 'q1',
    docid: 'd1',
    annotator: 'alice',
    label: 1,
    source: 'manual',
    createdAt: t(2),
  });
  await db.store.labels.addJudgment({
    study: 's',
    qid: 'q1',
    docid: 'd1',
    annotator: 'bob',
    label: 2,
    source: 'suggestion',
    shownLabel: 2,
  });
  assert.deepEqual(
    (await db.store.exports.currentLabels('s')).map((l) => `${l.annotator}=${l.label}`),
    ['alice=1', 'bob=2'],
  );
  await assert.rejects(
    db.store.labels.addJudgment({ study: 's', qid: 'q1', docid: 'd2', annotator: 'alice', label: 7, source: 'manual' }),
    /label 7 is not on the scale of study 's' \(0, 1, 2\)/,
  );
  // Removing value 2 (bob's current label) is refused, naming the judgment; removing 0 (unused) is fine.
  await assert.rejects(
    db.store.studies.sync(resolveStudies(parseStudyFile(studyText('0 "No" key "0"  1 "Yes" key "1"')))),
    /study 's': scale value 2 cannot be removed, judgments use it \(q1\/d1 by bob\)/,
  );
  const report = await db.store.studies.sync(
    resolveStudies(parseStudyFile(studyText('1 "Yes" key "1"  2 "Very" key "2"  3 "Perfect" key "3"'))),
  );
  assert.deepEqual(report.addedScaleValues, { s: [3] });
  assert.deepEqual(db.sql.prepare('SELECT value FROM scale_value ORDER BY value').pluck().all(), [1, 2, 3]);
  await db.close();
});

test('an unknown study is an error naming the known ones', async () => {
  const db = await openStudy();
  await assert.rejects(db.store.studies.studyId('nope'), /no study 'nope' in .*study\.sqlite \(it has: s\)/);
  await db.close();
});

test('two judgments of a pair by one annotator in the same millisecond stay two, the second current', async () => {
  const db = await openStudy();
  const first = await db.store.labels.addJudgment({
    study: 's',
    qid: 'q1',
    docid: 'd1',
    annotator: 'alice',
    label: 0,
    source: 'manual',
  });
  const second = await db.store.labels.addJudgment({
    study: 's',
    qid: 'q1',
    docid: 'd1',
    annotator: 'alice',
    label: 2,
    source: 'manual',
  });
  assert.ok(second.createdAt > first.createdAt);
  assert.deepEqual(
    (await db.store.exports.currentLabels('s')).map((l) => l.label),
    [2],
  );
  await db.close();
});

test('a batch of files is one import: a failing second file leaves the first out too; ids unique across files', async () => {
  const db = await openStudy();
  const before = snapshot(db);
  await assert.rejects(
    db.store.imports.importBatch('s', [
      {
        records: stream([query('q1', 'a', 1), query('q2', 'b', 2)]),
        origin: { file: 'q.jsonl', target: 'queries', format: 'jsonl' },
      },
      {
        records: stream([query('q3', 'c', 1), query('q1', 'again', 2)]),
        origin: { file: 'more.tsv', target: 'queries', format: 'trec-topics' },
      },
    ]),
    /x:2: expected a new query id, found 'q1' again \(first at x:1\)/,
  );
  assert.deepEqual(snapshot(db), before);
  await db.close();
});

test('pooling adds pairs with their best rank and origin; pooling deeper never drops a judgment', async () => {
  const db = await openStudy();
  const ranking = (depth: number) =>
    new Map([
      ['q1', ['d3', 'd1', 'd2', 'd4'].slice(0, depth).map((docid, i) => ({ docid, rank: i + 1 }))],
      ['q2', ['d1', 'd5'].slice(0, depth).map((docid, i) => ({ docid, rank: i + 1 }))],
    ]);
  const first = await db.store.imports.addPool('s', {
    run: { path: 'runs/bm25.trec', tag: 'bm25', depth: 2 },
    queries: ranking(2),
  });
  assert.deepEqual([first.pooled, first.added, first.pairs], [4, 4, 4]);
  await db.store.labels.addJudgment({
    study: 's',
    qid: 'q1',
    docid: 'd3',
    annotator: 'alice',
    label: 2,
    source: 'manual',
  });
  const other = new Map([
    [
      'q1',
      [
        { docid: 'd1', rank: 1 },
        { docid: 'd9', rank: 2 },
      ],
    ],
  ]);
  const second = await db.store.imports.addPool('s', {
    run: { path: 'runs/e5.trec', tag: 'e5', depth: 2 },
    queries: other,
  });
  assert.deepEqual([second.added, second.pairs], [1, 5]);
  const deeper = await db.store.imports.addPool('s', {
    run: { path: 'runs/bm25.trec', tag: 'bm25', depth: 4 },
    queries: ranking(4),
  });
  assert.deepEqual([deeper.added, deeper.pairs], [2, 7]);
  const shallower = await db.store.imports.addPool('s', {
    run: { path: 'runs/bm25.trec', tag: 'bm25', depth: 1 },
    queries: ranking(1),
  });
  assert.deepEqual([shallower.added, shallower.pairs], [0, 7], 'pooling shallower removes nothing');
  assert.deepEqual(await db.store.exports.currentLabels('s'), [
    { qid: 'q1', docid: 'd3', annotator: 'alice', label: 2 },
  ]);
  // d1 is rank 2 in bm25 and rank 1 in e5: its best rank is 1, and it has both origins.
  assert.equal(db.sql.prepare("SELECT best_rank FROM pair WHERE qid = 'q1' AND docid = 'd1'").pluck().get(), 1);
  assert.equal(
    db.sql
      .prepare("SELECT count(*) FROM pair_origin JOIN pair ON pair.id = pair_id WHERE qid = 'q1' AND docid = 'd1'")
      .pluck()
      .get(),
    2,
  );
  await db.close();
});

test('imports record annotators by the one rule: a declared kind sticks, a person cannot become an LLM', async () => {
  const db = await openStudy();
  const qrels = (annotator: string, kind?: 'llm' | 'gold') => ({
    file: `${annotator}.qrels`,
    target: 'qrels',
    format: 'trec-qrels',
    annotator,
    ...(kind && { kind }),
  });
  await db.store.imports.importRecords('s', stream([judgment('q1', 'd1', 1, 1)]), qrels('gpt', 'llm'));
  // Labels by the same name from a file that declares nothing keep the kind it was declared as.
  await db.store.imports.importRecords('s', stream([judgment('q1', 'd2', 0, 1)]), qrels('gpt'));
  await db.store.imports.importRecords('s', stream([judgment('q1', 'd1', 2, 1)]), qrels('alice'));
  const before = snapshot(db);
  await assert.rejects(
    db.store.imports.importRecords('s', stream([judgment('q1', 'd3', 1, 1)]), qrels('alice', 'llm')),
    (error: unknown) =>
      error instanceof StoreError && /'alice' is a person in .*study\.sqlite, not an LLM judge/.test(error.message),
  );
  assert.deepEqual(snapshot(db), before, 'nothing of the refused import is written');
  await db.store.imports.importRecords('s', stream([judgment('q1', 'd3', 1, 1)]), qrels('alice', 'gold'));
  assert.deepEqual(db.sql.prepare('SELECT name, kind, label_kind FROM annotator ORDER BY name').raw().all(), [
    ['alice', 'human', 'gold'],
    ['gpt', 'llm', 'llm'],
  ]);
  await db.close();
});
