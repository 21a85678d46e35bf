// The SQLite side of moving a record (core/store/storeCopy.ts): the tables of a task database read from its
// catalogue, their rows read in one read transaction (a snapshot under WAL), and another store's rows loaded into a
// NEW file — written as a temporary file beside the target, migrated to the newest schema, filled in one
// transaction and renamed into place only when complete, so a failure leaves the target as it was.
import { existsSync, renameSync, rmSync } from 'node:fs';
import { openDatabase, type SqliteDatabase } from '../sqliteDatabase.ts';
import type { RecordTables, TableBatch, TableShape } from '../storeCopy.ts';
import { StoreError } from '../studyDatabase.ts';
import { SqliteStudyStore } from './sqliteStudyStore.ts';

const ident = (name: string): string => `"${name.replaceAll('"', '""')}"`;
/** SQLite binds at most 32766 parameters per statement. */
const maxParameters = 30000;

export class SqliteTables implements RecordTables {
  readonly location: string;
  private readonly file: string;
  private readonly nativeBinding: string;

  /** The task database `file` (absolute); it need not exist (an empty record, for a target). */
  constructor(file: string, nativeBinding: string) {
    this.file = file;
    this.nativeBinding = nativeBinding;
    this.location = file;
  }

  async tables(): Promise<TableShape[]> {
    return this.withDatabase(
      (db) => tablesOf(db),
      () => this.schemaOfNewFile(),
    );
  }

  async contents(): Promise<{ rows: Map<string, number>; studies: string[] }> {
    return this.withDatabase(
      (db) => contentsOf(db, tablesOf(db)),
      () => ({ rows: new Map<string, number>(), studies: [] as string[] }),
    );
  }

  async *exportTables(tables: readonly TableShape[], batchRows: number): AsyncIterable<TableBatch> {
    if (!existsSync(this.file)) return;
    const db = openDatabase(this.file, { nativeBinding: this.nativeBinding });
    try {
      db.exec('BEGIN');
      for (const table of tables) {
        const order = primaryKey(db, table.name) ?? ['rowid'];
        const statement = db
          .prepare(
            `SELECT ${table.columns.map(ident).join(', ')} FROM ${ident(table.name)} ORDER BY ${order.map(ident).join(', ')}`,
          )
          .raw(true);
        let rows: unknown[][] = [];
        for (const row of statement.iterate() as Iterable<unknown[]>) {
          rows.push(row);
          if (rows.length === batchRows) {
            yield { table: table.name, columns: table.columns, rows };
            rows = [];
          }
        }
        if (rows.length > 0) yield { table: table.name, columns: table.columns, rows };
      }
      db.exec('COMMIT');
    } finally {
      db.close();
    }
  }

  async importTables(
    batches: AsyncIterable<TableBatch>,
    refuse: (contents: { rows: Map<string, number>; studies: string[] }) => Error | undefined,
  ): Promise<void> {
    const refusal = refuse(await this.contents());
    if (refusal !== undefined) throw refusal;
    const temporary = `${this.file}.copy-${process.pid}.tmp`;
    removeDatabaseFiles(temporary);
    try {
      // The newest schema, made the way every task database is made.
      await (await SqliteStudyStore.open(temporary, { nativeBinding: this.nativeBinding })).close();
      const db = openDatabase(temporary, { nativeBinding: this.nativeBinding });
      try {
        db.exec('BEGIN');
        const statements = new Map<string, ReturnType<SqliteDatabase['prepare']>>();
        for await (const batch of batches) {
          const width = batch.columns.length;
          const perStatement = Math.max(1, Math.floor(maxParameters / width));
          for (let start = 0; start < batch.rows.length; start += perStatement) {
            const rows = batch.rows.slice(start, start + perStatement);
            const key = `${batch.table}:${rows.length}`;
            let statement = statements.get(key);
            if (statement === undefined) {
              const row = `(${batch.columns.map(() => '?').join(', ')})`;
              statement = db.prepare(
                `INSERT INTO ${ident(batch.table)} (${batch.columns.map(ident).join(', ')}) VALUES ${rows.map(() => row).join(', ')}`,
              );
              if (statements.size > 64) statements.clear();
              statements.set(key, statement);
            }
            statement.run(rows.flat());
          }
        }
        const violations = db.pragma('foreign_key_check') as unknown[];
        if (violations.length > 0) {
          throw new StoreError(`the copied record breaks ${violations.length} foreign key(s): nothing was copied`);
        }
        db.exec('COMMIT');
        db.pragma('wal_checkpoint(TRUNCATE)');
      } finally {
        if (db.inTransaction) db.exec('ROLLBACK');
        db.close();
      }
      // Checked again right before the rename: a store opened on the target meanwhile may have written to it.
      const late = refuse(await this.contents());
      if (late !== undefined) throw late;
      removeDatabaseFiles(this.file);
      renameSync(temporary, this.file);
    } finally {
      removeDatabaseFiles(temporary);
    }
  }

  /** Runs `fn` on the task database, or `missing()` when there is none yet. */
  private async withDatabase<T>(fn: (db: SqliteDatabase) => T, missing: () => T | Promise<T>): Promise<T> {
    if (!existsSync(this.file)) return missing();
    // Opened as a store first: an older schema is brought to the newest, as any open does.
    await (await SqliteStudyStore.open(this.file, { nativeBinding: this.nativeBinding })).close();
    const db = openDatabase(this.file, { nativeBinding: this.nativeBinding });
    try {
      return fn(db);
    } finally {
      db.close();
    }
  }

  /** The tables a new task database has (no file yet: the schema made in a throwaway file). */
  private async schemaOfNewFile(): Promise<TableShape[]> {
    const probe = `${this.file}.schema-${process.pid}.tmp`;
    try {
      await (await SqliteStudyStore.open(probe, { nativeBinding: this.nativeBinding })).close();
      const db = openDatabase(probe, { nativeBinding: this.nativeBinding });
      try {
        return tablesOf(db);
      } finally {
        db.close();
      }
    } finally {
      removeDatabaseFiles(probe);
    }
  }
}

function removeDatabaseFiles(file: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${file}${suffix}`, { force: true });
}

function tablesOf(db: SqliteDatabase): TableShape[] {
  const names = db
    .prepare(
      "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
    )
    .pluck()
    .all() as string[];
  return names.map((name) => ({
    name,
    columns: db.prepare('SELECT name FROM pragma_table_info(?) ORDER BY cid').pluck().all(name) as string[],
    references: db.prepare('SELECT DISTINCT "table" FROM pragma_foreign_key_list(?)').pluck().all(name) as string[],
  }));
}

function primaryKey(db: SqliteDatabase, table: string): string[] | undefined {
  const key = db
    .prepare('SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk')
    .pluck()
    .all(table) as string[];
  return key.length > 0 ? key : undefined;
}

function contentsOf(
  db: SqliteDatabase,
  tables: readonly TableShape[],
): { rows: Map<string, number>; studies: string[] } {
  const rows = new Map<string, number>();
  for (const table of tables) {
    const n = db
      .prepare(`SELECT COUNT(*) FROM ${ident(table.name)}`)
      .pluck()
      .get() as number;
    if (n > 0) rows.set(table.name, n);
  }
  const studies = tables.some((t) => t.name === 'study')
    ? (db.prepare('SELECT name FROM study ORDER BY id').pluck().all() as string[])
    : [];
  return { rows, studies };
}
