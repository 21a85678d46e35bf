// The PostgreSQL adapter of the storage port (core/store/studyStore.ts): a pool of node-postgres connections to a
// database that a team's editors and CLIs share. Every method is one transaction on a pooled client
// (postgresContext.ts); the I/O is asynchronous already, so the extension host can hold this store directly, without
// the SQLite adapter's worker thread.
//
// Other processes' commits reach onChange through LISTEN/NOTIFY: every write NOTIFYs on the record's channel inside
// its transaction (delivered when it commits), and while someone listens a dedicated connection LISTENs, skips this
// store's own notifications (its listeners heard of those already), and reports the others' as `external` changes,
// coalesced. When that connection drops (server restarted, network cut) it is opened again, with a growing pause, and
// one `external` change says that something may have been missed meanwhile.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { StoreChange, StudyStore } from '../studyStore.ts';
import { PostgresAgreement } from './postgresAgreement.ts';
import {
  type ChangePayload,
  changeChannel,
  defaultTimeouts,
  notifyChange,
  type PostgresContext,
  postgresTypes,
  runQuery,
  runTransaction,
  timeoutConfig,
  watchPool,
} from './postgresContext.ts';
import { PostgresExports } from './postgresExports.ts';
import { PostgresImports } from './postgresImports.ts';
import { PostgresJudge } from './postgresJudge.ts';
import { PostgresJudgeBatches } from './postgresJudgeBatches.ts';
import { PostgresLabels } from './postgresLabels.ts';
import { migratePostgres } from './postgresMigrate.ts';
import { PostgresReviews } from './postgresReviews.ts';
import { PostgresStudies } from './postgresStudies.ts';

export interface PostgresStoreConfig {
  /** How to connect: host, port, database, user, password (pg's PoolConfig; libpq's PG* variables fill the rest). */
  connection: pg.PoolConfig;
  /** Where the record is, for messages (`postgres:<store name>`); by default `postgres:<database>`. */
  location?: string;
  /**
   * How long a query may go unanswered before the server is checked (ConnectionTimeouts.responseTimeoutMs; 0: never).
   * The other timeouts are `connection` fields, defaulting to defaultTimeouts (postgresContext.ts).
   */
  responseTimeoutMs?: number;
}

/** How long other processes' notifications are gathered into one change. */
const coalesceMs = 50;
const reconnectMinMs = 250;
const reconnectMaxMs = 5000;

export class PostgresStudyStore implements StudyStore {
  readonly location: string;
  readonly studies: PostgresStudies;
  readonly imports: PostgresImports;
  readonly labels: PostgresLabels;
  readonly judge: PostgresJudge;
  readonly judgeBatches: PostgresJudgeBatches;
  readonly reviews: PostgresReviews;
  readonly agreement: PostgresAgreement;
  readonly exports: PostgresExports;
  /** The pool (tests, the store copy): not part of StudyStore. */
  readonly pool: pg.Pool;
  /** How this store connects (tests open a second store on the same record with it): not part of StudyStore. */
  readonly connection: pg.ClientConfig;
  /** Tells this store's own notifications from the others'. */
  private readonly origin = randomUUID();
  private readonly listeners = new Set<(change: StoreChange) => void>();
  private listener: pg.Client | undefined;
  private reconnect: ReturnType<typeof setTimeout> | undefined;
  private reconnectDelay = reconnectMinMs;
  private pending: Set<string | undefined> | undefined;
  private closed = false;
  private closing: Promise<void> | undefined;
  /**
   * How often the LISTENing connection is asked a `SELECT 1`, which must be answered within as long
   * (ConnectionTimeouts.responseTimeoutMs; 0: never): a connection cut without a reset would otherwise listen to
   * nothing, for ever, and the notifications sent meanwhile would be missed without anyone knowing.
   */
  private heartbeatMs = 0;
  /** The schema of the record (current_schema()): other schemas' notifications are not this record's changes. */
  private schema: string | undefined;

  private constructor(pool: pg.Pool, connection: pg.ClientConfig, location: string) {
    this.pool = pool;
    this.connection = connection;
    this.location = location;
    const context: PostgresContext = {
      pool,
      location,
      transaction: (fn, options) => runTransaction(pool, fn, options, location),
      query: (query, values) => runQuery(pool, query, values, location),
      notify: (client, change) => notifyChange(client, change, this.origin),
      changed: (change) => this.emit(change),
    };
    this.studies = new PostgresStudies(context);
    this.imports = new PostgresImports(context);
    this.labels = new PostgresLabels(context);
    this.judge = new PostgresJudge(context);
    this.judgeBatches = new PostgresJudgeBatches(context);
    this.reviews = new PostgresReviews(context);
    this.agreement = new PostgresAgreement(context);
    this.exports = new PostgresExports(context);
  }

