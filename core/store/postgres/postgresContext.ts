// What every part of the PostgreSQL adapter shares: the pool of connections, where the record is (for messages),
// the one way to run a port method (`transaction`), and the change notifications its writes send.
//
// Every port method is one transaction on one pooled client: BEGIN … COMMIT, ROLLBACK when it throws, and the whole
// function run again when PostgreSQL aborted it for a serialization failure or a deadlock (so a function must do
// nothing outside the database that cannot be repeated). A write calls `notify(client, change)` inside its
// transaction — other processes LISTENing on the record hear it when it commits, and only then — and
// `changed(change)` after the commit, for this store's own listeners.
import pg from 'pg';
import { StoreError } from '../studyDatabase.ts';
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
  /** One read statement outside a transaction, a lost connection reported as RecordUnreachableError (runQuery). */
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(
    query: string | pg.QueryConfig | pg.QueryArrayConfig,
    values?: unknown[],
  ): Promise<pg.QueryResult<R>>;
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
  /**
   * The schema the write was in (the server's current_schema()): one database holds several study files'
   * records, one schema each, and a store listens to its own schema's changes only.
   */
  schema?: string;
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

/** Node's socket errors that mean the server could not be reached or the connection dropped. */
const socketCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** SQLSTATEs of a server going away: admin_shutdown, crash_shutdown, cannot_connect_now (and class 08, below). */
const goneStates = new Set(['57P01', '57P02', '57P03']);

/**
 * Whether `error` says that the server could not be reached or the connection was lost (server stopped or
 * restarting, network cut, connection killed) — not that a statement failed.
 */
export function isConnectionLost(error: unknown): boolean {
  if (error instanceof StoreError) return false;
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (socketCodes.has(code) || goneStates.has(code) || code.startsWith('08'))) return true;
  return (
    typeof message === 'string' &&
    /Connection terminated|connection is not queryable|not queryable|timeout exceeded when trying to connect|Client was closed|terminating connection/i.test(
      message,
    )
  );
}

/**
 * The StoreError of a port method that lost its connection: the record could not be reached; nothing was saved —
 * or, when the connection dropped while COMMIT was on its way, that the change may have been saved (a label commit
 * sent again with its id is stored once: LabelCommit.clientId).
 */
export class RecordUnreachableError extends StoreError {
  /** The connection dropped after COMMIT was sent: the change may be saved. */
  readonly maybeSaved: boolean;
  /** The cause's code (ECONNREFUSED, 57P01, …), as on pg's own errors. */
  readonly code: string | undefined;
  constructor(location: string, cause: unknown, maybeSaved = false) {
    const reason = (cause as { message?: unknown } | null)?.message;
    const why = typeof reason === 'string' && reason !== '' ? ` (${reason})` : '';
    super(
      maybeSaved
        ? `the connection to ${location} was lost while the change was being committed${why}: it may or may not be saved; try again once the server answers`
        : `${location} could not be reached${why}: nothing was saved; try again once the server answers`,
      { cause },
    );
    this.maybeSaved = maybeSaved;
    const code = (cause as { code?: unknown } | null)?.code;
    this.code = typeof code === 'string' ? code : undefined;
  }
}

/**
 * PostgreSQL's refusal of a write or read that the connection's role may not do (SQLSTATE 42501: a privilege the
 * role lacks, or a row the row-level security of `store grant` rejects): a StoreError the user can act on, with the
 * server's own words, instead of a driver error that reads like a bug. Nothing was saved: the transaction rolled back.
 */
export function refusedByRole(error: unknown, location: string): StoreError | undefined {
  if ((error as { code?: unknown } | null)?.code !== '42501') return undefined;
  const reason = (error as { message?: unknown }).message;
  return new StoreError(
    `${location} refused this for the database role this connection uses (${String(reason)}): nothing was saved. ` +
      'A role made by `qrels-studio store grant` may label, note and give verdicts only under its own annotator name; ' +
      "ask the study's owner to check `qrelsStudio.stores` (the user) and to run `store grant` again after the study file changed",
    { cause: error },
  );
}

/**
 * How a store copes with a network that fails without a reset (a cable cut, a dropped NAT entry, a stalled proxy),
 * where no error ever comes and a query would wait until the OS gives up (minutes): each has a default, a store's
 * `qrelsStudio.stores` entry may change it (connectionConfig.ts), 0 turns it off.
 */
