// Who may do what, enforced by PostgreSQL (`store grant`, core/store/postgres/grants/): on a cluster of its own that
// asks every role its password (scram-sha-256), a study is seeded by its owner, the owner grants the team's roles,
// and then
// - our own app works as those roles: each annotator's LabelSession (through PostgresStudyStore, logged in as the
//   annotator's role) labels its assigned pairs with `overlap 2`, blind hides others' labels until the pair is
//   labelled, the adjudicator adjudicates, the judge role records judge calls — and the owner's exports and
//   agreement numbers are what the owner computes without any grant;
// - plain `psql` (not our code) as an annotator's role is refused what the UI would never do: writing a label as
//   someone else, an adjudicated label, reading hidden labels in a blind study;
// - in a blind review, verdicts and edits go only under one's own name, and others' verdicts on an item stay hidden
//   until one gives a verdict on it;
// - an LLM judge run (the real SDK against a local server) works as the judge role and is refused to an annotator;
//   so does a Batch API run (submitted and recorded), and psql as an annotator may read batches but not write them.
// Roles exist cluster-wide: their names carry the test database's name.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { agreementDashboard } from '../../../../core/agreement/agreementDashboard.ts';
import { parseStudyFile, resolveStudies } from '../../../../core/dsl/index.ts';
import type { StudyModel } from '../../../../core/dsl/model.ts';
import { createBatchApi } from '../../../../core/judge/batch/batchApi.ts';
import { refreshBatches } from '../../../../core/judge/batch/batchStatus.ts';
import { submitBatches } from '../../../../core/judge/batch/batchSubmit.ts';
import { createChatClient } from '../../../../core/judge/chatClient.ts';
import { judgeStudy } from '../../../../core/judge/judgeStudy.ts';
import { promptTemplate } from '../../../../core/judge/promptTemplate.ts';
import { LabelSession } from '../../../../core/labelling/labelSession.ts';
import { type GrantPlan, grantRoles } from '../../../../core/store/postgres/grants/grantRoles.ts';
import { grantTables } from '../../../../core/store/postgres/grants/grantSql.ts';
import { PostgresStudyStore } from '../../../../core/store/postgres/postgresStudyStore.ts';
import { StoreError } from '../../../../core/store/studyDatabase.ts';
import { scratchDir } from '../../../helpers.ts';
import { type Cluster, postgresBinDir, startCluster } from '../../../pg/pgCluster.ts';
import { startOpenAiBatchServer } from '../../judge/openAiBatchServer.ts';
import { startOpenAiServer } from '../../judge/openAiServer.ts';
import { plainStudy, studyText } from '../../labelling/labellingStudy.ts';
import { seedStudy } from './seedStudy.ts';

let cluster: Cluster;
let records = 0;

before(async () => {
  cluster = await startCluster(scratchDir(), { auth: 'scram-sha-256' });
});
after(() => cluster?.stop());

const team = ['alice', 'bob', 'carol'];
const password = (role: string) => `secret-of-${role}`;

/** A new database owned by the superuser, and the role names of its team (tagged by the database). */
async function record() {
  records += 1;
  const database = `sec_${process.pid}_${records}`;
  const owner = { host: cluster.host, port: cluster.port, user: cluster.user, password: cluster.password! };
  const admin = new pg.Client({ ...owner, database: 'postgres' });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  await admin.end();
  const role = (name: string) => `${name}_${database}`;
  const plan: GrantPlan = {
    people: [
      ...team.map((name) => ({ name, duty: 'annotator' as const, role: role(name) })),
      { name: 'dana', duty: 'adjudicator' as const, role: role('dana') },
    ],
    judgeRole: role('judge'),
  };
  return { database, connection: { ...owner, database }, role, plan };
}

type TestRecord = Awaited<ReturnType<typeof record>>;

/** The owner's store, the study seeded (blind or not), granted, and each role's password set (as `\password` would). */
async function grantedStudy(blind: boolean) {
  const r = await record();
  const owner = await PostgresStudyStore.open({ connection: r.connection });
  const extra = `  annotators ${team.join(' ')}\n  overlap 2\n  adjudicator dana\n${blind ? '  blind\n' : ''}`;
  const seeded = await seedStudy(owner, { ...plainStudy(2, 3), extra });
  const report = await grantRoles(owner.pool, owner.location, r.plan);
  for (const { role } of report.roles) {
    await owner.pool.query(`ALTER ROLE ${pg.escapeIdentifier(role)} PASSWORD '${password(role)}'`);
  }
  return { ...r, owner, report, extra, ...seeded };
}

function openAs(r: TestRecord, role: string): Promise<PostgresStudyStore> {
  return PostgresStudyStore.open({ connection: { ...r.connection, user: role, password: password(role) } });
}

/** Labels every pair of `session`'s queue with `label`. */
async function labelAll(session: LabelSession, label: number): Promise<number[]> {
  const state = session.state();
  const pairs: number[] = [];
  for (let position = 0; position < state.queue.length; position++) {
    const pair = (await session.pairAt(position, state.queue.version, false))!;
    await session.commit({ position, pairId: pair.pairId, label, queueVersion: state.queue.version });
    pairs.push(pair.pairId);
  }
  return pairs;
}

