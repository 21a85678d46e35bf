// For the labelling tests of the PostgreSQL adapter: the same record in both backends. A study is built the usual
// way in SQLite (test/core/labelling/labellingStudy.ts: synced, imported, pooled), then copied row for row — same ids —
// into a fresh PostgreSQL database of the run's cluster (test/pg/pgCluster.ts) migrated by the adapter itself; each
// backend's LabelsPort then answers the same calls, and the test compares the answers. `kindStudy` builds the same
// study in a store of either kind (test/storeKinds.ts) through the port alone.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { parseStudyFile, resolveStudies } from '../../../../core/dsl/index.ts';
import type { ImportedRecord } from '../../../../core/importers/types.ts';
import { LabelSession } from '../../../../core/labelling/labelSession.ts';
import {
  notifyChange,
  type PostgresContext,
  postgresTypes,
  runQuery,
  runTransaction,
} from '../../../../core/store/postgres/postgresContext.ts';
import { PostgresLabels } from '../../../../core/store/postgres/postgresLabels.ts';
import { migratePostgres } from '../../../../core/store/postgres/postgresMigrate.ts';
import { PostgresStudyStore } from '../../../../core/store/postgres/postgresStudyStore.ts';
import { SqliteStudyStore } from '../../../../core/store/sqlite/sqliteStudyStore.ts';
import { openDatabase, type SqliteDatabase } from '../../../../core/store/sqliteDatabase.ts';
import type { StoreChange, StudyStore } from '../../../../core/store/studyStore.ts';
import { scratchDir } from '../../../helpers.ts';
import { migratedTestDatabase } from '../../../pg/migratedDatabase.ts';
import type { StoreKind } from '../../../storeKinds.ts';
import {
  fixtureRecords,
  type LabellingStudyOptions,
  nativeBinding,
  studyText,
} from '../../labelling/labellingStudy.ts';

async function* records(list: ImportedRecord[]): AsyncIterable<ImportedRecord> {
  yield* list;
}

/** A pool over a database, with this adapter's type parsers. */
export function labelsPool(config: pg.PoolConfig): pg.Pool {
  return new pg.Pool({ ...config, types: postgresTypes });
}

/** A PostgresContext over `pool` that records what it tells its listeners. */
export function labelsContext(pool: pg.Pool, origin = 'test'): PostgresContext & { changes: StoreChange[] } {
  const changes: StoreChange[] = [];
  return {
    pool,
    location: 'postgres:test',
    changes,
    transaction: (fn, options) => runTransaction(pool, fn, options),
    query: (query, values) => runQuery(pool, query, values),
    notify: (client, change) => notifyChange(client, change, origin),
    changed: (change) => {
      changes.push(change);
    },
  };
}

/** Copies every row of the SQLite record `db` into the migrated PostgreSQL database of `pool`, ids kept. */
export async function copyRecord(db: SqliteDatabase, pool: pg.Pool): Promise<void> {
  const sqliteTables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    .pluck()
    .all() as string[];
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    // Foreign keys are not checked while copying (the rows are a consistent record already).
    await client.query('SET LOCAL session_replication_role = replica');
    for (const table of sqliteTables) {
      const pgColumns = (
        await client.query<{ column_name: string }>(
          'SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1',
          [table],
        )
      ).rows.map((r) => r.column_name);
      if (pgColumns.length === 0) continue;
      const rows = db.prepare(`SELECT * FROM "${table}"`).all() as Record<string, unknown>[];
      if (rows.length === 0) continue;
      const columns = Object.keys(rows[0]!).filter((c) => pgColumns.includes(c));
      for (const row of rows) {
        const values = columns.map((c) => row[c]);
        await client.query(
          `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})`,
          values,
        );
      }
      if (pgColumns.includes('id')) {
        await client.query(
          `SELECT setval(pg_get_serial_sequence('"${table}"', 'id'), (SELECT max(id) FROM "${table}"))`,
        );
      }
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

/** A fresh PostgreSQL database holding a copy of `db`, and the adapter's LabelsPort over it. */
export async function postgresCopy(db: SqliteDatabase): Promise<{
  pool: pg.Pool;
  config: pg.ClientConfig;
  labels: PostgresLabels;
  context: PostgresContext & { changes: StoreChange[] };
}> {
  const config = await migratedTestDatabase();
  const pool = labelsPool(config);
  await migratePostgres(pool);
  await copyRecord(db, pool);
  const context = labelsContext(pool);
  return { pool, config, labels: new PostgresLabels(context), context };
}

/** labellingStudy (test/core/labelling/labellingStudy.ts) over a store of either kind, through the port only. */
export async function kindStudy(
  kind: StoreKind,
  options: LabellingStudyOptions,
  folder = scratchDir('qrels-studio-pg-labelling-'),
) {
  const studyFile = join(folder, 's.assess');
  const text = studyText(options);
  writeFileSync(studyFile, text);
  const resolved = resolveStudies(parseStudyFile(text), studyFile);
  const study = resolved.studies[0]!;
  const sqliteFile = join(folder, 's.sqlite');
  const connection = kind === 'postgres' ? await migratedTestDatabase() : undefined;
  const open = async (): Promise<StudyStore> =>
    connection === undefined
      ? SqliteStudyStore.open(sqliteFile, { nativeBinding })
      : PostgresStudyStore.open({ connection });
  const store = await open();
  await store.studies.sync(resolved);
  const imported = fixtureRecords(options);
  await store.imports.importBatch('s', [
    { records: records(imported), origin: { file: 'fixture', target: 'x', format: 'x' } },
  ]);
  const queries = new Map(
    Object.entries(options.ranking).map(([qid, docids]) => [qid, docids.map((docid, i) => ({ docid, rank: i + 1 }))]),
  );
  const depth = Math.max(1, ...Object.values(options.ranking).map((docids) => docids.length));
  await store.imports.addPool('s', { run: { path: 'run.trec', tag: 'run', depth }, queries });
  const studyId = await store.studies.studyId('s');
  /** Rows of the record, read (or written) beside the store, through a second connection; parameters `$1`… in order. */
  const rows = async (sql: string, parameters: unknown[] = []): Promise<unknown[]> => {
    if (connection === undefined) {
      const db = openDatabase(sqliteFile, { nativeBinding });
      try {
        const statement = db.prepare(sql.replaceAll(/\$\d+/g, '?'));
        if (statement.reader) return statement.all(...parameters);
        statement.run(...parameters);
        return [];
      } finally {
        db.close();
      }
    }
    const client = new pg.Client(connection);
    await client.connect();
    try {
      return (await client.query(sql, parameters)).rows;
    } finally {
      await client.end();
    }
  };
  return {
    kind,
    store,
    study,
    studyFile,
    studyId,
    open,
    rows,
    session: (annotator: string, now?: () => Date, on: StudyStore = store) =>
      LabelSession.open(on, { studyFile, study, annotator, ...(now && { now }) }),
  };
}