export interface ConnectionTimeouts {
  /** A new connection that has not been set up within this long fails (pg's connectionTimeoutMillis). */
  connectTimeoutMs: number;
  /** TCP keepalive probes on every connection after this long idle (pg's keepAlive, keepAliveInitialDelayMillis). */
  keepAliveMs: number;
  /**
   * A query unanswered for this long has the server checked on a connection of its own: when that connection
   * cannot be opened (within connectTimeoutMs), or the server is not running the query (its reply was lost), the
   * silent connection is dropped and the port method fails with RecordUnreachableError. A statement the server is
   * still running (a big import) is waited for.
   */
  responseTimeoutMs: number;
  /**
   * The server ends a session left idle inside a transaction this long, releasing its locks (a session setting;
   * 0 leaves the server's own).
   */
  idleInTransactionTimeoutMs: number;
  /**
   * The server cancels a statement running this long (a session setting; 0, the default, leaves the server's own,
   * none unless its administrator set one: imports run long statements).
   */
  statementTimeoutMs: number;
}

export const defaultTimeouts: Readonly<ConnectionTimeouts> = {
  connectTimeoutMs: 10_000,
  keepAliveMs: 10_000,
  responseTimeoutMs: 15_000,
  idleInTransactionTimeoutMs: 60_000,
  statementTimeoutMs: 0,
};

/** The pg ClientConfig fields of `timeouts` (all but responseTimeoutMs, which runTransaction keeps). */
export function timeoutConfig(timeouts: ConnectionTimeouts): pg.ClientConfig {
  return {
    connectionTimeoutMillis: timeouts.connectTimeoutMs,
    keepAlive: timeouts.keepAliveMs > 0,
    keepAliveInitialDelayMillis: timeouts.keepAliveMs,
    idle_in_transaction_session_timeout: timeouts.idleInTransactionTimeoutMs,
    statement_timeout: timeouts.statementTimeoutMs,
  };
}

interface ClientInternals {
  processID: number | null;
  connection?: { stream?: { bytesRead?: number; destroy?: (error?: Error) => void } };
  _activeQuery?: unknown;
  _queryQueue?: unknown[];
}

/** What the server says of the session `pid` on a connection of its own: running a statement, idle, or gone. */
async function sessionState(config: pg.ClientConfig, pid: number): Promise<'active' | 'waiting' | 'unreachable'> {
  const probe = new pg.Client({ ...config, application_name: 'qrels-studio probe' });
  probe.on('error', () => {});
  try {
    await probe.connect();
    const { rows } = await probe.query<{ state: string | null }>('SELECT state FROM pg_stat_activity WHERE pid = $1', [
      pid,
    ]);
    // A session the server no longer has, or one idle while we wait for its answer: the answer is not coming.
    return rows[0]?.state === 'active' ? 'active' : 'waiting';
  } catch {
    return 'unreachable';
  } finally {
    probe.end().catch(() => {});
  }
}

/**
 * Watches `client` while it is checked out: when a query has had no byte back for `responseTimeoutMs`, the server
 * is checked (sessionState); a connection whose answer is not coming is destroyed, so the query fails as a lost
 * connection. Returns the function that stops watching.
 */