test('grant creates LOGIN roles, maps them, and run again changes nothing', async () => {
  const s = await grantedStudy(false);
  try {
    assert.deepEqual(
      s.report.roles.map((r) => [r.role, r.acts, r.created]),
      [
        [s.role('alice'), ['alice'], true],
        [s.role('bob'), ['bob'], true],
        [s.role('carol'), ['carol'], true],
        [s.role('dana'), ['dana (adjudicator)'], true],
        [s.role('judge'), ['the LLM judges'], true],
      ],
    );
    const again = await grantRoles(s.owner.pool, s.owner.location, s.plan);
    assert.deepEqual(
      again.roles.map((r) => r.created),
      [false, false, false, false, false],
    );
    const mapping = await s.owner.pool.query(
      `SELECT r.role, r.duty, a.name FROM annotator_role AS r LEFT JOIN annotator AS a ON a.id = r.annotator_id
       ORDER BY r.role`,
    );
    assert.equal(mapping.rows.length, 5);
    // Every table of the record is either read as it is or under policies: a table a later migration adds must be
    // put in one of grantSql.ts's lists, or the team's roles could not read it.
    const tables = await s.owner.pool.query<{ name: string }>(
      "SELECT relname AS name FROM pg_class WHERE relnamespace = current_schema()::regnamespace AND relkind = 'r' ORDER BY relname",
    );
    assert.deepEqual(
      tables.rows.map((row) => row.name),
      [...grantTables.readOnly, ...grantTables.secured].sort(),
    );
    const login = await s.owner.pool.query(
      'SELECT rolname, rolcanlogin, rolsuper FROM pg_roles WHERE rolname = ANY($1) ORDER BY rolname',
      [s.report.roles.map((r) => r.role)],
    );
    assert.ok(login.rows.every((row) => row.rolcanlogin && !row.rolsuper));

    // carol mapped to another role: the old one loses its rights on the record, the new one is created.
    const remapped = await grantRoles(s.owner.pool, s.owner.location, {
      ...s.plan,
      people: s.plan.people.map((p) => (p.name === 'carol' ? { ...p, role: s.role('carol2') } : p)),
    });
    assert.deepEqual(remapped.revoked, [s.role('carol')]);
    assert.deepEqual(
      remapped.roles.filter((r) => r.created).map((r) => r.role),
      [s.role('carol2')],
    );
    const old = await openAs(s, s.role('carol')).catch((error: Error) => error);
    assert.match(String(old), /permission denied for table schema_version/);

    // A role that row-level security would not hold (a superuser, BYPASSRLS) is refused, and nothing changes.
    await s.owner.pool.query(`CREATE ROLE ${pg.escapeIdentifier(s.role('root'))} LOGIN BYPASSRLS`);
    await assert.rejects(
      () =>
        grantRoles(s.owner.pool, s.owner.location, {
          ...s.plan,
          people: s.plan.people.map((p) => (p.name === 'alice' ? { ...p, role: s.role('root') } : p)),
        }),
      new RegExp(`role '${s.role('root')}' is a superuser or bypasses row-level security`),
    );
    assert.equal((await s.owner.pool.query('SELECT count(*) FROM annotator_role')).rows[0].count, 5);
  } finally {
    await s.owner.close();
  }
});

test('an owner without CREATEROLE is told to have the roles created and map them; mapped existing roles work', async () => {
  const r = await record();
  const admin = new pg.Client(r.connection);
  await admin.connect();
  const keeper = r.role('keeper');
  try {
    // A record owned by a role that may not create roles (a managed server's usual owner).
    await admin.query(`CREATE ROLE ${keeper} LOGIN PASSWORD '${password(keeper)}'`);
    await admin.query(`ALTER DATABASE ${r.database} OWNER TO ${keeper}`);
    await admin.query(`ALTER SCHEMA public OWNER TO ${keeper}`);
  } finally {
    await admin.end();
  }
  const owner = await openAs(r, keeper);
  try {
    await seedStudy(owner, { ...plainStudy(1, 2), extra: '  annotators alice bob' });
    const plan: GrantPlan = {
      people: ['alice', 'bob'].map((name) => ({ name, duty: 'annotator', role: r.role(name) })),
    };
    await assert.rejects(
      () => grantRoles(owner.pool, owner.location, plan),
      new RegExp(`${keeper} may not create role '${r.role('alice')}' \\(creating roles needs CREATEROLE\\)`),
    );
    // The administrator creates them; the owner maps them (the judge's too).
    const superuser = new pg.Client({ ...r.connection, database: 'postgres' });
    await superuser.connect();
    for (const name of ['alice', 'bob', 'judge']) await superuser.query(`CREATE ROLE ${r.role(name)} LOGIN`);
    await superuser.end();
    const report = await grantRoles(owner.pool, owner.location, { ...plan, judgeRole: r.role('judge') });
    assert.deepEqual(
      report.roles.map((role) => [role.role, role.created]),
      [
        [r.role('alice'), false],
        [r.role('bob'), false],
        [r.role('judge'), false],
      ],
    );
  } finally {
    await owner.close();
  }
});

