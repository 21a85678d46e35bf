// Brings a SQLite database to the newest schema: applies the migrations it lacks (core/store/migrate.ts's rules),
// each in its own IMMEDIATE transaction (so two processes opening the same new database do not both migrate it).
// The version is the database's `PRAGMA user_version`.
import { needsMigration } from '../migrate.ts';
import type { SqliteDatabase } from '../sqliteDatabase.ts';
import { type SqliteMigration, sqliteMigrations } from './migrations/sqliteMigrations.ts';

export function schemaVersion(db: SqliteDatabase): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/** Applies the pending migrations (all of `list`, by default every one); returns the versions applied. */
export function migrateDatabase(db: SqliteDatabase, list: readonly SqliteMigration[] = sqliteMigrations): number[] {
  const newest = list.at(-1)?.version ?? 0;
  const applied: number[] = [];
  for (const migration of list) {
    const step = db.transaction(() => {
      if (!needsMigration(schemaVersion(db), migration, newest)) return false;
      db.exec(migration.sql);
      db.pragma(`user_version = ${migration.version}`);
      return true;
    });
    if (step.immediate()) applied.push(migration.version);
  }
  return applied;
}
