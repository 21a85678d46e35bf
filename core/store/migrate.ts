// The rules every backend's migrations follow (core/store/migrations/migration.ts): the migrations a record lacks
// are applied in the list's order, each in its own transaction, and a record written by a newer Qrels Studio is
// refused instead of guessed at. The SQLite adapter's runner: core/store/sqlite/sqliteMigrate.ts.
import type { Migration } from './migrations/migration.ts';

export class SchemaVersionError extends Error {}

/**
 * Whether `migration` is still to apply to a record at version `current` (inside the transaction that would apply
 * it); a SchemaVersionError when the record is newer than `newest` (the list's last version) or not just before it.
 */
export function needsMigration(current: number, migration: Migration, newest: number): boolean {
  if (current > newest) {
    throw new SchemaVersionError(
      `this database has schema version ${current}, newer than this Qrels Studio knows (${newest}): update Qrels Studio`,
    );
  }
  if (current >= migration.version) return false;
  if (current !== migration.version - 1) {
    throw new SchemaVersionError(`cannot migrate from schema version ${current} to ${migration.version}`);
  }
  return true;
}