test('the app as the roles: overlap-2 sessions, blind hides others, adjudication, judge calls; owner numbers unchanged', async () => {
  const s = await grantedStudy(true);
  const opened: PostgresStudyStore[] = [];
  try {
    const studyFile = join(scratchDir(), 's.assess');
    const stores = new Map<string, PostgresStudyStore>();
    for (const name of [...team, 'dana']) {
      const store = await openAs(s, s.role(name));
      opened.push(store);
      stores.set(name, store);
    }
    // Each window syncs its study file first, as the extension does: a team role's sync writes nothing (the study's
    // definition is the owner's) and answers as a sync does.
    const model = resolveStudies(parseStudyFile(studyText({ extra: s.extra })), studyFile);
    assert.deepEqual(await stores.get('bob')!.studies.sync(model), { studies: ['s'], addedScaleValues: {} });
    const renamed = { ...model, studies: [{ ...model.studies[0]!, name: 'other' }] };
    await assert.rejects(
      () => stores.get('bob')!.studies.sync(renamed),
      /'other' is not in postgres:.* yet, and bob_sec_\d+_\d+ may not add it/,
    );
    const sessions = new Map<string, LabelSession>();
    for (const name of team) {
      sessions.set(name, await LabelSession.open(stores.get(name)!, { studyFile, study: s.study, annotator: name }));
    }
    // Overlap 2 of 3 on 6 pairs: each annotator gets 4, whoever's session assigned them (alice's, the first).
    for (const name of team) assert.deepEqual(sessions.get(name)!.state().progress, { assigned: 4, judged: 0 });
    const assignments = await s.owner.pool.query(
      'SELECT pair_id, count(*)::integer AS n FROM assignment GROUP BY pair_id',
    );
    assert.equal(assignments.rows.length, 6);
    assert.ok(assignments.rows.every((row) => row.n === 2));

    // alice labels all hers; bob, before labelling, sees none of alice's labels (blind), then sees them on the
    // pairs he has labelled.
    const alicePairs = await labelAll(sessions.get('alice')!, 2);
    const bob = sessions.get('bob')!;
    const shared = (
      await s.owner.pool.query(
        `SELECT a.pair_id FROM assignment AS a JOIN annotator AS n ON n.id = a.annotator_id
       WHERE n.name = 'bob' AND a.pair_id = ANY($1) ORDER BY a.pair_id`,
        [alicePairs],
      )
    ).rows.map((row) => row.pair_id as number);
    assert.ok(shared.length > 0);
    const bobStore = stores.get('bob')!;
    const hidden = await bobStore.labels.pairRecord(
      s.studyId,
      await bobStore.studies.ensureAnnotator('bob'),
      shared[0]!,
    );
    assert.deepEqual(hidden.others, [], 'blind: alice’s label is not readable by bob before he labels the pair');
    const bobLabels = await bobStore.exports.currentLabels('s');
    assert.ok(
      bobLabels.every((row) => row.annotator === 'bob'),
      'bob reads no label of the others yet',
    );
    await labelAll(bob, 1);
    const seen = await bobStore.labels.pairRecord(s.studyId, await bobStore.studies.ensureAnnotator('bob'), shared[0]!);
    assert.deepEqual(
      seen.others.map((o) => [o.annotator, o.label]),
      [['alice', 2]],
    );
    await labelAll(sessions.get('carol')!, 0);
    // The name a client sends is not what the database trusts: bob's role with the setting saying 'carol' opens her
    // queue but stores nothing under her name.
    const impostor = await LabelSession.open(bobStore, { studyFile, study: s.study, annotator: 'carol' });
    const queue = impostor.state().queue;
    const target = (await impostor.pairAt(0, queue.version, false))!;
    await assert.rejects(
      () => impostor.commit({ position: 0, pairId: target.pairId, label: 2, queueVersion: queue.version }),
      (error: Error) => {
        // A user-fixable refusal (shown by the Label view as it is, never retried), in PostgreSQL's own words.
        assert.ok(error instanceof StoreError, `expected a StoreError, found ${error.name}: ${error.message}`);
        assert.match(error.message, /new row violates row-level security policy for table "judgment"/);
        assert.match(error.message, /refused this for the database role .*nothing was saved/);
        return true;
      },
    );

    // The adjudicator sees everyone and adjudicates.
    const dana = await LabelSession.open(stores.get('dana')!, { studyFile, study: s.study, annotator: 'dana' });
    const disputed = await dana.adjudicate([shared[0]!], 'alice ↔ bob');
    const pair = (await dana.pairAt(0, disputed.queue.version, true))!;
    assert.deepEqual(pair.others.map((o) => o.annotator).sort(), ['alice', 'bob']);
    await dana.commit({
      position: 0,
      pairId: pair.pairId,
      label: 1,
      note: 'bob is right',
      queueVersion: disputed.queue.version,
    });

    // The judge role records a call and its suggestion.
    const judgeStore = await openAs(s, s.role('judge'));
    opened.push(judgeStore);
    const judgeName = 'llm:judge-a@0123abcd';
    await judgeStore.judge.judgeAnnotator(judgeName);
    await judgeStore.judge.recordCall(
      {
        cacheKey: 'k1',
        request: {
          endpoint: 'http://127.0.0.1:1/v1',
          model: 'judge-a',
          parameters: '{"temperature":0}',
          promptHash: 'ph',
          voteIndex: 0,
        },
        promptTemplateHash: 'th',
        studyId: s.studyId,
        pairId: shared[0]!,
        judge: judgeName,
        rawOutput: '{"label": 1}',
        parsedLabel: 1,
        attempts: 1,
        createdAt: '2026-03-04T05:06:00.000Z',
      },
      {
        pairId: shared[0]!,
        judge: judgeName,
        label: 1,
        callId: null,
        votes: [{ voteIndex: 0, callId: null, label: 1 }],
        createdAt: '2026-03-04T05:06:00.000Z',
      },
    );
    assert.equal((await s.owner.judge.calls(s.studyId)).length, 1);

    // Every label the sessions committed is in the owner's export, once (the next test compares every number).
    const labels = await s.owner.exports.currentLabels('s');
    assert.equal(labels.filter((row) => row.annotator !== 'dana').length, 12);
    assert.equal((await s.owner.agreement.adjudicatedLabels(s.studyId)).length, 1);
  } finally {
    for (const store of opened) await store.close();
    await s.owner.close();
  }
});

