// copyRecord (core/store/storeCopy.ts) when the PostgreSQL server stops half-way, on a cluster of this file's own
// (never the run's shared one: the server is stopped as a crash would stop it, and started again): a copy into
// PostgreSQL leaves the database as it was (empty), a copy out of it leaves no SQLite file — and each says that the
// record could not be reached and nothing was copied. Also: the tables' dependency order.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { PostgresStudyStore } from '../../../core/store/postgres/postgresStudyStore.ts';
import { PostgresTables } from '../../../core/store/postgres/postgresTables.ts';
import { SqliteTables } from '../../../core/store/sqlite/sqliteTables.ts';
import { openDatabase } from '../../../core/store/sqliteDatabase.ts';
import { copyRecord, dependencyOrder, type RecordTables } from '../../../core/store/storeCopy.ts';
import { StoreError, studyDatabasePath } from '../../../core/store/studyDatabase.ts';
import { type Cluster, clusterVariable, startCluster, testDatabase } from '../../pg/pgCluster.ts';
import { labellingStudy, nativeBinding, plainStudy } from '../labelling/labellingStudy.ts';

let cluster: Cluster;

before(async () => {
  cluster = await startCluster();
  process.on('exit', () => cluster.stop());
  process.env[clusterVariable] = JSON.stringify({ host: cluster.host, port: cluster.port, user: cluster.user });
});

after(() => {
  cluster.stop();
});

/** `tables`, its export stopping the server after `batches` batches (the copy is then half-way). */
function stoppingAfter(tables: RecordTables, batches: number): RecordTables {
  return {
    location: tables.location,
    tables: () => tables.tables(),
    contents: () => tables.contents(),
    importTables: (b, refuse) => tables.importTables(b, refuse),
    async *exportTables(shapes, batchRows) {
      let n = 0;
      for await (const batch of tables.exportTables(shapes, batchRows)) {
        if (++n === batches + 1) cluster.stopServer('immediate');
        yield batch;
      }
    },
  };
}

async function rowCount(config: pg.ClientConfig): Promise<number> {
  const client = new pg.Client(config);
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      'SELECT ((SELECT COUNT(*) FROM study) + (SELECT COUNT(*) FROM query) + (SELECT COUNT(*) FROM document) + (SELECT COUNT(*) FROM pair))::integer AS n',
    );
    return rows[0]!.n;
  } finally {
    await client.end();
  }
}

test('the server stopped half-way through a copy into PostgreSQL: nothing copied, and the copy can be made again', async () => {
  const study = await labellingStudy(plainStudy(3, 4));
  await study.close();
  const database = await testDatabase();
  const store = await PostgresStudyStore.open({ connection: database, location: 'postgres:team' });
  try {
    const source = new SqliteTables(studyDatabasePath(study.studyFile), nativeBinding);
    const target = new PostgresTables(store.pool, store.location);
    try {
      await assert.rejects(copyRecord(stoppingAfter(source, 4), target), (error: unknown) => {
        assert.ok(error instanceof StoreError, String(error));
        assert.match(error.message, /postgres:team could not be reached .*nothing was saved/);
        return true;
      });
    } finally {
      cluster.startServer();
    }
    assert.equal(await rowCount(database), 0);
    const report = await copyRecord(source, target);
    assert.equal(report.rows.get('pair'), 12);
    assert.equal(await rowCount(database), 1 + 3 + 12 + 12);
  } finally {
    await store.close();
  }
});

test('the server stopped half-way through a copy out of PostgreSQL: no SQLite file is left', async () => {
  const study = await labellingStudy(plainStudy(3, 4));
  await study.close();
  const database = await testDatabase();
  const store = await PostgresStudyStore.open({ connection: database, location: 'postgres:team' });
  try {
    const postgres = new PostgresTables(store.pool, store.location);
    await copyRecord(new SqliteTables(studyDatabasePath(study.studyFile), nativeBinding), postgres);
    const fresh = join(dirname(studyDatabasePath(study.studyFile)), 'fresh.sqlite');
    try {
      await assert.rejects(copyRecord(stoppingAfter(postgres, 4), new SqliteTables(fresh, nativeBinding)), StoreError);
    } finally {
      cluster.startServer();
    }
    assert.equal(existsSync(fresh), false);
    assert.deepEqual(
      readdirSync(dirname(fresh)).filter((f) => f.startsWith('fresh')),
      [],
    );
  } finally {
    await store.close();
  }
});

/** Every table's rows of a SQLite record, each in a fixed order. */
function sqliteRows(file: string): Record<string, unknown[]> {
  const db = openDatabase(file, { nativeBinding });
  try {
    const tables = db
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
      .pluck()
      .all() as string[];
    return Object.fromEntries(tables.map((t) => [t, db.prepare(`SELECT * FROM "${t}" ORDER BY 1, 2`).raw().all()]));
  } finally {
    db.close();
  }
}

test('small batches (3 rows): SQLite → PostgreSQL → a new SQLite file gives the same rows, and the counts say so', async () => {
  const study = await labellingStudy(plainStudy(4, 5));
  const session = await study.session('alice');
  for (let position = 0; position < 7; position++) {
    const version = session.state().queue.version;
    const pair = (await session.pairAt(position, version, false))!;
    await session.commit({ position, pairId: pair.pairId, label: position % 3, queueVersion: version });
  }
  await study.close();
  const database = await testDatabase();
  const store = await PostgresStudyStore.open({ connection: database, location: 'postgres:team' });
  try {
    const file = studyDatabasePath(study.studyFile);
    const postgres = new PostgresTables(store.pool, store.location);
    const there = await copyRecord(new SqliteTables(file, nativeBinding), postgres, { batchRows: 3 });
    assert.equal(there.rows.get('pair'), 20);
    assert.equal(there.rows.get('judgment'), 7);
    const back = join(dirname(file), 'back.sqlite');
    const report = await copyRecord(postgres, new SqliteTables(back, nativeBinding), { batchRows: 3 });
    assert.deepEqual([...report.rows], [...there.rows]);
    assert.deepEqual(sqliteRows(back), sqliteRows(file));
  } finally {
    await store.close();
  }
});

test('dependency order: every table after those it references; a cycle refused', () => {
  const order = dependencyOrder([
    { name: 'judgment', columns: ['id'], references: ['pair', 'annotator'] },
    { name: 'pair', columns: ['id'], references: ['study'] },
    { name: 'annotator', columns: ['id'], references: [] },
    { name: 'study', columns: ['id'], references: [] },
    { name: 'version', columns: ['id'], references: ['version'] },
  ]).map((t) => t.name);
  assert.deepEqual(order, ['annotator', 'study', 'pair', 'judgment', 'version']);
  assert.throws(
    () =>
      dependencyOrder([
        { name: 'a', columns: [], references: ['b'] },
        { name: 'b', columns: [], references: ['a'] },
      ]),
    /a → b → a reference each other/,
  );
});