function watchResponses(client: PostgresClient, config: pg.ClientConfig, responseTimeoutMs: number): () => void {
  const internals = client as unknown as ClientInternals;
  const stream = internals.connection?.stream;
  if (responseTimeoutMs <= 0 || stream === undefined || typeof stream.bytesRead !== 'number') return () => {};
  const busy = () => internals._activeQuery != null || (internals._queryQueue?.length ?? 0) > 0;
  let stopped = false;
  let bytes = stream.bytesRead;
  let timer: ReturnType<typeof setTimeout>;
  const check = async (): Promise<void> => {
    if (stopped) return;
    const now = stream.bytesRead ?? 0;
    if (now !== bytes || !busy() || internals.processID === null) {
      bytes = now;
      arm();
      return;
    }
    const state = await sessionState(config, internals.processID);
    if (stopped) return;
    if (state === 'active' || stream.bytesRead !== bytes) {
      // Still running (a long statement), or its answer came meanwhile.
      bytes = stream.bytesRead ?? 0;
      arm();
      return;
    }
    const error = Object.assign(
      new Error(
        state === 'unreachable'
          ? `no answer for ${responseTimeoutMs} ms and the server cannot be reached (connection timeout exceeded)`
          : `no answer for ${responseTimeoutMs} ms and the server is not running the query: the connection was lost`,
      ),
      { code: 'ETIMEDOUT' },
    );
    stream.destroy?.(error);
  };
  const arm = (): void => {
    timer = setTimeout(() => void check(), responseTimeoutMs);
    timer.unref?.();
  };
  arm();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/** A call on a store that was closed: a StoreError saying so (pg-pool's own message names no store). */
function closedStoreError(error: unknown, location: string): StoreError | undefined {
  const message = (error as { message?: unknown } | null)?.message;
  if (typeof message !== 'string' || !/after calling end on the pool/.test(message)) return undefined;
  return new StoreError(`${location} is closed: nothing was read or saved`, { cause: error });
}

/**
 * Every connection `pool` hands out (to a transaction, a single query, an import, a copy) is watched while it is
 * out (watchResponses): a query unanswered for `responseTimeoutMs` has the server checked, and fails when its
 * answer is not coming. 0: not watched.
 */
export function watchPool(pool: PostgresPool, responseTimeoutMs: number): void {
  if (responseTimeoutMs <= 0) return;
  const config = (pool as unknown as { options: pg.ClientConfig }).options;
  const watching = new WeakMap<PostgresClient, () => void>();
  pool.on('acquire', (client) => {
    watching.get(client)?.();
    watching.set(client, watchResponses(client, config, responseTimeoutMs));
  });
  pool.on('release', (_error, client) => {
    watching.get(client)?.();
    watching.delete(client);
  });
  pool.on('remove', (client) => {
    watching.get(client)?.();
    watching.delete(client);
  });
}

/**
 * One statement outside a transaction (a read that needs no snapshot of several), on a pooled connection; a
 * connection found lost is tried once more on a new one (a read is safe to repeat), then reported as
 * RecordUnreachableError like a transaction's.
 */
export async function runQuery<R extends pg.QueryResultRow = pg.QueryResultRow>(
  pool: PostgresPool,
  query: string | pg.QueryConfig | pg.QueryArrayConfig,
  values?: unknown[],
  location = 'the PostgreSQL record',
): Promise<pg.QueryResult<R>> {
  for (let attempt = 1; ; attempt++) {
    try {
      return (await pool.query(query as pg.QueryConfig, values)) as pg.QueryResult<R>;
    } catch (error) {
      if (!isConnectionLost(error)) throw closedStoreError(error, location) ?? refusedByRole(error, location) ?? error;
      if (attempt === 1) continue;
      throw new RecordUnreachableError(location, error);
    }
  }
}

/** `transaction` over `pool` (PostgresContext.transaction's rules); `location` names the record in errors. */
export async function runTransaction<T>(
  pool: PostgresPool,
  fn: (client: PostgresClient) => Promise<T>,
  options: TransactionOptions = {},
  location = 'the PostgreSQL record',
): Promise<T> {
  const begin = `BEGIN ISOLATION LEVEL ${(options.isolation ?? 'read committed').toUpperCase()}${
    options.readOnly ? ' READ ONLY' : ''
  }`;
  // A connection lost before COMMIT was sent is tried once more at once, on a new connection: the pool may have
  // handed out an idle connection that the server closed (it restarted) before the pool heard of it.
  let reconnected = false;
  for (let attempt = 1; ; attempt++) {
    let client: PostgresClient;
    try {
      client = await pool.connect();
    } catch (error) {
      throw isConnectionLost(error)
        ? new RecordUnreachableError(location, error)
        : (closedStoreError(error, location) ?? error);
    }
    let broken: Error | undefined;
    let committing = false;
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
      committing = true;
      await client.query('COMMIT');
      return result;
    } catch (error) {
      const lost = isConnectionLost(error) || (broken !== undefined && !(error instanceof StoreError));
      if (!lost) {
        try {
          await client.query('ROLLBACK');
        } catch (rollbackError) {
          // The connection is gone (server stopped, connection killed): it is not given back to the pool.
          broken = rollbackError as Error;
        }
      } else {
        broken ??= error as Error;
      }
      if (attempt < maxAttempts && isRetriedFailure(error)) {
        // A short, growing, jittered pause, so that two transactions that collided do not collide again.
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * 2 ** attempt));
        continue;
      }
      if (lost && !committing && !reconnected) {
        reconnected = true;
        continue;
      }
      if (lost) throw new RecordUnreachableError(location, error, committing);
      throw refusedByRole(error, location) ?? error;
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
  await client.query(`SELECT pg_notify($1, ($2::jsonb || jsonb_build_object('schema', current_schema()))::text)`, [
    changeChannel,
    JSON.stringify(payload),
  ]);
}