/** What the owner reads of a record: the exports and the agreement numbers. */
async function ownerNumbers(store: PostgresStudyStore, studyId: number, study: StudyModel) {
  return {
    labelFile: await store.exports.labelFileRows(studyId, { answers: true }),
    history: await store.exports.judgmentHistory(studyId, { answers: true }),
    current: await store.exports.currentLabels('s'),
    rows: await store.agreement.studyLabelRows(studyId),
    majority: await store.agreement.majorityLabels(studyId),
    adjudicated: await store.agreement.adjudicatedLabels(studyId),
    dashboard: await agreementDashboard(store, studyId, study, { bootstrap: 0 }),
  };
}

/** The same labelling, in the same order, on the same clock: each annotator's session labels their queue. */
async function labelTeam(open: (name: string) => Promise<PostgresStudyStore>, study: StudyModel, pairOf: number) {
  let now = Date.parse('2026-05-01T12:00:00.000Z');
  const clock = () => {
    now += 1000;
    return new Date(now);
  };
  const studyFile = join(scratchDir(), 's.assess');
  const labelsOf: Record<string, number[]> = { alice: [2, 1, 0, 2], bob: [1, 1, 2, 0], carol: [0, 2, 2, 1] };
  for (const name of team) {
    const session = await LabelSession.open(await open(name), { studyFile, study, annotator: name, now: clock });
    const state = session.state();
    for (const [position, label] of labelsOf[name]!.entries()) {
      const pair = (await session.pairAt(position, state.queue.version, false))!;
      const note = position === 1 ? `${name}'s note` : undefined;
      await session.commit({
        position,
        pairId: pair.pairId,
        label,
        queueVersion: state.queue.version,
        ...(note && { note }),
      });
    }
    if (name === 'bob') await session.undo();
  }
  const dana = await LabelSession.open(await open('dana'), { studyFile, study, annotator: 'dana', now: clock });
  const queue = await dana.adjudicate([pairOf], 'a disagreement');
  await dana.commit({ position: 0, pairId: pairOf, label: 1, note: 'settled', queueVersion: queue.queue.version });
}

test("the owner's exports and agreement numbers: labelled through the roles = labelled without any grant; a grant changes none", async () => {
  for (const blind of [true, false]) {
    const granted = await grantedStudy(blind);
    const twin = await record();
    const twinOwner = await PostgresStudyStore.open({ connection: twin.connection });
    const opened: PostgresStudyStore[] = [];
    try {
      const seeded = await seedStudy(twinOwner, { ...plainStudy(2, 3), extra: granted.extra });
      const firstPair = (await granted.owner.pool.query('SELECT min(id) AS id FROM pair')).rows[0].id as number;
      await labelTeam(
        async (name) => {
          const store = await openAs(granted, granted.role(name));
          opened.push(store);
          return store;
        },
        granted.study,
        firstPair,
      );
      await labelTeam(async () => twinOwner, seeded.study, firstPair);
      const viaRoles = await ownerNumbers(granted.owner, granted.studyId, granted.study);
      const withoutGrant = await ownerNumbers(twinOwner, seeded.studyId, seeded.study);
      assert.ok(viaRoles.history.length >= 12, 'labels were written');
      assert.deepEqual(viaRoles, withoutGrant, `blind ${blind}`);
      // Granting the twin afterwards changes none of its owner's numbers.
      await grantRoles(twinOwner.pool, twinOwner.location, twin.plan);
      assert.deepEqual(await ownerNumbers(twinOwner, seeded.studyId, seeded.study), withoutGrant);
    } finally {
      for (const store of opened) await store.close();
      await twinOwner.close();
      await granted.owner.close();
    }
  }
});

/** Runs `sql` through plain `psql` (not our code) logged in as `role` with its password; what psql printed. */
function psql(r: TestRecord, role: string, sql: string, secret = password(role)) {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('PG')) env[key] = value;
  Object.assign(env, {
    PGHOST: cluster.host,
    PGPORT: String(cluster.port),
    PGUSER: role,
    PGPASSWORD: secret,
    PGDATABASE: r.database,
  });
  const result = spawnSync(
    join(postgresBinDir()!, 'psql'),
    ['-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-c', sql],
    {
      env,
      encoding: 'utf8',
    },
  );
  return { status: result.status, out: result.stdout.trim(), err: result.stderr.trim() };
}

