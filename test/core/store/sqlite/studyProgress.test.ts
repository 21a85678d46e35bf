// A study's progress on real SQLite files: judged pairs per annotator count current labels (a relabel is one pair,
// another study's judgments do not count, a retracted judgment is not a label), assignments when there are any,
// and a million pairs counted in well under a second.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseStudyFile, resolveStudies } from '../../../../core/dsl/index.ts';
import { SqliteStudyStore } from '../../../../core/store/sqlite/sqliteStudyStore.ts';
import { StudyDatabase } from '../../../../core/store/sqlite/studyDatabase.ts';
import { locateNativeBinding } from '../../../../core/store/sqliteDatabase.ts';
import { StoreError } from '../../../../core/store/studyDatabase.ts';
import { progressOf, studyProgress } from '../../../../core/store/studyProgress.ts';
import { assertCostWithin } from '../../../costCheck.ts';
import { nativeDir, scratchDir } from '../../../helpers.ts';

const nativeBinding = locateNativeBinding(nativeDir);

/** The store each test database is read through (the test seeds the database with SQL on its own connection). */
const stores = new Map<StudyDatabase, SqliteStudyStore>();
const storeOf = (database: StudyDatabase) => stores.get(database)!;

function openStudies(): StudyDatabase {
  const file = join(scratchDir(), 'progress.sqlite');
  const database = StudyDatabase.open(file, { nativeBinding });
  stores.set(database, SqliteStudyStore.openNow(file, { nativeBinding }));
  database.syncStudies(
    resolveStudies(
      parseStudyFile(`study "s" {
  scale ordinal { 0 "No" key "0"  1 "Yes" key "1"  2 "Very" key "2" }
  annotators carol alice
  adjudicator dana
}
study "other" {
  scale ordinal { 0 "No" key "0"  1 "Yes" key "1" }
}
`),
    ),
  );
  return database;
}

