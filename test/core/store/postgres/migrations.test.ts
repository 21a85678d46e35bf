// The PostgreSQL adapter follows the one migration list: it has statements for every version (and none besides), a
// fresh database migrates to the newest version with the same tables and columns as SQLite's, a second open does
// nothing, two opens at once migrate once, and a database newer than the list is refused. A real cluster
// (test/pg/pgCluster.ts).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, test } from 'node:test';
import pg from 'pg';
import { SchemaVersionError } from '../../../../core/store/migrate.ts';
import { migrations } from '../../../../core/store/migrations/registry.ts';
import {
  postgresMigrationSql,
  postgresMigrations,
} from '../../../../core/store/postgres/migrations/postgresMigrations.ts';
import { postgresTypes } from '../../../../core/store/postgres/postgresContext.ts';
import { migratePostgres, postgresSchemaVersion } from '../../../../core/store/postgres/postgresMigrate.ts';
import { migrateDatabase } from '../../../../core/store/sqlite/sqliteMigrate.ts';
import { locateNativeBinding, openDatabase } from '../../../../core/store/sqliteDatabase.ts';
import { nativeDir, scratchDir } from '../../../helpers.ts';
import { testDatabase } from '../../../pg/pgCluster.ts';

const pools: pg.Pool[] = [];
after(async () => {
  await Promise.all(pools.map((pool) => pool.end()));
});

async function freshPool(): Promise<pg.Pool> {
  const pool = new pg.Pool({ ...(await testDatabase()), types: postgresTypes, max: 4 });
  pools.push(pool);
  return pool;
}

const newest = migrations.at(-1)!.version;

test('the PostgreSQL adapter has statements for every version of the list, and for no other', () => {
  for (const migration of migrations) {
    const sql = postgresMigrationSql.get(migration.version);
    assert.ok(sql !== undefined && sql.trim().length > 0, `no PostgreSQL statements for version ${migration.version}`);
  }
  assert.deepEqual(
    [...postgresMigrationSql.keys()].sort((a, b) => a - b),
    migrations.map((m) => m.version),
  );
  assert.deepEqual(
    postgresMigrations.map(({ version, name, description }) => ({ version, name, description })),
    migrations.map(({ version, name, description }) => ({ version, name, description })),
  );
});

test('a fresh database migrates to the newest version: the tables, columns and view of SQLite', async () => {
  const pool = await freshPool();
  assert.equal(await postgresSchemaVersion(pool), 0);
  assert.deepEqual(
    await migratePostgres(pool),
    migrations.map((m) => m.version),
  );
  assert.equal(await postgresSchemaVersion(pool), newest);

  const { rows } = await pool.query<{ table_name: string; column_name: string }>(
    `SELECT table_name, column_name FROM information_schema.columns
     WHERE table_schema = 'public' AND table_name <> 'schema_version' ORDER BY table_name COLLATE "C", ordinal_position`,
  );
  const postgresColumns = new Map<string, string[]>();
  for (const row of rows)
    postgresColumns.set(row.table_name, [...(postgresColumns.get(row.table_name) ?? []), row.column_name]);

  const db = openDatabase(join(scratchDir(), 'schema.sqlite'), { nativeBinding: locateNativeBinding(nativeDir) });
  try {
    migrateDatabase(db);
    const sqliteColumns = new Map<string, string[]>();
    const tables = db
      .prepare("SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') ORDER BY name")
      .pluck()
      .all() as string[];
    for (const table of tables) {
      sqliteColumns.set(
        table,
        (db.pragma(`table_info(${table})`) as { name: string }[]).map((column) => column.name),
      );
    }
    assert.deepEqual(postgresColumns, sqliteColumns);
  } finally {
    db.close();
  }

  // Text keys compare and sort by their bytes, as SQLite's BINARY collation does.
  const collations = await pool.query<{ table_name: string; column_name: string }>(
    `SELECT table_name, column_name FROM information_schema.columns
     WHERE table_schema = 'public' AND data_type = 'text' AND coalesce(collation_name, '') <> 'C'`,
  );
  assert.deepEqual(collations.rows, []);
  // Ids are integers, which pg returns as numbers.
  const ids = await pool.query<{ table_name: string; data_type: string }>(
    `SELECT table_name, data_type FROM information_schema.columns
     WHERE table_schema = 'public' AND column_name = 'id' AND data_type <> 'integer'`,
  );
  assert.deepEqual(ids.rows, []);
});

test('a second open of a migrated database applies nothing', async () => {
  const pool = await freshPool();
  await migratePostgres(pool);
  assert.deepEqual(await migratePostgres(pool), []);
  assert.equal(await postgresSchemaVersion(pool), newest);
});

test('two opens at once migrate once: each version applied by exactly one of them', async () => {
  const config = await testDatabase();
  const first = new pg.Pool({ ...config, types: postgresTypes, max: 2 });
  const second = new pg.Pool({ ...config, types: postgresTypes, max: 2 });
  pools.push(first, second);
  const [a, b] = await Promise.all([migratePostgres(first), migratePostgres(second)]);
  assert.deepEqual(
    [...a, ...b].sort((x, y) => x - y),
    migrations.map((m) => m.version),
  );
  assert.equal(await postgresSchemaVersion(first), newest);
});

test('a database migrated by a newer Qrels Studio is refused, and left as it is', async () => {
  const pool = await freshPool();
  await migratePostgres(pool);
  await pool.query('UPDATE schema_version SET version = $1', [newest + 1]);
  await assert.rejects(migratePostgres(pool), SchemaVersionError);
  assert.equal(await postgresSchemaVersion(pool), newest + 1);
});

test('a database part-way migrates from where it is', async () => {
  const pool = await freshPool();
  assert.deepEqual(await migratePostgres(pool, postgresMigrations.slice(0, 3)), [1, 2, 3]);
  await pool.query(
    `INSERT INTO llm_call (cache_key, endpoint, model, parameters, prompt_hash, raw_output, created_at)
     VALUES ('k', 'e', 'm', '{}', 'h', 'out', '2026-01-01T00:00:00.000Z')`,
  );
  assert.deepEqual(
    await migratePostgres(pool),
    postgresMigrations.slice(3).map((m) => m.version),
  );
  // The rebuilt llm_call kept its row and hands out the next id after it.
  const inserted = await pool.query<{ id: number }>(
    `INSERT INTO llm_call (cache_key, endpoint, model, parameters, prompt_hash, raw_output, created_at)
     VALUES ('k', 'e', 'm', '{}', 'h', 'again', '2026-01-01T00:00:01.000Z') RETURNING id`,
  );
  assert.equal(inserted.rows[0]!.id, 2);
});
