// A network that fails without a reset (a cable cut, a stalled proxy): a TCP proxy on 127.0.0.1 between the store
// and the cluster stops forwarding without closing anything. A port call then fails with RecordUnreachableError
// within the store entry's timeouts — seconds, not the OS's minutes — and once the proxy forwards again the same
// store works again, never reopened. A long statement the server is still running is waited for, not cut.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { openPostgresStore } from '../../../../core/store/openPostgresStore.ts';
import { type PostgresContext, RecordUnreachableError } from '../../../../core/store/postgres/postgresContext.ts';
import type { PostgresStudyStore } from '../../../../core/store/postgres/postgresStudyStore.ts';
import type { StudyStore } from '../../../../core/store/studyStore.ts';
import { testDatabase } from '../../../pg/pgCluster.ts';
import { startProxy, type TcpProxy } from './tcpProxy.ts';

const cleanups: (() => Promise<void>)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function storeBehindProxy(
  timeouts: Record<string, number>,
): Promise<{ store: StudyStore; proxy: TcpProxy; database: string }> {
  const database = await testDatabase();
  const proxy = await startProxy({ host: database.host as string, port: database.port as number });
  cleanups.push(() => proxy.close());
  const store = await openPostgresStore('cut', {
    settings: {
      cut: {
        host: '127.0.0.1',
        port: proxy.port,
        database: database.database,
        user: database.user as string,
        ...timeouts,
      },
    },
    env: {},
  });
  cleanups.push(() => store.close());
  return { store, proxy, database: database.database };
}

/** The transaction runner the store's areas share (a protected field of each area). */
function contextOf(store: StudyStore): PostgresContext {
  return (store as PostgresStudyStore).studies['context' as keyof object] as unknown as PostgresContext;
}

async function timed<T>(promise: Promise<T>): Promise<{ ms: number; result: PromiseSettledResult<T> }> {
  const start = performance.now();
  const [result] = await Promise.allSettled([promise]);
  return { ms: performance.now() - start, result: result! };
}

test('a cable cut: a read and a write fail with RecordUnreachableError within the timeouts; the store recovers', async () => {
  const { store, proxy } = await storeBehindProxy({ connectTimeoutMs: 1000, responseTimeoutMs: 1000 });
  assert.equal(await store.studies.hasImported('nothing'), false);
  const alice = await store.studies.ensureAnnotator('alice');

  proxy.cut();
  // The pool's idle connection sends BEGIN into the void: unanswered for 1 s, the server cannot be reached to be
  // asked (1 s), a new connection cannot be set up (1 s).
  const read = await timed(store.studies.hasImported('nothing'));
  assert.equal(read.result.status, 'rejected');
  const readError = (read.result as PromiseRejectedResult).reason;
  assert.ok(readError instanceof RecordUnreachableError, String(readError));
  assert.match(readError.message, /postgres:cut could not be reached .*nothing was saved/);
  assert.ok(read.ms < 8000, `failed after ${Math.round(read.ms)} ms`);

  const write = await timed(store.studies.ensureAnnotator('bob'));
  assert.equal(write.result.status, 'rejected');
  assert.ok((write.result as PromiseRejectedResult).reason instanceof RecordUnreachableError);
  assert.ok(write.ms < 8000, `failed after ${Math.round(write.ms)} ms`);

  proxy.restore();
  assert.equal(await store.studies.ensureAnnotator('alice'), alice);
  const bob = await store.studies.ensureAnnotator('bob');
  assert.notEqual(bob, alice);
  assert.equal(await store.studies.hasImported('nothing'), false);
});

test('a cut while a transaction waits on a statement: that call fails in time, the next one works', async () => {
  const { store, proxy } = await storeBehindProxy({ connectTimeoutMs: 1000, responseTimeoutMs: 1000 });
  // A port method's transaction, cut while its statement runs on the server (pg_sleep stands for a slow query).
  const context = contextOf(store);
  const running = timed(context.transaction((client) => client.query('SELECT pg_sleep(0.5)')));
  await new Promise((resolve) => setTimeout(resolve, 100));
  proxy.cut();
  const { ms, result } = await running;
  assert.equal(result.status, 'rejected');
  assert.ok((result as PromiseRejectedResult).reason instanceof RecordUnreachableError);
  assert.ok(ms < 8000, `failed after ${Math.round(ms)} ms`);
  proxy.restore();
  assert.equal(await store.studies.hasImported('nothing'), false);
});

test('a statement the server is still running is waited for, however long past the response timeout', async () => {
  const { store } = await storeBehindProxy({ connectTimeoutMs: 1000, responseTimeoutMs: 300 });
  const context = contextOf(store);
  const { rows } = await context.transaction((client) => client.query('SELECT pg_sleep(1.5), 1 AS done'));
  assert.equal(rows[0].done, 1);
});

test("the entry's server timeouts are the sessions' settings; 0 leaves the server's own", async () => {
  const { store } = await storeBehindProxy({ idleInTransactionTimeoutMs: 1234, statementTimeoutMs: 5000 });
  const show = async (setting: string) =>
    (await contextOf(store).query<Record<string, string>>(`SHOW ${setting}`)).rows[0]![setting];
  assert.equal(await show('idle_in_transaction_session_timeout'), '1234ms');
  assert.equal(await show('statement_timeout'), '5s');
  const { store: plain } = await storeBehindProxy({ statementTimeoutMs: 0 });
  const showPlain = async (setting: string) =>
    (await contextOf(plain).query<Record<string, string>>(`SHOW ${setting}`)).rows[0]![setting];
  assert.equal(await showPlain('idle_in_transaction_session_timeout'), '1min', 'the default');
  assert.equal(await showPlain('statement_timeout'), '0');
});