function addPairs(database: StudyDatabase, study: string, count: number): void {
  database.db
    .prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       INSERT INTO pair (study_id, qid, docid, best_rank) SELECT ?, 'q' || (i % 50), 'd' || i, 1 FROM n`,
    )
    .run(count, database.studyId(study));
}

const rows = (database: StudyDatabase, table: string) =>
  database.db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;

const label = (database: StudyDatabase, study: string, qid: string, docid: string, annotator: string, value = 1) =>
  database.addJudgment({ study, qid, docid, annotator, label: value, source: 'manual' });

/** Judged pairs per annotator as the `current_judgment` view counts them, row by row: what studyProgress must equal. */
function viewCounts(database: StudyDatabase, study: string): Record<string, number> {
  const rows = database.db
    .prepare(
      `SELECT a.name, count(*) AS n FROM current_judgment AS j JOIN pair AS p ON p.id = j.pair_id
       JOIN annotator AS a ON a.id = j.annotator_id WHERE p.study_id = ? GROUP BY a.name`,
    )
    .all(database.studyId(study)) as { name: string; n: number }[];
  return Object.fromEntries(rows.map((r) => [r.name, r.n]));
}

const judgedCounts = async (database: StudyDatabase, study: string) =>
  Object.fromEntries(
    (await studyProgress(storeOf(database), study)).annotators
      .filter((a) => a.judged > 0)
      .map((a) => [a.name, a.judged]),
  );

test('judged counts pairs with a current label per annotator, humans first; assigned is null without assignments', async () => {
  const database = openStudies();
  addPairs(database, 's', 10);
  addPairs(database, 'other', 5);
  label(database, 's', 'q1', 'd1', 'alice');
  label(database, 's', 'q1', 'd1', 'alice', 2); // a relabel: still one pair
  label(database, 's', 'q2', 'd2', 'alice');
  label(database, 's', 'q2', 'd2', 'bob');
  label(database, 's', 'q3', 'd3', 'llm:gpt-4.1-mini@abc123');
  label(database, 's', 'q4', 'd4', 'llm:gpt-4.1-mini@abc123');
  label(database, 'other', 'q1', 'd1', 'carol'); // another study's judgment
  const progress = await studyProgress(storeOf(database), 's');
  assert.deepEqual(progress, {
    pairs: 10,
    judgedByAnyone: 4,
    judgedByHumans: 2,
    annotators: [
      { name: 'alice', kind: 'human', assigned: null, judged: 2 },
      { name: 'bob', kind: 'human', assigned: null, judged: 1 },
      { name: 'carol', kind: 'human', assigned: null, judged: 0 },
      { name: 'llm:gpt-4.1-mini@abc123', kind: 'llm', assigned: null, judged: 2 },
    ],
  });
  assert.deepEqual(await studyProgress(storeOf(database), 'other'), {
    pairs: 5,
    judgedByAnyone: 1,
    judgedByHumans: 1,
    annotators: [{ name: 'carol', kind: 'human', assigned: null, judged: 1 }],
  });
  assert.deepEqual(await judgedCounts(database, 's'), viewCounts(database, 's'));
  await assert.rejects(studyProgress(storeOf(database), 'missing'), StoreError);
  await storeOf(database).close();
  database.close();
});

test('an LLM judge that only suggested (a judge run) is listed with the pairs it suggested a label for', async () => {
  const database = openStudies();
  addPairs(database, 's', 10);
  label(database, 's', 'q1', 'd1', 'alice');
  const judge = 'llm:gpt-4.1-mini@abc123';
  const annotatorId = Number(
    database.db.prepare("INSERT INTO annotator (name, kind) VALUES (?, 'llm')").run(judge).lastInsertRowid,
  );
  const suggest = (docid: string, value: number | null, at: string) =>
    database.db
      .prepare(
        `INSERT INTO suggestion (pair_id, annotator_id, label, created_at)
         SELECT id, ?, ?, ? FROM pair WHERE study_id = ? AND docid = ?`,
      )
      .run(annotatorId, value, at, database.studyId('s'), docid);
  suggest('d1', 2, '2026-01-01T00:00:00Z'); // a pair alice judged
  suggest('d2', 1, '2026-01-01T00:00:00Z');
  suggest('d2', 0, '2026-01-02T00:00:00Z'); // suggested again: one pair
  suggest('d3', null, '2026-01-01T00:00:00Z'); // no label could be parsed: not a label
  suggest('d4', 0, '2026-01-01T00:00:00Z');
  const progress = await studyProgress(storeOf(database), 's');
  assert.deepEqual(progress.annotators.at(-1), { name: judge, kind: 'llm', assigned: null, judged: 3 });
  assert.equal(progress.judgedByHumans, 1);
  assert.equal(progress.judgedByAnyone, 3, 'd1 (alice and the judge), d2 and d4');
  // Assignments share the pairs among people: the judge is not one of them (its judged pairs are of all of them).
  database.db
    .prepare(
      "INSERT INTO assignment (pair_id, annotator_id, assigned_at) SELECT p.id, a.id, '2026-01-01T00:00:00Z' FROM pair AS p, annotator AS a WHERE a.name = 'alice' AND p.docid IN ('d1', 'd2')",
    )
    .run();
  assert.deepEqual(
    (await studyProgress(storeOf(database), 's')).annotators.map((a) => [a.name, a.assigned]),
    [
      ['alice', 2],
      ['carol', 0],
      [judge, null],
    ],
  );
  // The adjudicator labels any pair (their Label view counts all of them): no share of 0.
  label(database, 's', 'q2', 'd2', 'dana');
  assert.deepEqual(
    (await studyProgress(storeOf(database), 's')).annotators.find((a) => a.name === 'dana'),
    {
      name: 'dana',
      kind: 'human',
      assigned: null,
      judged: 1,
    },
  );
  await storeOf(database).close();
  database.close();
});

test('assigned counts the assignment rows of the study; declared annotators without any get 0', async () => {
  const database = openStudies();
  addPairs(database, 's', 6);
  label(database, 's', 'q1', 'd1', 'alice');
  database.db.exec("INSERT INTO annotator (name, kind) VALUES ('dave', 'human')");
  database.db
    .prepare(
      `INSERT INTO assignment (pair_id, annotator_id, assigned_at)
       SELECT p.id, a.id, '2026-01-01T00:00:00.000Z' FROM pair AS p, annotator AS a
       WHERE p.study_id = ? AND ((a.name = 'alice' AND p.docid IN ('d1', 'd2', 'd3')) OR (a.name = 'dave' AND p.docid = 'd4'))`,
    )
    .run(database.studyId('s'));
  assert.deepEqual((await studyProgress(storeOf(database), 's')).annotators, [
    { name: 'alice', kind: 'human', assigned: 3, judged: 1 },
    { name: 'carol', kind: 'human', assigned: 0, judged: 0 },
    { name: 'dave', kind: 'human', assigned: 1, judged: 0 },
  ]);
  await storeOf(database).close();
  database.close();
});

test('a retracted (undone) judgment is not a current label', async () => {
  const database = openStudies();
  addPairs(database, 's', 3);
  const only = label(database, 's', 'q1', 'd1', 'alice');
  label(database, 's', 'q2', 'd2', 'alice');
  label(database, 's', 'q3', 'd3', 'bob');
  const relabel = label(database, 's', 'q3', 'd3', 'bob', 2);
  const retract = database.db.prepare('INSERT INTO judgment_retraction (judgment_id, retracted_at) VALUES (?, ?)');
  retract.run(only.id, new Date().toISOString());
  retract.run(relabel.id, new Date().toISOString());
  const progress = await studyProgress(storeOf(database), 's');
  assert.equal(progress.judgedByAnyone, 2, "alice's only label of q1/d1 was undone; bob's first label of q3/d3 stays");
  assert.deepEqual(await judgedCounts(database, 's'), { alice: 1, bob: 1 });
  assert.deepEqual(await judgedCounts(database, 's'), viewCounts(database, 's'));
  await storeOf(database).close();
  database.close();
});

test('a million pairs with 1.24 million judgments are counted in one pass', async (t) => {
  const database = openStudies();
  const pairs = 1_000_000;
  addPairs(database, 's', pairs);
  database.db.exec(`
    INSERT INTO annotator (name, kind) VALUES ('alice', 'human'), ('bob', 'human'), ('llm:judge@h', 'llm');
    -- The judge labelled 60 % of the pairs, alice 40 % (a tenth of those twice), bob 20 %; a fifth has no label.
    INSERT INTO judgment (pair_id, annotator_id, label, created_at, source)
      SELECT p.id, a.id, p.id % 3, '2026-01-01T00:00:00.000Z', 'suggestion' FROM pair AS p, annotator AS a
      WHERE a.name = 'llm:judge@h' AND p.id % 5 < 3;
    INSERT INTO judgment (pair_id, annotator_id, label, created_at, source)
      SELECT p.id, a.id, 1, '2026-01-02T00:00:00.000Z', 'manual' FROM pair AS p, annotator AS a
      WHERE a.name = 'alice' AND p.id % 5 < 2;
    INSERT INTO judgment (pair_id, annotator_id, label, created_at, source)
      SELECT p.id, a.id, 2, '2026-01-03T00:00:00.000Z', 'manual' FROM pair AS p, annotator AS a
      WHERE a.name = 'alice' AND p.id % 50 < 2;
    INSERT INTO judgment (pair_id, annotator_id, label, created_at, source)
      SELECT p.id, a.id, 0, '2026-01-02T00:00:00.000Z', 'manual' FROM pair AS p, annotator AS a
      WHERE a.name = 'bob' AND p.id % 5 = 4;
  `);
  const progress = await studyProgress(storeOf(database), 's');
  assert.equal(progress.pairs, pairs);
  assert.equal(rows(database, 'judgment'), 1_240_000);
  assert.equal(progress.judgedByAnyone, pairs * 0.8);
  assert.equal(progress.judgedByHumans, pairs * 0.6);
  assert.deepEqual(
    progress.annotators.map((a) => [a.name, a.judged]),
    [
      ['alice', pairs * 0.4],
      ['bob', pairs * 0.2],
      ['carol', 0],
      ['llm:judge@h', pairs * 0.6],
    ],
  );
  assert.deepEqual(await judgedCounts(database, 's'), viewCounts(database, 's'));
  // The count is one pass over the judgments, grouped by pair: against one bare scan of them (measured: 6–7 times
  // that), it may not cost many times more, as a query per annotator or per pair would.
  const scanJudgments = database.db.prepare('SELECT sum(annotator_id) FROM judgment');
  const cost = assertCostWithin(
    () => progressOf(storeOf(database).studies.progressCountsNow('s')),
    () => scanJudgments.pluck().get(),
    20,
    { work: 'studyProgress', baseline: 'one scan of the judgments' },
  );
  t.diagnostic(`studyProgress ${cost.workMs.toFixed(0)} ms, one scan ${cost.baselineMs.toFixed(0)} ms`);
  await storeOf(database).close();
  database.close();
});
