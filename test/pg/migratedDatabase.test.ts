// The migrated template's promises (test/pg/migratedDatabase.ts): migratedTestDatabase() is a fresh copy at the
// newest schema, separate from every other; the template is named by the migrations' SQL, is made once when processes
// race, accepts no connection, and holds nothing role-specific; testDatabase() stays empty.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { postgresMigrations } from '../../core/store/postgres/migrations/postgresMigrations.ts';
import { PostgresStudyStore } from '../../core/store/postgres/postgresStudyStore.ts';
import { migratedTemplate, migratedTemplateName, migratedTestDatabase } from './migratedDatabase.ts';
import { clusterVariable, runCluster, startCluster, testDatabase } from './pgCluster.ts';

const newest = postgresMigrations.at(-1)!.version;

async function query<T extends pg.QueryResultRow>(config: pg.ClientConfig, sql: string, values: unknown[] = []) {
  const client = new pg.Client(config);
  await client.connect();
  try {
    return (await client.query<T>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

test('each migratedTestDatabase() is a fresh database at the newest schema; testDatabase() stays empty', async () => {
  const first = await migratedTestDatabase();
  const second = await migratedTestDatabase();
  assert.notEqual(first.database, second.database);
  assert.deepEqual(await query(first, 'SELECT version FROM schema_version'), [{ version: newest }]);
  await query(first, "INSERT INTO annotator (name, kind) VALUES ('alice', 'human')");
  assert.deepEqual(await query(second, 'SELECT count(*)::int AS n FROM annotator'), [{ n: 0 }]);
  const empty = await testDatabase();
  assert.deepEqual(await query(empty, "SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'"), [
    { n: 0 },
  ]);
  // The store opens it with nothing to migrate, and works.
  const store = await PostgresStudyStore.open({ connection: second });
  try {
    assert.equal((await store.where()).database, second.database);
  } finally {
    await store.close();
  }
});

test('the template is named by the schema version and the migrations’ SQL, takes no connection and grants nothing', async () => {
  assert.match(migratedTemplateName, new RegExp(`^qrels_template_v${newest}_[0-9a-f]{16}$`));
  const cluster = await runCluster();
  assert.equal(await migratedTemplate(cluster), migratedTemplateName);
  const admin = { ...cluster, database: 'postgres' };
  assert.deepEqual(
    await query(admin, 'SELECT datistemplate, datallowconn, datacl FROM pg_database WHERE datname = $1', [
      migratedTemplateName,
    ]),
    [{ datistemplate: true, datallowconn: false, datacl: null }],
  );
  await assert.rejects(query({ ...cluster, database: migratedTemplateName }, 'SELECT 1'), /not currently accepting/);
  // Its copies' tables carry no grant to any role (roles are the cluster's; `store grant` runs on a test's copy).
  const copy = await migratedTestDatabase();
  assert.deepEqual(
    await query(
      copy,
      "SELECT count(*)::int AS n FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relacl IS NOT NULL",
    ),
    [{ n: 0 }],
  );
});

const harness = pathToFileURL(`${import.meta.dirname}/migratedDatabase.ts`).href;

test('processes racing on a new cluster make its template once, and each gets a migrated copy', async () => {
  const cluster = await startCluster();
  try {
    const address = JSON.stringify({ host: cluster.host, port: cluster.port, user: cluster.user });
    const script = `import { migratedTestDatabase } from ${JSON.stringify(harness)};
const { database } = await migratedTestDatabase();
console.log(database);
process.exit(0);`;
    const children = Array.from(
      { length: 4 },
      () =>
        new Promise<string>((resolve, reject) => {
          const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
            env: { ...process.env, [clusterVariable]: address },
            stdio: ['ignore', 'pipe', 'pipe'],
          });
          let out = '';
          let err = '';
          child.stdout.setEncoding('utf8').on('data', (text: string) => (out += text));
          child.stderr.setEncoding('utf8').on('data', (text: string) => (err += text));
          child.once('close', (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(`exit ${code}: ${err}`))));
        }),
    );
    const databases = await Promise.all(children);
    assert.equal(new Set(databases).size, 4);
    const admin = { host: cluster.host, port: cluster.port, user: cluster.user, database: 'postgres' };
    assert.deepEqual(
      await query(admin, "SELECT datname FROM pg_database WHERE datname LIKE 'qrels_template%' ORDER BY datname"),
      [{ datname: migratedTemplateName }],
    );
    for (const database of databases) {
      assert.deepEqual(await query({ ...admin, database }, 'SELECT version FROM schema_version'), [
        { version: newest },
      ]);
    }
  } finally {
    cluster.stop();
  }
});
