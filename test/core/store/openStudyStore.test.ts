// The factory that opens a study file's record where its `store` statement says (issue 21 item 2): the SQLite file
// next to the study without one; a PostgreSQL store for `store postgres "name"`, connected from the settings and the
// environment, with a password only from the secret, PGPASSWORD or ~/.pgpass — checked against a real cluster that
// asks for passwords (scram-sha-256), so each source is shown to reach the server.
import assert from 'node:assert/strict';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { parseStudyFile, resolveStudies } from '../../../core/dsl/index.ts';
import { openStudyStore } from '../../../core/store/openStudyStore.ts';
import { locateNativeBinding } from '../../../core/store/sqliteDatabase.ts';
import { studyDatabasePath } from '../../../core/store/studyDatabase.ts';
import { nativeDir, scratchDir } from '../../helpers.ts';
import { type Cluster, startCluster } from '../../pg/pgCluster.ts';

const studyText = (storeLine: string) => `${storeLine}
study "s" {
  queries "q.jsonl" { id: qid  text: query }
  corpus "c.jsonl" { id: did  body: text }
  scale ordinal { 0 "No" key "0"  1 "Yes" key "1" }
}
`;

let cluster: Cluster;
const savedEnv = { PGPASSWORD: process.env.PGPASSWORD, PGPASSFILE: process.env.PGPASSFILE };

before(async () => {
  // node-postgres itself reads PGPASSWORD and ~/.pgpass from this process's environment: none of ours may leak in.
  delete process.env.PGPASSWORD;
  process.env.PGPASSFILE = join(scratchDir(), 'no-such-pgpass');
  cluster = await startCluster(scratchDir(), { auth: 'scram-sha-256', password: 'owner-secret' });
});

after(() => {
  cluster?.stop();
  for (const [name, value] of Object.entries(savedEnv)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

const settings = () => ({
  team: { host: cluster.host, port: cluster.port, database: 'postgres', user: cluster.user },
});

function nativeBindingNotAsked(): string {
  throw new Error('a PostgreSQL store must not ask for SQLite');
}

test('without a store statement, and with store sqlite: the SQLite file next to the study, as before', async () => {
  for (const line of ['', 'store sqlite']) {
    const path = join(scratchDir(), 'study.assess');
    const model = resolveStudies(parseStudyFile(studyText(line)), path);
    const store = await openStudyStore(path, model, { nativeBinding: locateNativeBinding(nativeDir) });
    try {
      assert.equal(store.location, studyDatabasePath(path));
      await store.studies.sync(model);
    } finally {
      await store.close();
    }
  }
});

test('store postgres "team": the password from the secret reaches the server; none is refused by it', async () => {
  const path = join(scratchDir(), 'study.assess');
  const model = resolveStudies(parseStudyFile(studyText('store postgres "team"')), path);
  const asked: string[] = [];
  const store = await openStudyStore(path, model, {
    nativeBinding: nativeBindingNotAsked,
    settings: settings(),
    env: {},
    secret: (name) => {
      asked.push(name);
      return 'owner-secret';
    },
  });
  try {
    assert.deepEqual(asked, ['team']);
    assert.equal(store.location, 'postgres:team');
    await store.studies.sync(model);
  } finally {
    await store.close();
  }
  await assert.rejects(
    openStudyStore(path, model, { nativeBinding: nativeBindingNotAsked, settings: settings(), env: {} }),
    new RegExp(
      `^StoreError: store "team": the server asks for the password of user ${cluster.user} and none was found: set it with "Qrels Studio: Set Store Password", in PGPASSWORD or in ~/.pgpass$`,
    ),
  );
  await assert.rejects(
    openStudyStore(path, model, {
      nativeBinding: nativeBindingNotAsked,
      settings: settings(),
      env: {},
      secret: () => 'wrong',
    }),
    new RegExp(
      `^StoreError: store "team": the server refused the password of user ${cluster.user} \\(from the secret storage\\)`,
    ),
  );
  await assert.rejects(
    openStudyStore(path, model, {
      nativeBinding: nativeBindingNotAsked,
      settings: { team: { ...settings().team, database: 'nope' } },
      env: {},
      secret: () => 'owner-secret',
    }),
    /^StoreError: store "team": the server at 127\.0\.0\.1:\d+ \(qrelsStudio\.stores\["team"\]\.host\) has no database nope/,
  );
  await assert.rejects(
    openStudyStore(path, model, {
      nativeBinding: nativeBindingNotAsked,
      settings: { team: { ...settings().team, schema: 'missing_schema' } },
      env: {},
      secret: () => 'owner-secret',
    }),
    /^StoreError: store "team": database postgres at .* has no schema missing_schema/,
  );
});

test('the password from PGPASSWORD (the environment passed in), and from the file PGPASSFILE names', async () => {
  const path = join(scratchDir(), 'study.assess');
  const model = resolveStudies(parseStudyFile(studyText('store postgres "team"')), path);
  const fromEnv = await openStudyStore(path, model, {
    nativeBinding: nativeBindingNotAsked,
    settings: settings(),
    env: { PGPASSWORD: 'owner-secret' },
  });
  await fromEnv.close();

  // No password in the config: node-postgres reads the password file itself (~/.pgpass, or PGPASSFILE).
  const passFile = join(scratchDir(), 'pgpass');
  writeFileSync(passFile, `${cluster.host}:${cluster.port}:*:${cluster.user}:owner-secret\n`);
  chmodSync(passFile, 0o600);
  process.env.PGPASSFILE = passFile;
  try {
    const fromFile = await openStudyStore(path, model, {
      nativeBinding: nativeBindingNotAsked,
      settings: settings(),
      env: {},
    });
    await fromFile.close();
  } finally {
    process.env.PGPASSFILE = join(scratchDir(), 'no-such-pgpass');
  }
});

test('a password in the URL is not used, and said so', async () => {
  const path = join(scratchDir(), 'study.assess');
  const model = resolveStudies(parseStudyFile(studyText('store postgres "team"')), path);
  const warnings: string[] = [];
  await assert.rejects(
    openStudyStore(path, model, {
      nativeBinding: nativeBindingNotAsked,
      settings: { team: { urlEnv: 'TEAM_URL' } },
      env: { TEAM_URL: `postgres://${cluster.user}:owner-secret@${cluster.host}:${cluster.port}/postgres` },
      onWarning: (message) => warnings.push(message),
    }),
    /none was found/,
  );
  assert.deepEqual(warnings.length, 1);
  assert.match(warnings[0]!, /^the password in the URL of TEAM_URL is not used/);
});

test("a schema in the settings: the study's tables live there (the connection's search_path)", async () => {
  const admin = new pg.Client({ ...settings().team, password: 'owner-secret' });
  await admin.connect();
  try {
    await admin.query('CREATE SCHEMA team_wqt');
    const path = join(scratchDir(), 'study.assess');
    const model = resolveStudies(parseStudyFile(studyText('store postgres "team"')), path);
    const store = await openStudyStore(path, model, {
      nativeBinding: nativeBindingNotAsked,
      settings: { team: { ...settings().team, schema: 'team_wqt' } },
      env: {},
      secret: () => 'owner-secret',
    });
    try {
      await store.studies.sync(model);
    } finally {
      await store.close();
    }
    const { rows } = await admin.query<{ name: string }>('SELECT name FROM team_wqt.study');
    assert.deepEqual(
      rows.map((r) => r.name),
      ['s'],
    );
  } finally {
    await admin.end();
  }
});
