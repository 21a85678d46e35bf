// Brings a PostgreSQL database to the newest schema: applies the migrations it lacks (core/store/migrate.ts's
// rules), each in its own transaction on a pooled connection, under a transaction-level advisory lock, so that two
// processes opening the same new database at once migrate it once (the second waits, then finds nothing to do). The
// version is the one row of `schema_version` (the table is created, under the same lock, by the first open).
import { needsMigration } from '../migrate.ts';
import { lockInSchema } from './advisoryLocks.ts';
import { type PostgresMigration, postgresMigrations } from './migrations/postgresMigrations.ts';
import type { PostgresClient, PostgresPool } from './postgresContext.ts';
import { runTransaction } from './postgresContext.ts';

async function lockAndReadVersion(client: PostgresClient): Promise<number> {
  await lockInSchema(client, 'migration');
  await client.query(
    `CREATE TABLE IF NOT EXISTS schema_version (
       one     boolean PRIMARY KEY DEFAULT true CHECK (one),
       version integer NOT NULL
     )`,
  );
  const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_version');
  return rows[0]?.version ?? 0;
}

/** The database's schema version (0 when no migration was applied). */
export async function postgresSchemaVersion(pool: PostgresPool): Promise<number> {
  const { rows } = await pool.query<{ exists: boolean }>("SELECT to_regclass('schema_version') IS NOT NULL AS exists");
  if (!rows[0]?.exists) return 0;
  const version = await pool.query<{ version: number }>('SELECT version FROM schema_version');
  return version.rows[0]?.version ?? 0;
}

/** Applies the pending migrations (all of `list`, by default every one); returns the versions applied. */
export async function migratePostgres(
  pool: PostgresPool,
  list: readonly PostgresMigration[] = postgresMigrations,
): Promise<number[]> {
  const newest = list.at(-1)?.version ?? 0;
  // An open of an up-to-date database (every open but the first) reads one row and takes no lock; a newer record is
  // refused here too.
  const current = await postgresSchemaVersion(pool);
  if (current === newest || list.length === 0) return [];
  if (current > newest) needsMigration(current, list.at(-1)!, newest);
  const applied: number[] = [];
  for (const migration of list) {
    const done = await runTransaction(pool, async (client) => {
      if (!needsMigration(await lockAndReadVersion(client), migration, newest)) return false;
      await client.query(migration.sql);
      await client.query(
        `INSERT INTO schema_version (one, version) VALUES (true, $1)
         ON CONFLICT (one) DO UPDATE SET version = excluded.version`,
        [migration.version],
      );
      return true;
    });
    if (done) applied.push(migration.version);
  }
  return applied;
}
