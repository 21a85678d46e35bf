// A study of a million pairs, built in seconds: rows written with SQL straight into a real task database (synced
// from a real study file through the store, then filled through a second connection), not imported from files. For the scale test of a labelling session and for benchmarks.
// The store is SQLite's by default; `kind: 'postgres'` builds the same rows (same ids) in a fresh PostgreSQL database
// of the run's cluster (test/storeKinds.ts).
//
// Shape: `queries` queries q0…, each with `perQuery` pooled documents; document n is `d<n>` (zero-padded), a chunk
// of parent `p<n / 10>`; pair (q, rank r) names document q·perQuery + r - 1 with best rank r. Pairs are inserted
// rank by rank across the queries (as pooling several runs leaves them), so pair-id order is not the query order.
// Optionally another annotator's judgments and an LLM judge's suggestions on a regular share of the pairs.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { parseStudyFile, resolveStudies } from '../../../core/dsl/index.ts';
import type { StudyModel } from '../../../core/dsl/model.ts';
import { postgresTypes } from '../../../core/store/postgres/postgresContext.ts';
import type { PostgresStudyStore } from '../../../core/store/postgres/postgresStudyStore.ts';
import { SqliteStudyStore } from '../../../core/store/sqlite/sqliteStudyStore.ts';
import { locateNativeBinding, openDatabase } from '../../../core/store/sqliteDatabase.ts';
import { studyDatabasePath } from '../../../core/store/studyDatabase.ts';
import type { StudyStore } from '../../../core/store/studyStore.ts';
import { openTestStore, type StoreKind } from '../../storeKinds.ts';

export interface LargeStudyOptions {
  folder: string;
  /** Native binding folder (dist/native). */
  nativeDir: string;
  queries: number;
  perQuery: number;
  /** Statements inside the study block (annotators, overlap, blind, …). */
  extra?: string;
  /** Every `judgedEvery`-th pair (by pair id, from the first) gets a label by `judgedBy` (a human). */
  judgedEvery?: number;
  judgedBy?: string;
  /** Every `suggestedEvery`-th pair gets a suggestion by `llm:bench@0` with a confidence. */
  suggestedEvery?: number;
  /** The store's kind (default sqlite). */
  kind?: StoreKind;
}

export interface LargeStudy<S extends StudyStore = SqliteStudyStore> {
  studyFile: string;
  study: StudyModel;
  store: S;
  studyId: number;
  pairs: number;
  /** The number of rows of `table`, read through a second connection to the record. */
  countRows(table: string): Promise<number>;
}

export function largeStudyText(extra = ''): string {
  return `study "large" {
  queries "queries.jsonl" { id: qid  text: query }
  corpus  "corpus.jsonl"  { id: docid  body: text  parent: parent }
  pool    "run.trec" depth 100
  scale ordinal { 0 "No" key "0"  1 "Partly" key "1"  2 "Yes" key "2" }
${extra}
}
`;
}

export async function buildLargeStudy(options: LargeStudyOptions & { kind?: 'sqlite' }): Promise<LargeStudy>;
export async function buildLargeStudy(
  options: LargeStudyOptions & { kind: 'postgres' },
): Promise<LargeStudy<PostgresStudyStore>>;
export async function buildLargeStudy(options: LargeStudyOptions): Promise<LargeStudy<StudyStore>>;
export async function buildLargeStudy(options: LargeStudyOptions): Promise<LargeStudy<StudyStore>> {
  if (options.kind === 'postgres') return buildLargePostgresStudy(options);
  const studyFile = join(options.folder, 'large.assess');
  const text = largeStudyText(options.extra);
  writeFileSync(studyFile, text);
  const model = resolveStudies(parseStudyFile(text), studyFile);
  const nativeBinding = locateNativeBinding(options.nativeDir);
  const store = await SqliteStudyStore.open(studyDatabasePath(studyFile), { nativeBinding });
  await store.studies.sync(model);
  const studyId = await store.studies.studyId('large');
  const db = openDatabase(studyDatabasePath(studyFile), { nativeBinding });
  const pairs = options.queries * options.perQuery;
  const numbers = 'WITH RECURSIVE n (i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < @last)';
  db.transaction(() => {
    db.prepare(
      `${numbers} INSERT INTO query (study_id, qid, text, source)
       SELECT @study, 'q' || i, 'query number ' || i || ' about tables', 'large' FROM n`,
    ).run({ study: studyId, last: options.queries - 1 });
    db.prepare(
      `${numbers} INSERT INTO document (study_id, docid, title, body, format, parent_docid, source)
       SELECT @study, printf('d%08d', i), 'Document ' || i, 'Body of document ' || i || ': a table of results.',
         'plain', printf('p%07d', i / 10), 'large' FROM n`,
    ).run({ study: studyId, last: pairs - 1 });
    // (Parameters are bound as REAL: the integer arithmetic needs them cast.)
    db.prepare(
      `${numbers}, shape (queries, per_query) AS (SELECT CAST(@queries AS INTEGER), CAST(@perQuery AS INTEGER))
       INSERT INTO pair (study_id, qid, docid, best_rank)
       SELECT @study, 'q' || (i % queries), printf('d%08d', (i % queries) * per_query + i / queries), i / queries + 1
       FROM n, shape`,
    ).run({ study: studyId, last: pairs - 1, queries: options.queries, perQuery: options.perQuery });
    if (options.judgedEvery !== undefined) {
      const { id } = db
        .prepare("INSERT INTO annotator (name, kind) VALUES (?, 'human') RETURNING id")
        .get(options.judgedBy ?? 'other') as { id: number };
      db.prepare(
        `INSERT INTO judgment (pair_id, annotator_id, label, created_at, source)
         SELECT id, ?, id % 3, '2026-01-01T00:00:00.000Z', 'imported' FROM pair
         WHERE study_id = ? AND (id - 1) % ? = 0`,
      ).run(id, studyId, options.judgedEvery);
    }
    if (options.suggestedEvery !== undefined) {
      const { id } = db
        .prepare("INSERT INTO annotator (name, kind) VALUES ('llm:bench@0', 'llm') RETURNING id")
        .get() as { id: number };
      db.prepare(
        `INSERT INTO suggestion (pair_id, annotator_id, label, rationale, confidence, created_at)
         SELECT id, ?, (id / 7) % 3, 'because', ((id * 37) % 100) / 100.0, '2026-01-01T00:00:00.000Z' FROM pair
         WHERE study_id = ? AND (id - 1) % ? = 0`,
      ).run(id, studyId, options.suggestedEvery);
    }
  })();
  db.close();
  const countRows = async (table: string) => {
    const reader = openDatabase(studyDatabasePath(studyFile), { nativeBinding });
    try {
      return reader.prepare(`SELECT count(*) FROM "${table}"`).pluck().get() as number;
    } finally {
      reader.close();
    }
  };
  return { studyFile, study: model.studies[0]!, store, studyId, pairs, countRows };
}

