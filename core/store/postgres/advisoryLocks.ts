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

/**
 * Takes the locks on (this schema, `space`, each of `ids`) in one statement, in ascending order (so two transactions
 * taking several never wait on each other in a cycle); the same keys lockInSchema takes one at a time.
 */
export async function lockManyInSchema(client: pg.ClientBase, space: LockSpace, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  const sorted = [...new Set(ids)].sort((a, b) => a - b).map(String);
  // A function scan yields the array in order, so the locks are taken in that order.
  await client.query(
    "SELECT pg_advisory_xact_lock(hashtextextended(coalesce(current_schema(), '') || '|' || $1 || '|' || id, 0)) " +
      'FROM unnest($2::text[]) AS id',
    [space, sorted],
  );
}
