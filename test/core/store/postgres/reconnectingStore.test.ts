// A PostgreSQL store that follows its settings (core/store/postgres/reconnectingStore.ts): which stores an edit of
// `qrelsStudio.stores` touches, and — on a real cluster — a store told to reconnect goes on over a connection made
// with the new settings, the same object in its holders' hands, its listeners kept; settings that do not connect
// make calls reject with why until they are fixed.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import pg from 'pg';
import { resolveStudies } from '../../../../core/dsl/model.ts';
import { parseStudyFile } from '../../../../core/dsl/parser.ts';
import { openPostgresStore } from '../../../../core/store/openPostgresStore.ts';
import type { StoresSettings } from '../../../../core/store/postgres/connectionConfig.ts';
import { changedStoreNames, ReconnectingStore } from '../../../../core/store/postgres/reconnectingStore.ts';
import { StoreError } from '../../../../core/store/studyDatabase.ts';
import type { StoreChange } from '../../../../core/store/studyStore.ts';
import { testDatabase } from '../../../pg/pgCluster.ts';

test('changedStoreNames: added, removed and edited entries; key order and untouched entries are no change', () => {
  const before: StoresSettings = {
    same: { host: 'h', database: 'd', user: 'u' },
    reordered: { user: 'u', host: 'h' },
    edited: { host: 'h', port: 5432 },
    removed: { host: 'h' },
  };
  const after: StoresSettings = {
    same: { host: 'h', database: 'd', user: 'u' },
    reordered: { host: 'h', user: 'u' },
    edited: { host: 'h', port: 5433 },
    added: { urlEnv: 'X' },
  };
  assert.deepEqual(changedStoreNames(before, after), ['added', 'edited', 'removed']);
  assert.deepEqual(changedStoreNames(undefined, { a: {} }), ['a']);
  assert.deepEqual(changedStoreNames({ a: { connectTimeoutMs: 1000 } }, { a: { connectTimeoutMs: 2000 } }), ['a']);
  assert.deepEqual(changedStoreNames(after, after), []);
});

const closing: (() => Promise<void>)[] = [];
after(async () => {
  for (const close of closing) await close();
});

async function annotatorsIn(config: pg.ClientConfig): Promise<string[]> {
  const client = new pg.Client(config);
  await client.connect();
  try {
    return (await client.query<{ name: string }>('SELECT name FROM annotator ORDER BY name')).rows.map((r) => r.name);
  } finally {
    await client.end();
  }
}

test('reconnect: the same store object goes on with the new settings, listeners kept; bad settings reject until fixed', async () => {
  const first = await testDatabase();
  const second = await testDatabase();
  const entry = (database: string) => ({
    host: first.host as string,
    port: first.port as number,
    user: first.user as string,
    database,
  });
  let settings: StoresSettings = { team: entry(first.database) };
  const store = await ReconnectingStore.open(() => openPostgresStore('team', { settings, env: {} }));
  closing.push(() => store.close());
  const labels = store.labels;
  const heard: StoreChange[] = [];
  store.onChange((change) => heard.push(change));

  await store.studies.ensureAnnotator('alice');
  assert.equal(store.location, 'postgres:team');

  const edited: StoresSettings = { team: entry(second.database) };
  assert.deepEqual(changedStoreNames(settings, edited), ['team']);
  settings = edited;
  const reconnecting = store.reconnect();
  // A call made while it reconnects waits for the new connection.
  await store.studies.ensureAnnotator('bob');
  await reconnecting;
  assert.equal(store.labels, labels, 'the areas its holders keep are the same objects');
  assert.deepEqual(await annotatorsIn(first), ['alice']);
  assert.deepEqual(await annotatorsIn(second), ['bob']);
  assert.ok(
    heard.some((change) => change.what === 'external'),
    'listeners hear that the record may have changed',
  );
  // Still subscribed: a write on the new connection is heard.
  heard.length = 0;
  await store.studies.ensureAnnotator('carol');
  const text = 'store postgres "team"\nstudy "s" {\n  scale ordinal { 0 "No" key "0"  1 "Yes" key "1" }\n}\n';
  await store.studies.sync(resolveStudies(parseStudyFile(text), '/nowhere/s.assess'));
  assert.ok(heard.length > 0, 'a write through the reconnected store reaches the listeners');

  settings = { team: entry('no_such_database') };
  await store.reconnect();
  await assert.rejects(store.studies.hasImported('x'), (error: unknown) => {
    assert.ok(error instanceof StoreError);
    assert.match(error.message, /store "team": the server at .* has no database no_such_database/);
    return true;
  });
  settings = { team: entry(second.database) };
  assert.equal(await store.studies.hasImported('x'), false, 'the next call tries again, with the fixed settings');
  assert.deepEqual(await annotatorsIn(second), ['bob', 'carol']);
});
