// Migration 004 (judge calls) on real SQLite files: a database at version 3 with a recorded call and a suggestion
// that points at it migrates keeping both (llm_call and suggestion are rebuilt, with foreign keys on); afterwards
// calls may share a cache key (failed ones are records, not cache entries), a failure must say what went wrong and
// carries no label, the cache lookup and the per-pair lookups are indexed, and a suggestion keeps its votes.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { sqliteMigrations as migrations } from '../../../../core/store/sqlite/migrations/sqliteMigrations.ts';
import { SqliteJudge } from '../../../../core/store/sqlite/sqliteJudge.ts';
import { migrateDatabase, schemaVersion } from '../../../../core/store/sqlite/sqliteMigrate.ts';
import { locateNativeBinding, openDatabase, type SqliteDatabase } from '../../../../core/store/sqliteDatabase.ts';
import { nativeDir, scratchDir } from '../../../helpers.ts';

const nativeBinding = locateNativeBinding(nativeDir);

/** The SQLite adapter's judge area over `db` (its cache lookup). */
const judgeOf = (db: SqliteDatabase) =>
  new SqliteJudge({ db, file: 'v3.sqlite', database: undefined as never, changed: () => {} });

/** A database at schema version 3 with one pair, a judge, one recorded call and the suggestion made from it. */
function atVersion3(): SqliteDatabase {
  const db = openDatabase(join(scratchDir(), 'v3.sqlite'), { nativeBinding });
  migrateDatabase(
    db,
    migrations.filter((m) => m.version <= 3),
  );
  db.exec(`
    INSERT INTO study (id, name, kind, model, synced_at) VALUES (1, 's', 'study', '{}', 'then');
    INSERT INTO pair (id, study_id, qid, docid, best_rank) VALUES (1, 1, 'q1', 'd1', 1);
    INSERT INTO annotator (id, name, kind) VALUES (1, 'llm:m@0123abcd', 'llm');
    INSERT INTO llm_call (id, cache_key, endpoint, model, parameters, prompt_hash, raw_output, input_tokens,
      output_tokens, latency_ms, cost, created_at)
    VALUES (7, 'key-1', 'http://127.0.0.1:1/v1', 'm', '{}', 'ph', '{"label": 2}', 10, 3, 120, 0.5,
      '2026-01-01T00:00:00.000Z');
    INSERT INTO suggestion (id, pair_id, annotator_id, llm_call_id, label, rationale, created_at, confidence)
    VALUES (3, 1, 1, 7, 2, 'because', '2026-01-01T00:00:00.000Z', 0.5);
  `);
  return db;
}

test('version 3 migrates to 4 keeping calls and suggestions, and the suggestion still points at its call', async () => {
  const db = atVersion3();
  assert.deepEqual(
    migrateDatabase(
      db,
      migrations.filter((m) => m.version <= 4),
    ),
    [4],
  );
  assert.equal(schemaVersion(db), 4);
  assert.deepEqual(
    db.prepare('SELECT id, cache_key, raw_output, input_tokens, cost, vote_index, error FROM llm_call').all(),
    [
      {
        id: 7,
        cache_key: 'key-1',
        raw_output: '{"label": 2}',
        input_tokens: 10,
        cost: 0.5,
        vote_index: 0,
        error: null,
      },
    ],
  );
  assert.deepEqual(db.prepare('SELECT id, llm_call_id, label, rationale, confidence FROM suggestion').all(), [
    { id: 3, llm_call_id: 7, label: 2, rationale: 'because', confidence: 0.5 },
  ]);
  const references = db.pragma('foreign_key_list(suggestion)') as { table: string; from: string }[];
  assert.deepEqual(references.find((r) => r.from === 'llm_call_id')?.table, 'llm_call');
  assert.deepEqual(db.pragma('foreign_key_check'), []);
  assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
  // The confidence check of 003 survived the rebuild, and the old call is served by the cache.
  assert.throws(() => db.prepare('UPDATE suggestion SET confidence = 1.5').run(), /CHECK constraint/);
  assert.equal((await judgeOf(db).cachedCall('key-1'))?.id, 7);
  assert.throws(() => db.prepare('DELETE FROM llm_call WHERE id = 7').run(), /FOREIGN KEY/);
  db.close();
});

