// `store copy` into PostgreSQL is one schema per study file (issue 21): the record is the tables of the schema the
// store entry names, so two study files copied to two stores naming two schemas of one database both work, each
// record whole in its own schema; a third copy into a schema that holds one is refused, naming the schema, the
// database and the studies found there, and saying what to do — nothing written.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import pg from 'pg';
import { parseStudyFile, resolveStudies } from '../../core/dsl/index.ts';
import { SqliteStudyStore } from '../../core/store/sqlite/sqliteStudyStore.ts';
import { studyDatabasePath } from '../../core/store/studyDatabase.ts';
import { nativeBinding } from '../core/labelling/labellingStudy.ts';
import { scratchDir } from '../helpers.ts';
import { testDatabase } from '../pg/pgCluster.ts';
import { cliInProcess } from './inProcessCli.ts';

const cli = cliInProcess;

/** A study file named `name` in a folder of its own, its SQLite record holding its study and one annotator. */
async function studyFile(root: string, name: string): Promise<string> {
  const folder = join(root, name);
  mkdirSync(folder);
  const path = join(folder, `${name}.assess`);
  const text = `study "${name}" {\n  queries "q.jsonl" { id: qid  text: query }\n  corpus  "c.jsonl" { id: did  body: text }\n  scale ordinal { 0 "No" key "0"  1 "Yes" key "1" }\n}\n`;
  writeFileSync(join(folder, 'q.jsonl'), '{"qid": "q1", "query": "a"}\n');
  writeFileSync(join(folder, 'c.jsonl'), '{"did": "d1", "text": "b"}\n');
  writeFileSync(path, text);
  const store = await SqliteStudyStore.open(studyDatabasePath(path), { nativeBinding });
  try {
    await store.studies.sync(resolveStudies(parseStudyFile(text), path));
    await store.studies.ensureAnnotator(`${name}-annotator`);
  } finally {
    await store.close();
  }
  return folder;
}

test('store copy: one schema per study file — two study files into two schemas of one database; a taken schema refused', async () => {
  const database = await testDatabase();
  const admin = new pg.Client(database);
  await admin.connect();
  const studiesIn = async (schema: string) =>
    (await admin.query<{ name: string }>(`SELECT name FROM ${schema}.study ORDER BY name`)).rows.map((r) => r.name);
  try {
    await admin.query('CREATE SCHEMA first_study; CREATE SCHEMA second_study');
    const entry = (schema: string) => ({
      host: database.host,
      port: database.port,
      user: database.user,
      database: database.database,
      schema,
    });
    Object.assign(process.env, {
      PGHOST: '',
      PGPORT: '',
      PGUSER: '',
      PGDATABASE: '',
      PGPASSWORD: '',
      QRELS_STUDIO_STORES: JSON.stringify({ one: entry('first_study'), two: entry('second_study') }),
    });
    const root = scratchDir();
    const alpha = await studyFile(root, 'alpha');
    const beta = await studyFile(root, 'beta');

    const first = await cli(alpha, 'store', 'copy', 'alpha.assess', '--to', 'postgres', '--store', 'one');
    assert.equal(first.status, 0, first.stderr);
    const second = await cli(beta, 'store', 'copy', 'beta.assess', '--to', 'postgres', '--store', 'two');
    assert.equal(second.status, 0, second.stderr);
    assert.deepEqual(await studiesIn('first_study'), ['alpha']);
    assert.deepEqual(await studiesIn('second_study'), ['beta']);

    const refused = await cli(beta, 'store', 'copy', 'beta.assess', '--to', 'postgres', '--store', 'one');
    assert.equal(refused.status, 1);
    assert.match(
      refused.stderr,
      new RegExp(
        `postgres:one already holds a record \\(studies 'alpha'\\) — rows: .*annotator 1.*nothing was copied\\. ` +
          `It is in schema first_study of database ${database.database}: a schema holds the record of one study file`,
      ),
    );
    assert.deepEqual(await studiesIn('first_study'), ['alpha'], 'nothing was written');
  } finally {
    await admin.end();
    process.env.QRELS_STUDIO_STORES = '';
  }
});
