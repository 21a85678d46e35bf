// The studies port answers the same from both adapters (test/storeKinds.ts): sync reports and refusals, study ids
// and the error naming the known studies, the one annotator rule, and the counts and samples read about a study.
// Then PostgreSQL's change notifications: another process's commit reaches onChange through LISTEN/NOTIFY, also after
// the listening connection was killed.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { parseStudyFile, resolveStudies } from '../../../../core/dsl/index.ts';
import { PostgresStudyStore } from '../../../../core/store/postgres/postgresStudyStore.ts';
import type { SqliteStudyStore } from '../../../../core/store/sqlite/sqliteStudyStore.ts';
import { locateNativeBinding, openDatabase } from '../../../../core/store/sqliteDatabase.ts';
import type { StoreChange, StudyStore } from '../../../../core/store/studyStore.ts';
import { nativeDir } from '../../../helpers.ts';
import { testDatabase } from '../../../pg/pgCluster.ts';
import { openTestStore, type StoreKind, storeKinds } from '../../../storeKinds.ts';

const open: StudyStore[] = [];
after(async () => {
  await Promise.all(open.map((store) => store.close()));
});

async function fresh(kind: StoreKind): Promise<SqliteStudyStore | PostgresStudyStore> {
  const store = await openTestStore(kind);
  open.push(store);
  return store;
}

/** Runs the same SQL (no parameters) on either adapter's connection: test data beneath the port. */
async function exec(store: SqliteStudyStore | PostgresStudyStore, sql: string): Promise<void> {
  if ('pool' in store) await store.pool.query(sql);
  else {
    // A second connection to the same file: the adapter's own is private.
    const db = openDatabase(store.location, { nativeBinding: locateNativeBinding(nativeDir) });
    try {
      db.exec(sql);
    } finally {
      db.close();
    }
  }
}

const model = (scale: string, extra = '') =>
  resolveStudies(
    parseStudyFile(`study "beta" {
  queries "q.jsonl" { id: qid  text: query }
  corpus  "c.jsonl" { id: docid  body: text }
  scale ordinal { ${scale} }
}
study "alpha" {
  queries "q.jsonl" { id: qid  text: query }
  corpus  "c.jsonl" { id: docid  body: text }
  scale ordinal { 0 "No" key "0"  1 "Yes" key "1" }
}
${extra}`),
  );

/** What each step answered, with the store's location replaced, so that both adapters' can be compared. */
async function outcome<T>(store: StudyStore, step: () => Promise<T>): Promise<unknown> {
  try {
    return { value: await step() };
  } catch (error) {
    return {
      error: (error as Error).constructor.name,
      message: (error as Error).message.replaceAll(store.location, '<location>'),
    };
  }
}