/** buildLargeStudy in a fresh PostgreSQL database: the same rows, in the same order, so the same ids. */
async function buildLargePostgresStudy(options: LargeStudyOptions): Promise<LargeStudy<PostgresStudyStore>> {
  const studyFile = join(options.folder, 'large.assess');
  const text = largeStudyText(options.extra);
  writeFileSync(studyFile, text);
  const model = resolveStudies(parseStudyFile(text), studyFile);
  const store = await openTestStore('postgres');
  await store.studies.sync(model);
  const studyId = await store.studies.studyId('large');
  const pairs = options.queries * options.perQuery;
  const client = new pg.Client(store.connection);
  await client.connect();
  try {
    await client.query('BEGIN');
    await client.query(
      `INSERT INTO query (study_id, qid, text, source)
       SELECT $1::integer, 'q' || i, 'query number ' || i || ' about tables', 'large' FROM generate_series(0, $2::integer - 1) AS i
       ORDER BY i`,
      [studyId, options.queries],
    );
    await client.query(
      `INSERT INTO document (study_id, docid, title, body, format, parent_docid, source)
       SELECT $1::integer, 'd' || lpad(i::text, 8, '0'), 'Document ' || i, 'Body of document ' || i || ': a table of results.',
         'plain', 'p' || lpad((i / 10)::text, 7, '0'), 'large' FROM generate_series(0, $2::integer - 1) AS i ORDER BY i`,
      [studyId, pairs],
    );
    await client.query(
      `INSERT INTO pair (study_id, qid, docid, best_rank)
       SELECT $1::integer, 'q' || (i % $3::integer), 'd' || lpad(((i % $3::integer) * $4::integer + i / $3::integer)::text, 8, '0'), i / $3::integer + 1
       FROM generate_series(0, $2::integer - 1) AS i ORDER BY i`,
      [studyId, pairs, options.queries, options.perQuery],
    );
    if (options.judgedEvery !== undefined) {
      const { rows } = await client.query<{ id: number }>(
        "INSERT INTO annotator (name, kind) VALUES ($1, 'human') RETURNING id",
        [options.judgedBy ?? 'other'],
      );
      await client.query(
        `INSERT INTO judgment (pair_id, annotator_id, label, created_at, source)
         SELECT id, $1, id % 3, '2026-01-01T00:00:00.000Z', 'imported' FROM pair
         WHERE study_id = $2 AND (id - 1) % $3 = 0 ORDER BY id`,
        [rows[0]!.id, studyId, options.judgedEvery],
      );
    }
    if (options.suggestedEvery !== undefined) {
      const { rows } = await client.query<{ id: number }>(
        "INSERT INTO annotator (name, kind) VALUES ('llm:bench@0', 'llm') RETURNING id",
      );
      await client.query(
        `INSERT INTO suggestion (pair_id, annotator_id, label, rationale, confidence, created_at)
         SELECT id, $1, (id / 7) % 3, 'because', ((id * 37) % 100) / 100.0, '2026-01-01T00:00:00.000Z' FROM pair
         WHERE study_id = $2 AND (id - 1) % $3 = 0 ORDER BY id`,
        [rows[0]!.id, studyId, options.suggestedEvery],
      );
    }
    await client.query('COMMIT');
    await client.query('ANALYZE');
  } finally {
    await client.end();
  }
  const countRows = async (table: string) => {
    const reader = new pg.Client({ ...store.connection, types: postgresTypes });
    await reader.connect();
    try {
      return (await reader.query<{ count: number }>(`SELECT count(*) FROM "${table}"`)).rows[0]!.count;
    } finally {
      await reader.end();
    }
  };
  return { studyFile, study: model.studies[0]!, store, studyId, pairs, countRows };
}