test('psql as an annotator: writing as someone else, an adjudicated label, reading hidden labels — refused by PostgreSQL', async () => {
  const s = await grantedStudy(true);
  const opened: PostgresStudyStore[] = [];
  try {
    const studyFile = join(scratchDir(), 's.assess');
    const aliceStore = await openAs(s, s.role('alice'));
    opened.push(aliceStore);
    const alice = await LabelSession.open(aliceStore, { studyFile, study: s.study, annotator: 'alice' });
    const alicePairs = await labelAll(alice, 2);
    const id = async (name: string) =>
      (await s.owner.pool.query('SELECT id FROM annotator WHERE name = $1', [name])).rows[0].id as number;
    const aliceId = await id('alice');
    const bobId = await id('bob');
    const carolId = await id('carol');
    const assignedTo = async (annotator: number) =>
      (
        await s.owner.pool.query('SELECT pair_id FROM assignment WHERE annotator_id = $1 ORDER BY pair_id', [annotator])
      ).rows.map((row) => row.pair_id as number);
    const bobPair = (await assignedTo(bobId)).find((p) => alicePairs.includes(p))!;
    const carolShared = (await assignedTo(carolId)).filter((p) => alicePairs.includes(p));
    assert.ok(bobPair !== undefined && carolShared.length > 0);
    const bob = s.role('bob');
    const carol = s.role('carol');
    const at = "'2026-05-01T12:00:00.000Z'";

    // Control: bob may store his own label on his pair (what the Label view does), from psql too.
    assert.deepEqual(
      psql(
        s,
        bob,
        `INSERT INTO judgment (pair_id, annotator_id, label, created_at, source) VALUES (${bobPair}, ${bobId}, 1, ${at}, 'manual')`,
      ),
      { status: 0, out: '', err: '' },
    );

    // Writing as someone else: a label under alice's name, changing or removing alice's label.
    const asAlice = psql(
      s,
      bob,
      `INSERT INTO judgment (pair_id, annotator_id, label, created_at, source) VALUES (${bobPair}, ${aliceId}, 0, ${at}, 'manual')`,
    );
    assert.equal(asAlice.status, 1);
    assert.match(asAlice.err, /ERROR: {2}new row violates row-level security policy for table "judgment"/);
    const update = psql(s, bob, `UPDATE judgment SET label = 0 WHERE annotator_id = ${aliceId}`);
    assert.match(update.err, /ERROR: {2}permission denied for table judgment/);
    const remove = psql(s, bob, `DELETE FROM judgment WHERE annotator_id = ${aliceId}`);
    assert.match(remove.err, /ERROR: {2}permission denied for table judgment/);
    const undo = psql(
      s,
      bob,
      `INSERT INTO judgment_retraction (judgment_id, retracted_at) SELECT id, ${at} FROM judgment WHERE annotator_id = ${aliceId}`,
    );
    // bob labelled the pair alice labelled, so he sees her label of it (blind) — and may not retract it (undo).
    assert.match(undo.err, /new row violates row-level security policy for table "judgment_retraction"/);
    const cursor = psql(
      s,
      bob,
      `INSERT INTO label_cursor (study_id, annotator_id, queue_order, unlabelled_only, pair_id, updated_at)
       VALUES (${s.studyId}, ${aliceId}, 'query', 0, NULL, ${at})`,
    );
    assert.match(cursor.err, /new row violates row-level security policy for table "label_cursor"/);

    // A pair not assigned to bob (the Label view shows him only his own), and an assignment of a pair already
    // handed out.
    const notBobs = (
      await s.owner.pool.query(
        'SELECT min(id) AS id FROM pair WHERE id NOT IN (SELECT pair_id FROM assignment WHERE annotator_id = $1)',
        [bobId],
      )
    ).rows[0].id as number;
    const unassigned = psql(
      s,
      bob,
      `INSERT INTO judgment (pair_id, annotator_id, label, created_at, source) VALUES (${notBobs}, ${bobId}, 1, ${at}, 'manual')`,
    );
    assert.match(unassigned.err, /ERROR: {2}new row violates row-level security policy for table "judgment"/);
    const grab = psql(
      s,
      bob,
      `INSERT INTO assignment (pair_id, annotator_id, assigned_at) VALUES (${notBobs}, ${bobId}, ${at})`,
    );
    assert.match(grab.err, /ERROR: {2}new row violates row-level security policy for table "assignment"/);

    // An adjudicated label, by an annotator (under their own name).
    const adjudicated = psql(
      s,
      bob,
      `INSERT INTO judgment (pair_id, annotator_id, label, created_at, source, rationale)
       VALUES (${bobPair}, ${bobId}, 2, '2026-05-01T12:00:01.000Z', 'adjudicated', 'I decide')`,
    );
    assert.match(adjudicated.err, /ERROR: {2}new row violates row-level security policy for table "judgment"/);

    // Reading hidden labels in a blind study: carol has labelled nothing, and sees none of alice's labels (nor the
    // current_judgment view's) though the owner sees them; once she labels a pair she shares with alice, she sees
    // alice's label of that pair only.
    const aliceCount = `SELECT count(*) FROM judgment WHERE annotator_id = ${aliceId}`;
    assert.equal(psql(s, carol, aliceCount).out, '0');
    assert.equal(psql(s, carol, `SELECT count(*) FROM current_judgment WHERE annotator_id = ${aliceId}`).out, '0');
    assert.equal(psql(s, carol, 'SELECT count(*) FROM judgment').out, '0');
    const owners = (await s.owner.pool.query(aliceCount)).rows[0].count;
    assert.equal(owners, alicePairs.length);
    assert.equal(
      psql(
        s,
        carol,
        `INSERT INTO judgment (pair_id, annotator_id, label, created_at, source) VALUES (${carolShared[0]}, ${carolId}, 0, ${at}, 'manual')`,
      ).status,
      0,
    );
    assert.equal(
      psql(s, carol, `SELECT pair_id, label FROM judgment WHERE annotator_id = ${aliceId}`).out,
      `${carolShared[0]}|2`,
    );

    // The functions the policies call answer nothing about another role when called directly.
    assert.equal(psql(s, carol, `SELECT qrels_labelled_by(${alicePairs[0]}, '${s.role('alice')}')`).out, 'f');
    assert.equal(psql(s, bob, `SELECT qrels_labelled_by(${bobPair}, '${bob}')`).out, 't');

    // A record that holds a blind study and one that is not: the open study's labels are readable, the blind one's
    // still only where carol labelled.
    const open = await s.owner.pool.query<{ id: number }>(
      `WITH study AS (INSERT INTO study (name, kind, model, synced_at) VALUES ('open', 'study', '{"blind":false}', ${at})
                      RETURNING id)
       INSERT INTO pair (study_id, qid, docid) SELECT id, 'q1', 'd1-1' FROM study RETURNING id`,
    );
    const openPair = open.rows[0]!.id;
    await s.owner.pool.query(
      `INSERT INTO judgment (pair_id, annotator_id, label, created_at, source) VALUES ($1, $2, 1, ${at}, 'manual')`,
      [openPair, aliceId],
    );
    assert.equal(
      psql(s, carol, `SELECT pair_id, label FROM judgment WHERE annotator_id = ${aliceId} ORDER BY pair_id`).out,
      `${carolShared[0]}|2\n${openPair}|1`,
    );

    // The judge's part, the mapping and the policies themselves are out of an annotator's reach.
    const call = psql(
      s,
      bob,
      `INSERT INTO llm_call (cache_key, endpoint, model, parameters, prompt_hash, raw_output, created_at)
       VALUES ('k', 'e', 'm', '{}', 'h', 'out', ${at})`,
    );
    assert.match(call.err, /ERROR: {2}permission denied for table llm_call/);
    const stranger = psql(s, bob, "INSERT INTO annotator (name, kind) VALUES ('mallory', 'human')");
    assert.match(stranger.err, /new row violates row-level security policy for table "annotator"/);
    const importing = psql(s, bob, "INSERT INTO query (study_id, qid, text, source) VALUES (1, 'q9', 'x', 'psql')");
    assert.match(importing.err, /ERROR: {2}permission denied for table query/);
    const remap = psql(s, bob, `UPDATE annotator_role SET role = '${bob}' WHERE duty = 'adjudicator'`);
    assert.match(remap.err, /permission denied for table annotator_role/);
    const disable = psql(s, bob, 'ALTER TABLE judgment DISABLE ROW LEVEL SECURITY');
    assert.match(disable.err, /must be owner of table judgment/);
    const wrong = psql(s, bob, 'SELECT 1', 'not-the-password');
    assert.match(wrong.err, /password authentication failed for user/);
  } finally {
    for (const store of opened) await store.close();
    await s.owner.close();
  }
});

