// The adapter's advisory locks. PostgreSQL has one advisory-lock namespace per database, but one database may hold
// the records of several study files, one per schema (connectionConfig.ts `schema`): a lock keyed only by a study id
// or a pair id would make study 1 of one schema wait on study 1 of another. Every lock is therefore keyed by the
// connection's schema (search_path), what it guards and an id, hashed to the one-key form. A hash collision only
// makes two unrelated transactions wait on each other, never lets two that must not run together do so.
import type pg from 'pg';

/** What a lock guards: a study's assignment/imports/reviews, a pair's label commits or suggestions, a migration… */
export type LockSpace = 'study' | 'label' | 'suggestion' | 'migration' | 'sync' | 'grant';

const lockStatement =
  "SELECT pg_advisory_xact_lock(hashtextextended(coalesce(current_schema(), '') || '|' || $1 || '|' || $2, 0))";

/** Takes the transaction-scoped lock on (this schema, `space`, `id`); released at COMMIT or ROLLBACK. */
export async function lockInSchema(client: pg.ClientBase, space: LockSpace, id: number = 0): Promise<void> {
  await client.query(lockStatement, [space, String(id)]);
}
