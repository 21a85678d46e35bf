// Migration 006 (graded aspects) on a real SQLite file: a database at version 5 with yes/no aspect answers migrates
// keeping them, and afterwards an aspect answer may be a graded aspect's level (2), which version 5 refused.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { sqliteMigrations as migrations } from '../../../../core/store/sqlite/migrations/sqliteMigrations.ts';
import { migrateDatabase, schemaVersion } from '../../../../core/store/sqlite/sqliteMigrate.ts';
import { locateNativeBinding, openDatabase } from '../../../../core/store/sqliteDatabase.ts';
import { nativeDir, scratchDir } from '../../../helpers.ts';

test('version 5 migrates to 6 keeping yes/no aspect answers; a level above 1 is then stored', () => {
  const db = openDatabase(join(scratchDir(), 'v5.sqlite'), { nativeBinding: locateNativeBinding(nativeDir) });
  migrateDatabase(
    db,
    migrations.filter((m) => m.version <= 5),
  );
  db.exec(`
    INSERT INTO study (id, name, kind, model, synced_at) VALUES (1, 's', 'study', '{}', 'then');
    INSERT INTO pair (id, study_id, qid, docid, best_rank) VALUES (1, 1, 'q1', 'd1', 1);
    INSERT INTO annotator (id, name, kind) VALUES (1, 'alice', 'human');
  `);
  const judgment = db
    .prepare(
      "INSERT INTO judgment (pair_id, annotator_id, label, created_at, source) VALUES (1, 1, 2, 't', 'manual') RETURNING id",
    )
    .get() as { id: number };
  const insert = db.prepare('INSERT INTO aspect_judgment (judgment_id, aspect, answer) VALUES (?, ?, ?)');
  insert.run(judgment.id, 'topical', 1);
  assert.throws(() => insert.run(judgment.id, 'coverage', 2), /CHECK constraint/);
  assert.deepEqual(
    migrateDatabase(
      db,
      migrations.filter((m) => m.version <= 6),
    ),
    [6],
  );
  assert.equal(schemaVersion(db), 6);
  db.prepare('INSERT INTO aspect_judgment (judgment_id, aspect, answer) VALUES (?, ?, ?)').run(
    judgment.id,
    'coverage',
    2,
  );
  assert.deepEqual(db.prepare('SELECT aspect, answer FROM aspect_judgment ORDER BY aspect').all(), [
    { aspect: 'coverage', answer: 2 },
    { aspect: 'topical', answer: 1 },
  ]);
  db.close();
});