test("a blind review as the roles: verdicts and edits only under one's own name; others' verdicts hidden until one gives one", async () => {
  const r = await record();
  const owner = await PostgresStudyStore.open({ connection: r.connection });
  const opened: PostgresStudyStore[] = [];
  try {
    const at = '2026-01-01T00:00:00.000Z';
    await owner.studies.sync(
      resolveStudies(
        parseStudyFile(
          `review "gen" {\n  items "items.jsonl" { id: iid  text: text }\n  annotators alice bob\n  blind\n}\n`,
        ),
      ),
    );
    await owner.reviews.importItems(
      'gen',
      [
        { id: 'i1', text: 'Find medal tables.' },
        { id: 'i2', text: 'Find rivers.' },
      ],
      undefined,
      at,
    );
    const plan: GrantPlan = {
      people: ['alice', 'bob'].map((name) => ({ name, duty: 'annotator', role: r.role(name) })),
    };
    const report = await grantRoles(owner.pool, owner.location, plan);
    for (const { role } of report.roles) {
      await owner.pool.query(`ALTER ROLE ${pg.escapeIdentifier(role)} PASSWORD '${password(role)}'`);
    }
    const alice = await openAs(r, r.role('alice'));
    const bob = await openAs(r, r.role('bob'));
    opened.push(alice, bob);
    const [i1, i2] = await alice.reviews.records('gen');
    await alice.reviews.recordVerdicts(
      'gen',
      [
        {
          item: i1!.item.id,
          versionId: i1!.versions[0]!.id,
          reviewer: 'alice',
          verdict: 'edit',
          rubric: {},
          reason: 'vague',
          text: 'Find Olympic medal tables.',
          root: i1!.versions[0]!.id,
        },
        {
          item: i2!.item.id,
          versionId: i2!.versions[0]!.id,
          reviewer: 'alice',
          verdict: 'reject',
          rubric: {},
          reason: null,
        },
      ],
      at,
    );
    // Through our own code, as bob: alice's verdicts are hidden until bob gives one on the item; his is stored.
    const verdictsOf = async (store: PostgresStudyStore) =>
      (await store.reviews.records('gen')).map((item) => item.verdicts.map((v) => `${v.annotator}:${v.verdict}`));
    assert.deepEqual(await verdictsOf(bob), [[], []]);
    await assert.rejects(
      () =>
        bob.reviews.recordVerdicts(
          'gen',
          [
            {
              item: i2!.item.id,
              versionId: i2!.versions[0]!.id,
              reviewer: 'alice',
              verdict: 'accept',
              rubric: {},
              reason: null,
            },
          ],
          at,
        ),
      /new row violates row-level security policy for table "review_verdict"/,
    );
    await bob.reviews.recordVerdicts(
      'gen',
      [
        {
          item: i2!.item.id,
          versionId: i2!.versions[0]!.id,
          reviewer: 'bob',
          verdict: 'accept',
          rubric: {},
          reason: null,
        },
      ],
      at,
    );
    assert.deepEqual(await verdictsOf(bob), [[], ['alice:reject', 'bob:accept']]);
    assert.deepEqual(await verdictsOf(owner), [['alice:edit'], ['alice:reject', 'bob:accept']]);
    // The review critic's verdict: the judge role's to write, not an annotator's.
    const critic = {
      item: i1!.item.id,
      versionId: i1!.versions[0]!.id,
      reviewer: 'llm:critic@0123abcd',
      verdict: 'accept',
      rubric: {},
      reason: null,
    };
    await assert.rejects(
      () => bob.reviews.recordCriticVerdict('gen', critic, at),
      /new row violates row-level security policy for table "annotator"/,
    );
    const judge = await openAs(r, `${r.database}_judge`);
    opened.push(judge);
    await judge.reviews.recordCriticVerdict('gen', critic, at);
    assert.deepEqual(await verdictsOf(owner), [
      ['alice:edit', 'llm:critic@0123abcd:accept'],
      ['alice:reject', 'bob:accept'],
    ]);
    await assert.rejects(
      () =>
        bob.reviews.recordCriticVerdict('gen', { ...critic, versionId: i2!.versions[0]!.id, item: i2!.item.id }, at),
      /new row violates row-level security policy for table "review_verdict"/,
    );

    // Through psql, as bob: a verdict or an edit under alice's name is refused.
    const aliceId = (await owner.pool.query("SELECT id FROM annotator WHERE name = 'alice'")).rows[0].id;
    const verdict = psql(
      r,
      r.role('bob'),
      `INSERT INTO review_verdict (version_id, annotator_id, verdict, created_at)
       VALUES (${i1!.versions[0]!.id}, ${aliceId}, 'accept', '2026-01-02T00:00:00.000Z')`,
    );
    assert.match(verdict.err, /ERROR: {2}new row violates row-level security policy for table "review_verdict"/);
    const edit = psql(
      r,
      r.role('bob'),
      `INSERT INTO review_item_version (item_id, text, author, created_at)
       VALUES (${i1!.item.id}, 'Find nothing.', 'alice', '2026-01-02T00:00:00.000Z')`,
    );
    assert.match(edit.err, /ERROR: {2}new row violates row-level security policy for table "review_item_version"/);
    assert.equal(psql(r, r.role('bob'), 'SELECT count(*) FROM review_verdict').out, '2');
  } finally {
    for (const store of opened) await store.close();
    await owner.close();
  }
});