  /** Connects to the database `config` names and migrates it to the newest schema. */
  static async open(config: PostgresStoreConfig): Promise<PostgresStudyStore> {
    const connection: pg.ClientConfig = {
      application_name: 'qrels-studio',
      ...timeoutConfig(defaultTimeouts),
      ...config.connection,
      types: postgresTypes,
    };
    const pool = new pg.Pool({ ...config.connection, ...connection });
    // An idle pooled connection that breaks (server restarted) is dropped by the pool; the next query opens another.
    pool.on('error', () => {});
    // A connection that breaks while checked out emits an error too; whoever holds it hears of it through the
    // statement that fails (and gives it back broken: the pool drops a connection that is not queryable), so no
    // code path that forgot to listen can end the process with an unhandled 'error' event.
    pool.on('connect', (client) => client.on('error', () => {}));
    const responseTimeoutMs = config.responseTimeoutMs ?? defaultTimeouts.responseTimeoutMs;
    watchPool(pool, responseTimeoutMs);
    try {
      await migratePostgres(pool);
    } catch (error) {
      await pool.end();
      throw error;
    }
    const database = config.connection.database ?? process.env.PGDATABASE ?? 'postgres';
    const store = new PostgresStudyStore(pool, connection, config.location ?? `postgres:${database}`);
    store.heartbeatMs = responseTimeoutMs;
    store.schema = (await store.where().catch(() => undefined))?.schema;
    return store;
  }

  /** The database and schema the record is in (the schema a `qrelsStudio.stores` entry names, or the default one). */
  async where(): Promise<{ database: string; schema: string }> {
    const { rows } = await runQuery<{ database: string; schema: string }>(
      this.pool,
      'SELECT current_database() AS database, current_schema() AS schema',
      [],
      this.location,
    );
    return rows[0]!;
  }

  onChange(listener: (change: StoreChange) => void): () => void {
    this.listeners.add(listener);
    if (this.listener === undefined && this.reconnect === undefined) this.listen();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.stopListening();
    };
  }

  /**
   * Closes the store: a call running finishes first (its transaction commits or rolls back as it would have), a
   * call made afterwards is refused with a StoreError; closing twice is closing once.
   */
  close(): Promise<void> {
    if (this.closing !== undefined) return this.closing;
    this.closed = true;
    this.listeners.clear();
    this.stopListening();
    this.closing = this.pool.end();
    return this.closing;
  }

  /** Opens the LISTENing connection (again, after it dropped). */
  private listen(): void {
    if (this.closed || this.listeners.size === 0) return;
    const client = new pg.Client(this.connection);
    this.listener = client;
    let lost = false;
    const onLost = (): void => {
      if (lost) return;
      lost = true;
      stopHeartbeat();
      client.removeAllListeners('notification');
      client.end().catch(() => {});
      if (this.listener !== client) return;
      this.listener = undefined;
      if (this.closed || this.listeners.size === 0) return;
      this.reconnect = setTimeout(() => {
        this.reconnect = undefined;
        this.listen();
      }, this.reconnectDelay);
      this.reconnect.unref?.();
      this.reconnectDelay = Math.min(this.reconnectDelay * 2, reconnectMaxMs);
    };
    let heartbeat: ReturnType<typeof setInterval> | undefined;
    const stopHeartbeat = (): void => {
      if (heartbeat !== undefined) clearInterval(heartbeat);
      heartbeat = undefined;
    };
    const startHeartbeat = (): void => {
      if (this.heartbeatMs <= 0) return;
      let waiting = false;
      heartbeat = setInterval(() => {
        if (waiting || lost) return;
        waiting = true;
        const silent = setTimeout(() => {
          const stream = (client as unknown as { connection?: { stream?: { destroy(error?: Error): void } } })
            .connection?.stream;
          stream?.destroy(new Error(`the LISTEN connection did not answer within ${this.heartbeatMs} ms`));
        }, this.heartbeatMs);
        silent.unref?.();
        client
          .query('SELECT 1')
          .then(
            () => {},
            () => {},
          )
          .finally(() => {
            clearTimeout(silent);
            waiting = false;
          });
      }, this.heartbeatMs);
      heartbeat.unref?.();
    };
    client.on('error', onLost);
    client.on('end', onLost);
    client.on('notification', (message) => {
      if (message.channel !== changeChannel || message.payload === undefined) return;
      let payload: ChangePayload;
      try {
        payload = JSON.parse(message.payload) as ChangePayload;
      } catch {
        return;
      }
      if (payload.origin === this.origin) return;
      // Another study file's record, in another schema of the database.
      if (payload.schema !== undefined && this.schema !== undefined && payload.schema !== this.schema) return;
      this.external(payload.study);
    });
    client
      .connect()
      .then(() => client.query(`LISTEN ${changeChannel}`))
      .then(() => {
        if (this.listener !== client) return;
        // After a reconnection, whatever was committed while nobody listened is reported as one change.
        if (this.reconnectDelay > reconnectMinMs) this.external(undefined);
        this.reconnectDelay = reconnectMinMs;
        startHeartbeat();
      })
      .catch(onLost);
  }

  private stopListening(): void {
    if (this.reconnect !== undefined) clearTimeout(this.reconnect);
    this.reconnect = undefined;
    this.reconnectDelay = reconnectMinMs;
    const client = this.listener;
    this.listener = undefined;
    if (client !== undefined) {
      client.removeAllListeners('notification');
      client.end().catch(() => {});
    }
  }

  /** Another process's commit: gathered for coalesceMs, then one change per study (and one with none). */
  private external(study: string | undefined): void {
    if (this.pending !== undefined) {
      this.pending.add(study);
      return;
    }
    this.pending = new Set([study]);
    setTimeout(() => {
      const studies = this.pending ?? new Set();
      this.pending = undefined;
      if (this.closed) return;
      for (const name of studies)
        this.emit(name === undefined ? { what: 'external' } : { what: 'external', study: name });
    }, coalesceMs).unref?.();
  }

  private emit(change: StoreChange): void {
    for (const listener of [...this.listeners]) listener(change);
  }
}
