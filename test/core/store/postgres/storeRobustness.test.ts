// The PostgreSQL store's own robustness (core/store/postgres/postgresStudyStore.ts, postgresContext.ts), on real
// servers: its LISTEN connection comes back after the server restarts and after a network cut without a reset
// (a heartbeat notices the silence), saying that something may have been missed; a connection that breaks while
// some code holds it cannot end the process; close() lets a running call finish, refuses later ones with a
// StoreError, and may be called twice.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import pg from 'pg';
import { PostgresStudyStore } from '../../../../core/store/postgres/postgresStudyStore.ts';
import { StoreError } from '../../../../core/store/studyDatabase.ts';
import type { StoreChange } from '../../../../core/store/studyStore.ts';
import { scratchDir } from '../../../helpers.ts';
import { startCluster, testDatabase } from '../../../pg/pgCluster.ts';
import { startProxy } from './tcpProxy.ts';

const cleanups: (() => Promise<void> | void)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function until(what: string, check: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const studyText = (name: string) => `study "${name}" {\n  scale ordinal { 0 "No" key "0"  1 "Yes" key "1" }\n}\n`;

/** A write another process's store makes: a study synced (it NOTIFYs, naming no study). */
async function write(store: PostgresStudyStore, name: string): Promise<void> {
  const { parseStudyFile, resolveStudies } = await import('../../../../core/dsl/index.ts');
  await store.studies.sync(resolveStudies(parseStudyFile(studyText(name)), `/nowhere/${name}.assess`));
}

test('LISTEN comes back after the server restarts: one change says something may have been missed, then others are heard again', async () => {
  const cluster = await startCluster(scratchDir());
  cleanups.push(() => cluster.stop());
  const connection = { host: cluster.host, port: cluster.port, user: cluster.user, database: 'postgres' };
  const listening = await PostgresStudyStore.open({ connection, responseTimeoutMs: 1000 });
  const writing = await PostgresStudyStore.open({ connection });
  cleanups.push(
    () => listening.close(),
    () => writing.close(),
  );
  const heard: StoreChange[] = [];
  listening.onChange((change) => heard.push(change));
  await new Promise((resolve) => setTimeout(resolve, 300));
  await write(writing, 'before');
  await until('the first change', () => heard.length > 0);

  cluster.stopServer('fast');
  await new Promise((resolve) => setTimeout(resolve, 500));
  cluster.startServer();
  heard.length = 0;
  // Nobody writes: what is heard is the reconnection's own change.
  await until('the change after reconnecting', () => heard.some((c) => c.what === 'external'));
  heard.length = 0;
  await write(writing, 'after');
  await until('a change after the restart', () => heard.length > 0);
});

test('LISTEN through a cut without a reset: the heartbeat notices, and once the network is back it says what may be missed', async () => {
  const database = await testDatabase();
  const proxy = await startProxy({ host: database.host as string, port: database.port as number });
  cleanups.push(() => proxy.close());
  const listening = await PostgresStudyStore.open({
    connection: { ...database, host: '127.0.0.1', port: proxy.port, connectionTimeoutMillis: 500 },
    responseTimeoutMs: 500,
  });
  const writing = await PostgresStudyStore.open({ connection: database });
  cleanups.push(
    () => listening.close(),
    () => writing.close(),
  );
  const heard: StoreChange[] = [];
  listening.onChange((change) => heard.push(change));
  await new Promise((resolve) => setTimeout(resolve, 300));
  await write(writing, 'before');
  await until('the first change', () => heard.length > 0);

  proxy.cut();
  // A commit while the listener is cut off: its notification is lost on the way.
  await write(writing, 'during');
  await new Promise((resolve) => setTimeout(resolve, 2000));
  heard.length = 0;
  proxy.restore();
  // Nobody writes now: what is heard is the reconnection's change, for the notification lost during the cut.
  await until('the change that says something may have been missed', () => heard.some((c) => c.what === 'external'));
  heard.length = 0;
  await write(writing, 'after');
  await until('a change after the cut', () => heard.length > 0);
});

test('a connection that breaks while held, with nobody listening for its error, does not end the process', async () => {
  const store = await PostgresStudyStore.open({ connection: await testDatabase() });
  cleanups.push(() => store.close());
  const client = await store.pool.connect();
  const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  const other = new pg.Client(store.connection);
  await other.connect();
  await other.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
  await other.end();
  await new Promise((resolve) => setTimeout(resolve, 300));
  await assert.rejects(client.query('SELECT 1'));
  client.release();
  assert.equal(await store.studies.hasImported('x'), false, 'the pool goes on with a new connection');
});

test('close() while a call runs: the call finishes and commits, later calls are refused with a StoreError, closing twice is fine', async () => {
  const store = await PostgresStudyStore.open({ connection: await testDatabase(), location: 'postgres:closing' });
  const context = store.studies['context' as keyof object] as unknown as {
    transaction<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T>;
  };
  const running = context.transaction(async (client) => {
    await client.query('SELECT pg_sleep(0.3)');
    return client.query("INSERT INTO annotator (name, kind) VALUES ('late', 'human') RETURNING id");
  });
  await new Promise((resolve) => setTimeout(resolve, 50));
  const closing = store.close();
  const result = await running;
  assert.equal(result.rowCount, 1);
  await Promise.all([closing, store.close()]);
  for (const call of [() => store.studies.ensureAnnotator('x'), () => store.studies.hasImported('x')]) {
    await assert.rejects(call(), (error: unknown) => {
      assert.ok(error instanceof StoreError, String(error));
      assert.equal(error.message, 'postgres:closing is closed: nothing was read or saved');
      return true;
    });
  }
  const check = new pg.Client(store.connection);
  await check.connect();
  try {
    const names = await check.query<{ name: string }>("SELECT name FROM annotator WHERE name = 'late'");
    assert.equal(names.rowCount, 1, 'the running call committed');
  } finally {
    await check.end();
  }
});

test("one database, one schema per study file: a store hears its own schema's changes, not another schema's", async () => {
  const database = await testDatabase();
  const admin = new pg.Client(database);
  await admin.connect();
  await admin.query('CREATE SCHEMA wqt; CREATE SCHEMA crumb');
  await admin.end();
  const inSchema = (schema: string) => ({ ...database, options: `-c search_path=${schema}` });
  const listening = await PostgresStudyStore.open({ connection: inSchema('wqt') });
  const sameSchema = await PostgresStudyStore.open({ connection: inSchema('wqt') });
  const otherSchema = await PostgresStudyStore.open({ connection: inSchema('crumb') });
  cleanups.push(
    () => listening.close(),
    () => sameSchema.close(),
    () => otherSchema.close(),
  );
  assert.deepEqual(await otherSchema.where(), { database: database.database, schema: 'crumb' });
  const heard: StoreChange[] = [];
  listening.onChange((change) => heard.push(change));
  await new Promise((resolve) => setTimeout(resolve, 300));
  await write(otherSchema, 'elsewhere');
  await new Promise((resolve) => setTimeout(resolve, 600));
  assert.deepEqual(heard, [], "another schema's write is not this record's change");
  await write(sameSchema, 'here');
  await until("the same schema's change", () => heard.length > 0);
});