test('an LLM judge run (the real SDK, a local server) as the judge role; an annotator may not run it; blind hides its suggestions', async (t) => {
  const r = await record();
  const owner = await PostgresStudyStore.open({ connection: r.connection });
  const opened: PostgresStudyStore[] = [owner];
  t.after(async () => {
    for (const store of opened) await store.close();
  });
  const { study, studyId } = await seedStudy(owner, {
    ...plainStudy(1, 2),
    extra: '  annotators alice bob\n  blind\n  judge "judge-p" { votes 1  seed 1 }',
  });
  const report = await grantRoles(owner.pool, owner.location, {
    people: ['alice', 'bob'].map((name) => ({ name, duty: 'annotator', role: r.role(name) })),
  });
  for (const { role } of report.roles) {
    await owner.pool.query(`ALTER ROLE ${pg.escapeIdentifier(role)} PASSWORD '${password(role)}'`);
  }
  const server = await startOpenAiServer({
    respond: () => ({ content: JSON.stringify({ rationale: 'looks right', label: 1 }) }),
  });
  t.after(() => server.close());
  const options = {
    concurrency: 2,
    client: createChatClient({ baseURL: server.baseURL, apiKey: 'sk-test', maxAttempts: 1 }),
    prompt: {
      ...promptTemplate('prompts/judge.md', 'Query: {{query}}\nDocument: {{document}}\n{{scale}}\n'),
      output: 'label' as const,
    },
    prices: {},
  };
  const alice = await openAs(r, r.role('alice'));
  opened.push(alice);
  await assert.rejects(() => judgeStudy(alice, study, options), /row-level security policy|permission denied/);
  assert.equal((await owner.judge.calls(studyId)).length, 0, 'nothing of the refused run was stored');

  const judge = await openAs(r, `${r.database}_judge`);
  opened.push(judge);
  const run = await judgeStudy(judge, study, options);
  assert.deepEqual([run.requests, run.failures, run.suggestions], [2, 0, 2]);
  assert.equal((await owner.judge.suggestions(studyId, run.judge)).length, 2);

  // Blind: alice sees the judge's suggestion of a pair only once she has labelled it.
  const session = await LabelSession.open(alice, {
    studyFile: join(scratchDir(), 's.assess'),
    study,
    annotator: 'alice',
  });
  const version = session.state().queue.version;
  const before = (await session.pairAt(0, version, false))!;
  assert.deepEqual(before.suggestions, []);
  await session.commit({ position: 0, pairId: before.pairId, label: 2, queueVersion: version });
  const after = (await session.pairAt(0, version, false))!;
  assert.deepEqual(
    after.suggestions.map((suggestion) => [suggestion.judge, suggestion.label]),
    [[run.judge, 1]],
  );
  // Enforced by the database, not only the session: through psql, alice reads the suggestion, its vote and its call
  // of the pair she labelled only; bob, who labelled nothing, none.
  for (const table of ['suggestion', 'suggestion_vote', 'llm_call']) {
    assert.equal(psql(r, r.role('alice'), `SELECT count(*) FROM ${table}`).out, '1', table);
    assert.equal(psql(r, r.role('bob'), `SELECT count(*) FROM ${table}`).out, '0', table);
    assert.equal((await owner.pool.query(`SELECT count(*) FROM ${table}`)).rows[0].count, 2, table);
  }
});

