// A schema migration as every backend knows it: a number (the schema version after it), a name and what it does.
// The list of them (registry.ts) is the one order all backends follow; each backend's adapter holds its own
// statements for each version, as a map from version to SQL:
//   - SQLite: core/store/sqlite/migrations/ (one module per version, `NNN_name.ts`, and sqliteMigrations.ts mapping
//     versions to them); the version is `PRAGMA user_version`, each migration one IMMEDIATE transaction.
//   - PostgreSQL (the next adapter): core/store/postgres/migrations/, the same versions and names with PostgreSQL's
//     statements (its own types: `bigint GENERATED ALWAYS AS IDENTITY`, `timestamptz`…), the version kept in a
//     one-row table, each migration one transaction taken on a pooled connection under an advisory lock. Its map
//     must have SQL for every version in the list (as test/core/store/sqlite/migrations.test.ts checks SQLite's);
//     a backend whose record says a version newer than the list refuses it (SchemaVersionError).
// Adding a migration: one entry at the end of registry.ts, and its SQL in every adapter's map.
export interface Migration {
  /** The schema version once applied; 1, 2, 3, … without gaps. */
  readonly version: number;
  /** An identifier for it (`labelKind`): the adapters' modules are named after it. */
  readonly name: string;
  readonly description: string;
}

/** A backend's statements for each version of the list (no `BEGIN`/`COMMIT`: the adapter runs them in one). */
export type MigrationSql = ReadonlyMap<number, string>;
