// What every part of the PostgreSQL adapter shares: the pool of connections, where the record is (for messages),
// the one way to run a port method (`transaction`), and the change notifications its writes send.
//
// Every port method is one transaction on one pooled client: BEGIN … COMMIT, ROLLBACK when it throws, and the whole
// function run again when PostgreSQL aborted it for a serialization failure or a deadlock (so a function must do
// nothing outside the database that cannot be repeated). A write calls `notify(client, change)` inside its
// transaction — other processes LISTENing on the record hear it when it commits, and only then — and
// `changed(change)` after the commit, for this store's own listeners.
import pg from 'pg';
import type { StoreChange } from '../studyStore.ts';

export type PostgresPool = pg.Pool;
export type PostgresClient = pg.PoolClient;

/** The channel every store of a record NOTIFYs and LISTENs on. */
export const changeChannel = 'qrels_studio';

export interface TransactionOptions {
  /** READ COMMITTED by default (each statement sees what was committed before it). */
  isolation?: 'read committed' | 'repeatable read' | 'serializable';
  readOnly?: boolean;
}

export interface PostgresContext {
  readonly pool: PostgresPool;
  /** Where the record lives, for messages: `postgres:<store name>` or the server and database. */
  readonly location: string;
  /** Runs `fn` in one transaction on one pooled client (see above); resolves once it is committed. */
  transaction<T>(fn: (client: PostgresClient) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /** Inside a write's transaction: tells the other processes on the record what it changed, when it commits. */
  notify(client: PostgresClient, change: StoreChange): Promise<void>;
  /** Tells this store's listeners what a committed write changed. */
  changed(change: StoreChange): void;
}

/** What a NOTIFY on changeChannel carries (JSON): the change, and which store sent it (to skip its own). */
export interface ChangePayload {
  what: StoreChange['what'];
  study?: string;
  origin: string;
}

// count(*) and sum() of integers are bigint (int8) and avg() numeric in PostgreSQL, which pg returns as strings;
// SQLite returns numbers, and the port returns what SQLite does: both are parsed as numbers (exact below 2^53, as in
// SQLite's JavaScript binding), for this adapter's pools only — not pg's global parsers.
const int8 = 20;
const numeric = 1700;
export const postgresTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if ((oid === int8 || oid === numeric) && format !== 'binary') return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  }) as pg.CustomTypesConfig['getTypeParser'],
};

/** SQLSTATEs after which a transaction is run again: serialization_failure, deadlock_detected. */
const retriedStates = new Set(['40001', '40P01']);
const maxAttempts = 8;

export function isRetriedFailure(error: unknown): boolean {
  return retriedStates.has((error as { code?: string } | null)?.code ?? '');
}

/** `transaction` over `pool` (PostgresContext.transaction's rules). */
export async function runTransaction<T>(
  pool: PostgresPool,
  fn: (client: PostgresClient) => Promise<T>,
  options: TransactionOptions = {},
): Promise<T> {
  const begin = `BEGIN ISOLATION LEVEL ${(options.isolation ?? 'read committed').toUpperCase()}${
    options.readOnly ? ' READ ONLY' : ''
  }`;
  for (let attempt = 1; ; attempt++) {
    const client = await pool.connect();
    let broken: Error | undefined;
    // The pool listens for a connection's errors only while it is idle: a connection that breaks while checked out
    // (server stopped, connection killed) emits an error nobody would catch, which ends the process. Caught here: the
    // statement running fails with it, and the connection is not given back.
    const onError = (error: Error): void => {
      broken = error;
    };
    client.on('error', onError);
    try {
      await client.query(begin);
      const result = await fn(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      try {
        await client.query('ROLLBACK');
      } catch (rollbackError) {
        // The connection is gone (server stopped, connection killed): it is not given back to the pool.
        broken = rollbackError as Error;
      }
      if (attempt < maxAttempts && isRetriedFailure(error)) {
        // A short, growing, jittered pause, so that two transactions that collided do not collide again.
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * 2 ** attempt));
        continue;
      }
      throw error;
    } finally {
      client.release(broken);
      // A broken connection keeps the listener: its socket may still report the reset after it is let go.
      if (broken === undefined) client.removeListener('error', onError);
    }
  }
}

/** The NOTIFY a write sends inside its transaction. */
export async function notifyChange(client: PostgresClient, change: StoreChange, origin: string): Promise<void> {
  const payload: ChangePayload = { what: change.what, origin };
  if (change.study !== undefined) payload.study = change.study;
  await client.query('SELECT pg_notify($1, $2)', [changeChannel, JSON.stringify(payload)]);
}
