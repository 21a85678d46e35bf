// `store postgres "name"` from the command line (issue 21 item 2): a study file that says its record lives on a
// PostgreSQL store is imported into and exported from a real database of the run's throwaway cluster
// (test/pg/pgCluster.ts), configured only through what the connection resolver reads — libpq's PG* variables, the
// QRELS_STUDIO_STORES setting and a URL in the variable its `urlEnv` names — and no SQLite file appears.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import pg from 'pg';
import { runCliProcess, scratchDir } from '../helpers.ts';
import { testDatabase } from '../pg/pgCluster.ts';

/** Every PG* variable the resolver reads, unset (the test's own environment must not leak in). */
const noPgEnvironment = {
  PGHOST: '',
  PGPORT: '',
  PGDATABASE: '',
  PGUSER: '',
  PGPASSWORD: '',
  QRELS_STUDIO_STORES: '',
};

function workspace(storeLine: string): string {
  const root = scratchDir();
  mkdirSync(join(root, 'data'));
  mkdirSync(join(root, 'runs'));
  writeFileSync(
    join(root, 'wqt.assess'),
    `${storeLine}

study "wqt" {
  queries "data/queries.jsonl" { id: qid  text: query }
  corpus  "data/corpus.jsonl"  { id: _id  body: text }
  pool    "runs/bm25.trec" depth 2
  scale ordinal { 0 "No" key "0"  1 "Partly" key "1"  2 "Yes" key "2" }
}
`,
  );
  writeFileSync(
    join(root, 'data', 'queries.jsonl'),
    '{"qid": "q1", "query": "medal tables"}\n{"qid": "q2", "query": "rivers"}\n',
  );
  writeFileSync(
    join(root, 'data', 'corpus.jsonl'),
    `${['d1', 'd2', 'd3', 'd4'].map((id) => JSON.stringify({ _id: id, text: `text of ${id}` })).join('\n')}\n`,
  );
  writeFileSync(join(root, 'runs', 'bm25.trec'), 'q1 Q0 d1 1 9.0 bm25\nq1 Q0 d2 2 8.0 bm25\nq2 Q0 d4 1 5.0 bm25\n');
  return root;
}

function cli(cwd: string, env: NodeJS.ProcessEnv, ...args: string[]) {
  return runCliProcess(args, { cwd, env: { ...noPgEnvironment, ...env } });
}

async function studyNames(config: pg.ClientConfig): Promise<string[]> {
  const client = new pg.Client(config);
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>('SELECT name FROM study ORDER BY name');
    return rows.map((r) => r.name);
  } finally {
    await client.end();
  }
}

test('store postgres "x": import and export go to the PostgreSQL database libpq\'s environment names', async () => {
  const database = await testDatabase();
  const root = workspace('store postgres "team-wqt"');
  const env = {
    PGHOST: String(database.host),
    PGPORT: String(database.port),
    PGUSER: String(database.user),
    PGDATABASE: database.database,
  };
  const imported = cli(root, env, 'import', 'wqt.assess');
  assert.equal(imported.status, 0, imported.stderr);
  assert.match(imported.stdout, /queries: 2 added/);
  assert.match(imported.stdout, /documents: 4 added/);
  assert.equal(existsSync(join(root, '.qrels-studio', 'wqt.sqlite')), false, 'no SQLite file next to the study');
  assert.deepEqual(await studyNames(database), ['wqt']);

  writeFileSync(join(root, 'nist.qrels'), 'q1 0 d1 2\nq2 0 d4 1\n');
  const judged = cli(root, env, 'import', 'wqt.assess', '--qrels', 'nist.qrels', '--annotator', 'nist');
  assert.equal(judged.status, 0, judged.stderr);
  const exported = cli(root, env, 'export', 'wqt.assess', '--qrels', 'out.qrels', '--from', 'annotator:nist');
  assert.equal(exported.status, 0, exported.stderr);
  assert.equal(readFileSync(join(root, 'out.qrels'), 'utf8'), 'q1 0 d1 2\nq2 0 d4 1\n');
});

test('the store name looked up in QRELS_STUDIO_STORES, its URL in the variable urlEnv names', async () => {
  const database = await testDatabase();
  const root = workspace('store postgres "team-wqt"');
  const url = `postgres://${database.user}@${database.host}:${database.port}/${database.database}`;
  const result = cli(
    root,
    { QRELS_STUDIO_STORES: JSON.stringify({ 'team-wqt': { urlEnv: 'WQT_DATABASE_URL' } }), WQT_DATABASE_URL: url },
    'import',
    'wqt.assess',
  );
  assert.equal(result.status, 0, result.stderr);
  assert.deepEqual(await studyNames(database), ['wqt']);
});

test('nothing configured for the store: an error naming what is missing, and nothing written anywhere', () => {
  const root = workspace('store postgres "team-wqt"');
  const result = cli(root, {}, 'import', 'wqt.assess');
  assert.equal(result.status, 1);
  assert.match(
    result.stderr,
    /store "team-wqt" cannot connect \(no qrelsStudio\.stores\["team-wqt"\] setting\): expected a host \(set .*PGHOST.*\), a database .*, a user .*; found none/,
  );
  assert.equal(existsSync(join(root, '.qrels-studio')), false);
});

test('store sqlite, written out, is the SQLite file next to the study as without a store statement', () => {
  const root = workspace('store sqlite');
  const result = cli(root, {}, 'import', 'wqt.assess');
  assert.equal(result.status, 0, result.stderr);
  assert.ok(existsSync(join(root, '.qrels-studio', 'wqt.sqlite')));
});