test('a Batch API run (the real SDK, a local server) as the judge role: submitted and recorded; an annotator may not submit, nor write a batch through psql', async (t) => {
  const r = await record();
  const owner = await PostgresStudyStore.open({ connection: r.connection });
  const opened: PostgresStudyStore[] = [owner];
  t.after(async () => {
    for (const store of opened) await store.close();
  });
  const { study, studyId } = await seedStudy(owner, {
    ...plainStudy(1, 2),
    extra: '  annotators alice\n  judge "judge-b" { votes 2  seed 1 }',
  });
  const report = await grantRoles(owner.pool, owner.location, {
    people: [{ name: 'alice', duty: 'annotator', role: r.role('alice') }],
  });
  for (const { role } of report.roles) {
    await owner.pool.query(`ALTER ROLE ${pg.escapeIdentifier(role)} PASSWORD '${password(role)}'`);
  }
  const server = await startOpenAiBatchServer({
    progress: 'manual',
    respondLine: () => ({ content: JSON.stringify({ rationale: 'looks right', label: 1 }) }),
  });
  t.after(() => server.close());
  const options = {
    prompt: {
      ...promptTemplate('prompts/judge.md', 'Query: {{query}}\nDocument: {{document}}\n{{scale}}\n'),
      output: 'label' as const,
    },
    api: createBatchApi({ baseURL: server.baseURL, apiKey: 'sk-test' }),
    folder: join(scratchDir(), 'batches'),
    prices: {},
  };

  // An annotator's submit is refused when it records the batch, before anything is uploaded.
  const alice = await openAs(r, r.role('alice'));
  opened.push(alice);
  await assert.rejects(() => submitBatches(alice, study, options), /row-level security policy|permission denied/);
  assert.equal(server.routeCounts().get('files.create') ?? 0, 0, 'nothing uploaded for the refused submit');
  assert.equal((await owner.judgeBatches.batches(studyId)).length, 0);

  const judge = await openAs(r, `${r.database}_judge`);
  opened.push(judge);
  const submitted = await submitBatches(judge, study, options);
  assert.equal(submitted.votes, 4);
  assert.equal(submitted.batches.length, 1);
  for (const batch of server.batches()) await server.finish(batch.id);
  const status = await refreshBatches(judge, study, options);
  assert.equal(status.open, 0);
  assert.equal(status.batches[0]!.recordedNow!.recorded, 4);
  assert.equal(status.batches[0]!.recordedNow!.suggestions, 2);
  const [batch] = await owner.judgeBatches.batches(studyId);
  assert.equal(batch!.recorded, 4);
  assert.notEqual(batch!.recordedAt, null);
  assert.equal((await owner.judge.calls(studyId)).length, 4);
  assert.equal((await owner.judge.suggestions(studyId, submitted.judge)).length, 2);

  // Through psql, alice reads the batches but may not write one, change one, or link a request to a call.
  const aliceRole = r.role('alice');
  assert.equal(psql(r, aliceRole, 'SELECT count(*) FROM judge_batch').out, '1');
  const insert = psql(
    r,
    aliceRole,
    `INSERT INTO judge_batch (batch_key, study_id, judge, endpoint, model, prompt_template_hash, input_sha256,
       input_bytes, request_count, status, created_at)
     VALUES ('mine', ${studyId}, 'llm:x', 'e', 'm', 'h', 's', 0, 0, 'prepared', 'now')`,
  );
  assert.match(insert.err, /ERROR: {2}permission denied for table judge_batch/);
  const update = psql(r, aliceRole, "UPDATE judge_batch SET status = 'cancelled'");
  assert.match(update.err, /ERROR: {2}permission denied for table judge_batch/);
  const unlink = psql(r, aliceRole, 'UPDATE judge_batch_request SET llm_call_id = NULL');
  assert.match(unlink.err, /ERROR: {2}permission denied for table judge_batch_request/);
  assert.equal((await owner.pool.query('SELECT count(*) FROM judge_batch')).rows[0].count, 1);
});
