// Brings a database to the newest schema: applies the migrations it lacks, each in its own IMMEDIATE transaction
// (so two processes opening the same new database do not both migrate it), and refuses a database written by a
// newer Qrels Studio instead of guessing at its schema.
import type { Migration } from './migrations/migration.ts';
import { migrations } from './migrations/registry.ts';
import type { SqliteDatabase } from './sqliteDatabase.ts';

export class SchemaVersionError extends Error {}

export function schemaVersion(db: SqliteDatabase): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/** Applies the pending migrations (all of `list`, by default the registry's); returns the versions applied. */
export function migrateDatabase(db: SqliteDatabase, list: readonly Migration[] = migrations): number[] {
  const newest = list.at(-1)?.version ?? 0;
  const applied: number[] = [];
  for (const migration of list) {
    const step = db.transaction(() => {
      const current = schemaVersion(db);
      if (current > newest) {
        throw new SchemaVersionError(
          `this database has schema version ${current}, newer than this Qrels Studio knows (${newest}): update Qrels Studio`,
        );
      }
      if (current >= migration.version) return false;
      if (current !== migration.version - 1) {
        throw new SchemaVersionError(`cannot migrate from schema version ${current} to ${migration.version}`);
      }
      db.exec(migration.sql);
      db.pragma(`user_version = ${migration.version}`);
      return true;
    });
    if (step.immediate()) applied.push(migration.version);
  }
  return applied;
}
