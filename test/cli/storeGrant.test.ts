// `qrels-studio store grant` (issue 21 item 5) from the command line, in process, the owner's connection from libpq's
// PG* variables: it creates a LOGIN role without a password per person of the study file (mapped with --role, tagged by
// the test's database: roles are cluster-wide) and the judge role, turns on row-level security, says what the owner
// does next, and run again after adding an annotator creates only that one's role. Refused: a study file without
// `store postgres`, a --role for someone the file does not name, and a grant by a role that does not own the tables.
// What the roles may then do is test/core/store/postgres/security.test.ts's subject.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import pg from 'pg';
import { scratchDir } from '../helpers.ts';
import { testDatabase } from '../pg/pgCluster.ts';
import { cliInProcess, useDatabaseForCli } from './inProcessCli.ts';

const cli = cliInProcess;

function workspace(storeLine: string, annotators: string): string {
  const root = scratchDir();
  mkdirSync(join(root, 'data'));
  writeStudy(root, storeLine, annotators);
  writeFileSync(join(root, 'data', 'queries.jsonl'), '{"qid": "q1", "query": "medal tables"}\n');
  writeFileSync(
    join(root, 'data', 'corpus.jsonl'),
    '{"_id": "d1", "text": "medals"}\n{"_id": "d2", "text": "rivers"}\n',
  );
  writeFileSync(join(root, 'data', 'run.trec'), 'q1 Q0 d1 1 9.0 bm25\nq1 Q0 d2 2 8.0 bm25\n');
  return root;
}

function writeStudy(root: string, storeLine: string, annotators: string): void {
  writeFileSync(
    join(root, 'wqt.assess'),
    `${storeLine}

study "wqt" {
  queries "data/queries.jsonl" { id: qid  text: query }
  corpus  "data/corpus.jsonl"  { id: _id  body: text }
  pool    "data/run.trec" depth 2
  scale ordinal { 0 "No" key "0"  1 "Yes" key "1" }
  annotators ${annotators}
  adjudicator dana
  blind
}
`,
  );
}

test('store grant: roles created without a password, RLS on, next steps printed; run again adds only the new annotator', async () => {
  const database = await testDatabase();
  useDatabaseForCli(database);
  const role = (name: string) => `${name}_${database.database}`;
  const maps = (...names: string[]) => names.flatMap((name) => ['--role', `${name}=${role(name)}`]);
  const root = workspace('store postgres "team"', 'alice bob');

  const first = await cli(root, 'store', 'grant', 'wqt.assess', ...maps('alice', 'bob', 'dana'));
  assert.equal(first.status, 0, first.stderr);
  assert.equal(
    first.stdout,
    `granted postgres:team (database ${database.database}, schema public):
  ${role('alice')}: alice (created, no password yet)
  ${role('bob')}: bob (created, no password yet)
  ${role('dana')}: dana (adjudicator) (created, no password yet)
  ${database.database}_judge: the LLM judges (created, no password yet)
next:
  set each new role's password in psql as ${database.database}'s owner: \\password ${role('alice')}; \\password ${role('bob')}; \\password ${role('dana')}; \\password ${database.database}_judge
  (or run store grant again with --role NAME=ROLE to map a role that has one)
  each person sets qrelsStudio.stores "team" to this server and database with their role as user,
  and their password with Set Store Password (or PGPASSWORD / ~/.pgpass); qrelsStudio.annotator stays their name
`,
  );
  const client = new pg.Client(database);
  await client.connect();
  try {
    const roles = await client.query(
      'SELECT rolname, rolcanlogin, rolsuper, rolpassword FROM pg_authid WHERE rolname = ANY($1) ORDER BY rolname',
      [[role('alice'), role('bob'), role('dana'), `${database.database}_judge`]],
    );
    assert.equal(roles.rows.length, 4);
    for (const row of roles.rows) {
      assert.deepEqual([row.rolcanlogin, row.rolsuper, row.rolpassword], [true, false, null], row.rolname);
    }
    const secured = await client.query(
      "SELECT relname FROM pg_class WHERE relrowsecurity AND relnamespace = 'public'::regnamespace ORDER BY relname",
    );
    assert.ok(
      ['annotator', 'assignment', 'judgment', 'label_cursor', 'review_verdict', 'suggestion'].every((t) =>
        secured.rows.some((row) => row.relname === t),
      ),
    );

    // Idempotent; a new annotator gets a role, the others are left as they are.
    writeStudy(root, 'store postgres "team"', 'alice bob carol');
    const again = await cli(root, 'store', 'grant', 'wqt.assess', ...maps('alice', 'bob', 'carol', 'dana'));
    assert.equal(again.status, 0, again.stderr);
    assert.match(again.stdout, new RegExp(`  ${role('alice')}: alice\n`));
    assert.match(again.stdout, new RegExp(`  ${role('carol')}: carol \\(created, no password yet\\)\n`));
    assert.match(again.stdout, new RegExp(`\\\\password ${role('carol')}\n`));
    assert.equal((again.stdout.match(/created/g) ?? []).length, 1);
    const mapping = await client.query('SELECT role, duty FROM annotator_role ORDER BY role');
    assert.equal(mapping.rows.length, 5);

    // Refusals.
    const stranger = await cli(root, 'store', 'grant', 'wqt.assess', '--role', 'zed=z');
    assert.equal(stranger.status, 2);
    assert.match(
      stranger.stderr,
      /--role zed=…: 'zed' is no annotator or adjudicator of wqt.assess \(it names alice, bob, carol, dana\)/,
    );
    const reserved = await cli(root, 'store', 'grant', 'wqt.assess', '--role', 'alice=pg_alice');
    assert.equal(reserved.status, 2);
    assert.match(reserved.stderr, /'pg_alice' is reserved by PostgreSQL/);
    process.env.PGUSER = role('alice');
    const notOwner = await cli(root, 'store', 'grant', 'wqt.assess', ...maps('alice', 'bob', 'carol', 'dana'));
    process.env.PGUSER = String(database.user);
    assert.equal(notOwner.status, 1);
    assert.match(
      notOwner.stderr,
      new RegExp(
        `store grant is run by the owner of postgres:team's tables \\(${database.user}\\), not ${role('alice')}`,
      ),
    );
  } finally {
    await client.end();
  }

  const sqlite = workspace('', 'alice');
  const noStore = await cli(sqlite, 'store', 'grant', 'wqt.assess');
  assert.equal(noStore.status, 2);
  assert.match(noStore.stderr, /wqt.assess has no store postgres statement/);
});

test('store --help says how to map roles and set passwords', async () => {
  const help = await cli(scratchDir(), 'store', '--help');
  assert.equal(help.status, 0, help.stderr);
  assert.match(help.stdout, /qrels-studio store grant STUDY\.assess \[--role NAME=ROLE\]… \[--judge-role ROLE\]/);
  assert.match(help.stdout, /--role alice=pg_alice/);
  assert.match(help.stdout, /\\password ROLE/);
});
