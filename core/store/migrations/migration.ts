// A schema migration: a number (the database's `user_version` after it), what it does, and its SQL. Migrations are
// applied in order, each in its own transaction; a database is never left between two versions.
export interface Migration {
  /** `PRAGMA user_version` once applied; 1, 2, 3, … without gaps. */
  readonly version: number;
  readonly description: string;
  /** Statements run in one transaction (no `BEGIN`/`COMMIT` here). */
  readonly sql: string;
}