async function studiesScript(store: SqliteStudyStore | PostgresStudyStore): Promise<unknown[]> {
  const now = new Date('2026-11-25T10:00:00.000Z');
  const seen: unknown[] = [];
  seen.push(await outcome(store, () => store.studies.studyId('alpha')));
  seen.push(await outcome(store, () => store.studies.sync(model('0 "No" key "0"  1 "Partly" key "1"'), now)));
  seen.push(
    await outcome(store, () => store.studies.sync(model('0 "No" key "0"  1 "Partly" key "1"  2 "Yes" key "2"'), now)),
  );
  seen.push(await outcome(store, () => store.studies.studyId('beta')));
  seen.push(await outcome(store, () => store.studies.studyId('alpha')));
  seen.push(await outcome(store, () => store.studies.studyId('gamma')));
  seen.push(await outcome(store, () => store.studies.hasImported('beta')));
  seen.push(await outcome(store, () => store.studies.hasImported('nowhere')));
  // The annotator rule.
  seen.push(await outcome(store, () => store.studies.ensureAnnotator('alice')));
  seen.push(await outcome(store, () => store.studies.ensureAnnotator('llm:gpt@12345678')));
  seen.push(await outcome(store, () => store.studies.ensureAnnotator('alice')));
  seen.push(await outcome(store, () => store.studies.ensureAnnotator('alice', 'llm')));
  seen.push(await outcome(store, () => store.studies.ensureAnnotator('llm:gpt@12345678', 'human')));
  seen.push(await outcome(store, () => store.studies.ensureAnnotator('bot', 'llm')));
  seen.push(await outcome(store, () => store.studies.ensureAnnotator('bob')));
  // Pairs, documents, judgments, a retraction, assignments and a suggestion, beneath the port.
  await exec(
    store,
    `INSERT INTO query (study_id, qid, text, source) VALUES (1, 'q2', 'two', 'q.jsonl'), (1, 'q10', 'ten', 'q.jsonl'),
       (1, 'Q1', 'one', 'q.jsonl'), (1, 'é', 'accent', 'q.jsonl');
     INSERT INTO document (study_id, docid, body, format, source) VALUES (1, 'd1', 'body one', 'plain', 'c.jsonl'),
       (1, 'd2', '# two', 'markdown', 'c.jsonl'), (1, 'd3', 'three', 'plain', 'c.jsonl'), (2, 'x', 'x', 'plain', 'c');
     INSERT INTO pair (study_id, qid, docid, best_rank) VALUES (1, 'q2', 'd2', 1), (1, 'q2', 'd1', 2), (1, 'q10', 'd2', 1),
       (1, 'Q1', 'd3', NULL);
     INSERT INTO judgment (pair_id, annotator_id, label, created_at, source) VALUES
       (1, 4, 1, '2026-11-25T10:00:01.000Z', 'manual'), (1, 1, 2, '2026-11-25T10:00:02.000Z', 'manual'),
       (1, 1, 1, '2026-11-25T10:00:03.000Z', 'manual'), (2, 1, 0, '2026-11-25T10:00:04.000Z', 'manual'),
       (3, 4, 2, '2026-11-25T10:00:05.000Z', 'manual'), (3, 2, 1, '2026-11-25T10:00:06.000Z', 'suggestion'),
       (4, 1, 1, '2026-11-25T10:00:07.000Z', 'manual');
     INSERT INTO judgment_retraction (judgment_id, retracted_at) VALUES (7, '2026-11-25T10:00:08.000Z');
     INSERT INTO assignment (pair_id, annotator_id, assigned_at) VALUES (1, 1, 't'), (2, 1, 't'), (1, 4, 't'), (3, 4, 't');`,
  );
  seen.push(await outcome(store, () => store.studies.hasImported('beta')));
  seen.push(await outcome(store, () => store.studies.hasImported('alpha')));
  seen.push(await outcome(store, () => store.studies.progressCounts('beta')));
  seen.push(await outcome(store, () => store.studies.progressCounts('nowhere')));
  seen.push(await outcome(store, () => store.studies.sampleDocuments('beta', 2)));
  seen.push(await outcome(store, () => store.studies.sampleDocuments('alpha', 5)));
  seen.push(await outcome(store, () => store.studies.queryIds('beta')));
  await exec(
    store,
    `INSERT INTO suggestion (pair_id, annotator_id, label, created_at) VALUES (2, 2, 1, 't'), (4, 2, 0, 't'), (1, 2, NULL, 't')`,
  );
  seen.push(await outcome(store, () => store.studies.progressCounts('beta')));
  // A scale value in use cannot go; a study with judgments cannot leave the file; neither writes anything.
  seen.push(await outcome(store, () => store.studies.sync(model('0 "No" key "0"  2 "Yes" key "2"'), now)));
  seen.push(
    await outcome(store, () =>
      store.studies.sync(
        resolveStudies(
          parseStudyFile('study "alpha" {\n  queries "q.jsonl" { id: qid  text: query }\n  scale binary\n}\n'),
        ),
        now,
      ),
    ),
  );
  seen.push(await outcome(store, () => store.studies.progressCounts('beta')));
  // Removing a value nobody used, and a review.
  await exec(store, 'DELETE FROM judgment_retraction; DELETE FROM judgment WHERE label = 0');
  seen.push(
    await outcome(store, () =>
      store.studies.sync(
        model('1 "Partly" key "1"  2 "Yes" key "2"', 'review "r" {\n  items "i.jsonl" { id: id  text: text }\n}\n'),
        now,
      ),
    ),
  );
  seen.push(await outcome(store, () => store.studies.studyId('r')));
  seen.push(await outcome(store, () => store.studies.studyId('nothing')));
  return seen;
}