test('calls may share a key; only answered ones (parsed or not) are served, the first of them', async () => {
  const db = atVersion3();
  migrateDatabase(db);
  const insert = db.prepare(
    `INSERT INTO llm_call (cache_key, endpoint, model, parameters, prompt_hash, raw_output, error_kind, error,
       parsed_label, created_at)
     VALUES (?, 'e', 'm', '{}', 'ph', ?, ?, ?, ?, 'now') RETURNING id`,
  );
  const store = judgeOf(db);
  insert.get('k', '', 'server', 'answered 500', null);
  insert.get('k', '', 'timeout', 'no answer within 1 s', null);
  assert.equal(await store.cachedCall('k'), undefined, 'a call that got no answer is never served');
  const unparsed = insert.get('k', 'I think it is relevant', 'parse', 'expected a label', null) as { id: number };
  insert.get('k', '{"label": 1}', null, null, 1);
  assert.equal((await store.cachedCall('k'))?.id, unparsed.id, 'the first answered call serves, parsed or not');
  assert.equal((await store.cachedCall('k'))?.rawOutput, 'I think it is relevant');
  db.close();
});

test('a failure says what went wrong and carries no label; a vote index is never negative', () => {
  const db = atVersion3();
  migrateDatabase(db);
  const insert = (errorKind: string | null, error: string | null, label: number | null, vote = 0) =>
    db
      .prepare(
        `INSERT INTO llm_call (cache_key, endpoint, model, parameters, prompt_hash, raw_output, error_kind, error,
           parsed_label, vote_index, created_at) VALUES ('k', 'e', 'm', '{}', 'ph', '', ?, ?, ?, ?, 'now')`,
      )
      .run(errorKind, error, label, vote);
  assert.throws(() => insert('server', null, null), /CHECK constraint/, 'a kind without a sentence');
  assert.throws(() => insert(null, 'something', null), /CHECK constraint/, 'a sentence without a kind');
  assert.throws(() => insert('parse', 'off the scale', 7), /CHECK constraint/, 'a failure with a label');
  assert.throws(() => insert('teapot', 'short and stout', null), /CHECK constraint/, 'an unknown kind');
  assert.throws(() => insert(null, null, 1, -1), /CHECK constraint/);
  insert('parse', 'off the scale', null);
  insert(null, null, 2, 1);
  db.close();
});

test('a suggestion keeps one vote per vote index, each pointing at its call', () => {
  const db = atVersion3();
  migrateDatabase(db);
  const vote = db.prepare(
    'INSERT INTO suggestion_vote (suggestion_id, vote_index, llm_call_id, label) VALUES (?, ?, ?, ?)',
  );
  vote.run(3, 0, 7, 2);
  vote.run(3, 1, 7, null);
  assert.throws(() => vote.run(3, 1, 7, 1), /UNIQUE|PRIMARY KEY/);
  assert.throws(() => vote.run(3, 2, 99, 1), /FOREIGN KEY/);
  assert.throws(() => vote.run(99, 0, 7, 1), /FOREIGN KEY/);
  assert.deepEqual(db.prepare('SELECT vote_index, label FROM suggestion_vote ORDER BY vote_index').all(), [
    { vote_index: 0, label: 2 },
    { vote_index: 1, label: null },
  ]);
  db.close();
});

test("the cache lookup, a pair's suggestions and a study's calls are index searches, never scans", () => {
  const db = atVersion3();
  migrateDatabase(db);
  const plan = (sql: string, ...parameters: unknown[]) =>
    (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...parameters) as { detail: string }[]).map((r) => r.detail);
  const cases: [string, string[], RegExp][] = [
    [
      `SELECT id, raw_output FROM llm_call WHERE cache_key = ? AND (error_kind IS NULL OR error_kind = 'parse')
       ORDER BY id LIMIT 1`,
      ['k'],
      /USING (COVERING )?INDEX llm_call_cache/,
    ],
    ['SELECT id FROM suggestion WHERE pair_id = ? AND annotator_id = ?', ['1', '1'], /INDEX suggestion_by_pair/],
    ['SELECT * FROM llm_call WHERE pair_id = ? AND judge = ?', ['1', 'j'], /INDEX llm_call_by_pair/],
    ['SELECT sum(cost) FROM llm_call WHERE study_id = ? AND judge = ?', ['1', 'j'], /INDEX llm_call_by_study/],
    ['SELECT * FROM suggestion_vote WHERE suggestion_id = ?', ['1'], /PRIMARY KEY/],
  ];
  for (const [sql, parameters, index] of cases) {
    const steps = plan(sql, ...parameters);
    assert.ok(
      steps.some((step) => step.startsWith('SEARCH') && index.test(step)),
      `${sql}: ${steps.join(' / ')}`,
    );
    assert.deepEqual(
      steps.filter((step) => step.startsWith('SCAN')),
      [],
      `${sql}: ${steps.join(' / ')}`,
    );
  }
  db.close();
});
