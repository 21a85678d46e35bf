// The PostgreSQL adapter's one way to run a port method (core/store/postgres/postgresContext.ts), on a real cluster:
// committed when it resolves, nothing when it rejects, run again after a serialization failure until it commits,
// a broken connection not given back to the pool, counts and sums as numbers, and the NOTIFY sent only on commit.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import pg from 'pg';
import {
  changeChannel,
  notifyChange,
  postgresTypes,
  runTransaction,
} from '../../../../core/store/postgres/postgresContext.ts';
import { testDatabase } from '../../../pg/pgCluster.ts';

const pools: pg.Pool[] = [];
after(async () => {
  await Promise.all(pools.map((pool) => pool.end()));
});

async function freshPool(): Promise<pg.Pool> {
  const pool = new pg.Pool({ ...(await testDatabase()), types: postgresTypes, max: 4 });
  pool.on('error', () => {});
  pools.push(pool);
  await pool.query('CREATE TABLE counter (id integer PRIMARY KEY, n integer NOT NULL)');
  await pool.query('INSERT INTO counter VALUES (1, 0)');
  return pool;
}

test('committed when it resolves; nothing written when it throws', async () => {
  const pool = await freshPool();
  assert.equal(
    await runTransaction(pool, async (client) => (await client.query('UPDATE counter SET n = n + 1')).rowCount),
    1,
  );
  await assert.rejects(
    runTransaction(pool, async (client) => {
      await client.query('UPDATE counter SET n = n + 100');
      throw new Error('changed my mind');
    }),
    /changed my mind/,
  );
  assert.deepEqual((await pool.query('SELECT n FROM counter')).rows, [{ n: 1 }]);
});

test('serializable transactions that collide are run again until each commits once', async () => {
  const pool = await freshPool();
  let runs = 0;
  const increment = () =>
    runTransaction(
      pool,
      async (client) => {
        runs += 1;
        const { rows } = await client.query<{ n: number }>('SELECT n FROM counter WHERE id = 1');
        // Both read before either writes: one of them fails to serialize.
        await new Promise((resolve) => setTimeout(resolve, 20));
        await client.query('UPDATE counter SET n = $1 WHERE id = 1', [rows[0]!.n + 1]);
      },
      { isolation: 'serializable' },
    );
  await Promise.all([increment(), increment(), increment(), increment()]);
  assert.deepEqual((await pool.query('SELECT n FROM counter')).rows, [{ n: 4 }]);
  assert.ok(runs > 4, `some ran again (${runs} runs)`);
});

test('a connection killed in a transaction: the promise rejects, the pool carries on with a new one', async () => {
  const pool = await freshPool();
  await assert.rejects(
    runTransaction(pool, async (client) => {
      await client.query('UPDATE counter SET n = 50');
      const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      const other = new pg.Client((pool as unknown as { options: pg.ClientConfig }).options);
      await other.connect();
      await other.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
      await other.end();
      await client.query('SELECT 1');
    }),
  );
  assert.deepEqual((await pool.query('SELECT n FROM counter')).rows, [{ n: 0 }]);
  assert.equal(await runTransaction(pool, async (client) => (await client.query('SELECT 1 AS one')).rows[0].one), 1);
});

test('count, sum and avg come back as numbers, as from SQLite', async () => {
  const pool = await freshPool();
  const { rows } = await pool.query(
    'SELECT count(*) AS c, sum(n) AS s, avg(n) AS a, sum(n::bigint) AS big FROM counter',
  );
  assert.deepEqual(rows, [{ c: 1, s: 0, a: 0, big: 0 }]);
});

test('a NOTIFY reaches listeners when the transaction commits, and not when it rolls back', async () => {
  const pool = await freshPool();
  const listener = new pg.Client((pool as unknown as { options: pg.ClientConfig }).options);
  await listener.connect();
  const heard: string[] = [];
  listener.on('notification', (message) => heard.push(message.payload ?? ''));
  await listener.query(`LISTEN ${changeChannel}`);
  await assert.rejects(
    runTransaction(pool, async (client) => {
      await notifyChange(client, { what: 'labels', study: 'rolled back' }, 'me');
      throw new Error('no');
    }),
  );
  await runTransaction(pool, (client) => notifyChange(client, { what: 'labels', study: 's' }, 'me'));
  for (let i = 0; i < 100 && heard.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  await listener.end();
  assert.deepEqual(
    heard.map((payload) => JSON.parse(payload)),
    [{ what: 'labels', study: 's', origin: 'me', schema: 'public' }],
  );
});
