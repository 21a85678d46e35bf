// The adapter's advisory locks (core/store/postgres/advisoryLocks.ts) are per schema: one database may hold several
// study files' records, one per schema, and study 1 of one schema must not wait on study 1 of another — while two
// sessions on the same schema's study 1 (or the same pair) still take turns. On a real cluster.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import pg from 'pg';
import { lockInSchema } from '../../../../core/store/postgres/advisoryLocks.ts';
import { testDatabase } from '../../../pg/pgCluster.ts';

const clients: pg.Client[] = [];
after(async () => {
  await Promise.all(clients.map((client) => client.end()));
});

async function clientIn(config: pg.ClientConfig, schema: string): Promise<pg.Client> {
  const client = new pg.Client({ ...config, options: `-c search_path=${schema}` });
  await client.connect();
  clients.push(client);
  return client;
}

/** Whether `promise` is still pending after the server has had every chance to answer a lock it could grant. */
async function pendingAfter(promise: Promise<unknown>, check: pg.Client): Promise<boolean> {
  let settled = false;
  void promise.then(
    () => {
      settled = true;
    },
    () => {
      settled = true;
    },
  );
  // The waiting backend shows in pg_locks as not granted: wait until the server says so, then look.
  for (let i = 0; i < 200; i++) {
    const { rows } = await check.query(
      "SELECT count(*)::integer AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted",
    );
    if (rows[0].n > 0 || settled) break;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return !settled;
}

test('a study lock in one schema does not hold up the same study id in another schema, and does in its own', async () => {
  const config = await testDatabase();
  const setup = new pg.Client(config);
  await setup.connect();
  clients.push(setup);
  await setup.query('CREATE SCHEMA team_a; CREATE SCHEMA team_b');

  const holder = await clientIn(config, 'team_a');
  await holder.query('BEGIN');
  await lockInSchema(holder, 'study', 1);

  // Another schema's study 1: granted at once, while team_a's is held.
  const other = await clientIn(config, 'team_b');
  await other.query('BEGIN');
  await lockInSchema(other, 'study', 1);
  await other.query('COMMIT');

  // A different space or id in the same schema: not held up either.
  const sameSchema = await clientIn(config, 'team_a');
  await sameSchema.query('BEGIN');
  await lockInSchema(sameSchema, 'label', 1);
  await lockInSchema(sameSchema, 'study', 2);
  await sameSchema.query('COMMIT');

  // The same schema's study 1 waits until the holder commits.
  await sameSchema.query('BEGIN');
  const waiting = lockInSchema(sameSchema, 'study', 1);
  assert.equal(await pendingAfter(waiting, setup), true, 'the same study lock in the same schema must wait');
  await holder.query('COMMIT');
  await waiting;
  await sameSchema.query('COMMIT');
});
