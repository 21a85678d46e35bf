// Migration 003 (labelling sessions) on real SQLite files: a database at version 2 with judgments and suggestions
// migrates keeping them; afterwards a retracted judgment is never current (the one before it is, or none), the
// suggestion has a confidence (checked to be 0–1), cursors have a table, and every statement a labelling session
// runs per pair, label or undo is an indexed lookup.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { labelStatements } from '../../../../core/store/sqlite/labels/labelStatements.ts';
import { sqliteMigrations as migrations } from '../../../../core/store/sqlite/migrations/sqliteMigrations.ts';
import { migrateDatabase, schemaVersion } from '../../../../core/store/sqlite/sqliteMigrate.ts';
import { locateNativeBinding, openDatabase, type SqliteDatabase } from '../../../../core/store/sqliteDatabase.ts';
import { nativeDir, scratchDir } from '../../../helpers.ts';

const nativeBinding = locateNativeBinding(nativeDir);

/** A database at schema version 2 with one pair, alice's three judgments of it, bob's one, and a suggestion. */
function atVersion2(): { db: SqliteDatabase; file: string } {
  const file = join(scratchDir(), 'v2.sqlite');
  const db = openDatabase(file, { nativeBinding });
  migrateDatabase(
    db,
    migrations.filter((m) => m.version <= 2),
  );
  db.exec(`
    INSERT INTO study (id, name, kind, model, synced_at) VALUES (1, 's', 'study', '{}', 'then');
    INSERT INTO pair (id, study_id, qid, docid, best_rank) VALUES (1, 1, 'q1', 'd1', 1);
    INSERT INTO annotator (id, name, kind) VALUES (1, 'alice', 'human'), (2, 'bob', 'human'), (3, 'llm:m@h', 'llm');
    INSERT INTO judgment (id, pair_id, annotator_id, label, created_at, source) VALUES
      (1, 1, 1, 0, '2026-01-01T00:00:00.000Z', 'manual'),
      (2, 1, 1, 1, '2026-01-01T00:00:00.001Z', 'manual'),
      (3, 1, 1, 2, '2026-01-01T00:00:00.002Z', 'manual'),
      (4, 1, 2, 1, '2026-01-01T00:00:00.000Z', 'manual');
    INSERT INTO suggestion (id, pair_id, annotator_id, label, created_at) VALUES (1, 1, 3, 2, '2026-01-01T00:00:00.000Z');
  `);
  return { db, file };
}

const current = (db: SqliteDatabase) =>
  db.prepare('SELECT annotator_id AS annotator, label FROM current_judgment ORDER BY annotator_id').all();

test('version 2 migrates to 3 keeping judgments and suggestions; the current label is the latest, as before', () => {
  const { db } = atVersion2();
  assert.deepEqual(current(db), [
    { annotator: 1, label: 2 },
    { annotator: 2, label: 1 },
  ]);
  assert.deepEqual(
    migrateDatabase(
      db,
      migrations.filter((m) => m.version <= 3),
    ),
    [3],
  );
  assert.equal(schemaVersion(db), 3);
  assert.deepEqual(current(db), [
    { annotator: 1, label: 2 },
    { annotator: 2, label: 1 },
  ]);
  assert.equal(db.prepare('SELECT count(*) FROM judgment').pluck().get(), 4);
  assert.deepEqual(db.prepare('SELECT label, confidence FROM suggestion').all(), [{ label: 2, confidence: null }]);
  assert.deepEqual(db.pragma('foreign_key_check'), []);
  db.close();
});

test('a retracted judgment is never current: the one before it is, and none when all are retracted', () => {
  const { db } = atVersion2();
  migrateDatabase(db);
  const retract = db.prepare("INSERT INTO judgment_retraction (judgment_id, retracted_at) VALUES (?, 'now')");
  retract.run(3);
  assert.deepEqual(current(db), [
    { annotator: 1, label: 1 },
    { annotator: 2, label: 1 },
  ]);
  // Retracting one that is not the latest leaves the latest current.
  retract.run(1);
  assert.deepEqual(current(db), [
    { annotator: 1, label: 1 },
    { annotator: 2, label: 1 },
  ]);
  retract.run(2);
  assert.deepEqual(current(db), [{ annotator: 2, label: 1 }], "all of alice's judgments retracted: she has none");
  assert.equal(db.prepare('SELECT count(*) FROM judgment').pluck().get(), 4, 'the history stays');
  assert.throws(() => retract.run(99), /FOREIGN KEY/);
  db.close();
});

test('suggestion confidence is a share, 0–1; a cursor is one row per study and annotator', () => {
  const { db } = atVersion2();
  migrateDatabase(db);
  db.prepare('UPDATE suggestion SET confidence = 0.67').run();
  assert.throws(() => db.prepare('UPDATE suggestion SET confidence = 1.5').run(), /CHECK constraint/);
  const save = db.prepare(
    `INSERT INTO label_cursor (study_id, annotator_id, queue_order, unlabelled_only, pair_id, updated_at)
     VALUES (1, 1, ?, 0, 1, 'now')
     ON CONFLICT (study_id, annotator_id) DO UPDATE SET queue_order = excluded.queue_order`,
  );
  save.run('query');
  save.run('rank');
  assert.deepEqual(db.prepare('SELECT queue_order FROM label_cursor').pluck().all(), ['rank']);
  db.close();
});

test('every statement a session runs per pair, label or undo searches an index, never scans a table', () => {
  const { db } = atVersion2();
  migrateDatabase(db);
  for (const [name, statement] of Object.entries(labelStatements(db))) {
    const sql = statement.source;
    const named = [...new Set([...sql.matchAll(/@(\w+)/g)].map((m) => m[1]!))];
    const parameters =
      named.length > 0 ? [Object.fromEntries(named.map((n) => [n, 1]))] : Array(sql.split('?').length - 1).fill(1);
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...parameters) as { detail: string }[]).map(
      (r) => r.detail,
    );
    const scans = plan.filter((step) => /^SCAN /.test(step) && step !== 'SCAN CONSTANT ROW');
    assert.deepEqual(scans, [], `${name}: ${plan.join(' / ')}`);
    assert.ok(
      plan.length === 0 || plan.some((step) => step.startsWith('SEARCH') || step === 'SCAN CONSTANT ROW'),
      `${name} looks rows up: ${plan.join(' / ')}`,
    );
  }
  db.close();
});