test('the studies port answers the same from SQLite and PostgreSQL', async () => {
  const answers = new Map<StoreKind, unknown[]>();
  for (const kind of storeKinds) answers.set(kind, await studiesScript(await fresh(kind)));
  const sqlite = answers.get('sqlite')!;
  const postgres = answers.get('postgres')!;
  assert.equal(postgres.length, sqlite.length);
  for (let step = 0; step < sqlite.length; step++) assert.deepEqual(postgres[step], sqlite[step], `step ${step}`);
  // The script exercised what it means to: refusals included.
  assert.match(JSON.stringify(sqlite), /no study 'gamma' in <location> \(it has: alpha, beta\)/);
  assert.match(JSON.stringify(sqlite), /'alice' is a person in <location>, not an LLM judge/);
  assert.match(JSON.stringify(sqlite), /scale value 1 cannot be removed/);
});

for (const kind of storeKinds) {
  test(`a study's messages name where its record is (${kind})`, async () => {
    const store = await fresh(kind);
    await assert.rejects(store.studies.studyId('x'), (error: Error) => error.message.includes(store.location));
  });
}

/** Resolves with the first change `store` reports that `accept` accepts, or rejects after `ms`. */
function nextChange(store: StudyStore, accept: (change: StoreChange) => boolean, ms = 5000): Promise<StoreChange> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`no change within ${ms} ms`));
    }, ms);
    const stop = store.onChange((change) => {
      if (!accept(change)) return;
      clearTimeout(timer);
      stop();
      resolve(change);
    });
  });
}

/** The server processes LISTENing on the database (waiting, up to 2 s, until there is one). */
async function listeningPids(store: PostgresStudyStore): Promise<number[]> {
  for (let i = 0; ; i++) {
    const { rows } = await store.pool.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'`,
    );
    if (rows.length > 0 || i >= 100) return rows.map((row) => row.pid);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test('PostgreSQL: another process commits, the listening store hears it; its own writes once, not twice', async () => {
  const connection = await testDatabase();
  const here = await PostgresStudyStore.open({ connection, location: 'postgres:team' });
  const there = await PostgresStudyStore.open({ connection, location: 'postgres:team' });
  open.push(here, there);
  const heard: StoreChange[] = [];
  const stop = here.onChange((change) => heard.push(change));
  await listeningPids(there);
  // From the other store's commit to this store's listeners: within a second (the "about a second").
  let heardAt = 0;
  const external = nextChange(here, (change) => change.what === 'external').then((change) => {
    heardAt = performance.now();
    return change;
  });
  await there.studies.sync(model('0 "No" key "0"'));
  const committedAt = performance.now();
  assert.deepEqual(await external, { what: 'external' });
  assert.ok(heardAt - committedAt < 1000, `heard ${Math.round(heardAt - committedAt)} ms after the commit`);
  heard.length = 0;
  await here.studies.sync(model('0 "No" key "0"'));
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.deepEqual(heard, [{ what: 'studies' }]);
  stop();
});

test('PostgreSQL: the listening connection is killed; it reconnects and carries on', async () => {
  const connection = await testDatabase();
  const here = await PostgresStudyStore.open({ connection, location: 'postgres:team' });
  const there = await PostgresStudyStore.open({ connection, location: 'postgres:team' });
  open.push(here, there);
  const stop = here.onChange(() => {});
  const pids = await listeningPids(there);
  assert.equal(pids.length, 1);
  // After the kill, a change says that something may have been missed; then others' commits arrive again.
  const missed = nextChange(here, (change) => change.what === 'external');
  await there.pool.query('SELECT pg_terminate_backend($1)', [pids[0]]);
  await missed;
  const external = nextChange(here, (change) => change.what === 'external');
  await there.studies.sync(model('0 "No" key "0"'));
  await external;
  stop();
  // Nobody listens any more: the connection is closed.
  const closed = async (): Promise<boolean> =>
    (
      await there.pool.query(
        `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'`,
      )
    ).rows.length === 0;
  for (let i = 0; i < 100 && !(await closed()); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  assert.ok(await closed());
});

for (const kind of storeKinds) {
  test(`two stores on one record see each other's commits (${kind})`, async () => {
    const first = await fresh(kind);
    const second = await openTestStore(
      kind,
      'pool' in first ? { connection: first.connection } : { file: first.location },
    );
    open.push(second);
    await first.studies.sync(model('0 "No" key "0"'));
    assert.equal(await second.studies.studyId('alpha'), await first.studies.studyId('alpha'));
    assert.equal(await second.studies.ensureAnnotator('carol'), await first.studies.ensureAnnotator('carol'));
  });
}
