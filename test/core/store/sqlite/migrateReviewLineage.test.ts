// Migration 005 (review lineage) on a real SQLite file: a database at version 4 with a generated version, a
// reviewer's edit of it (stored as the edit verdict and the new version at the same time) and a later generated
// version migrates with the edit's base filled in from its verdict, and generated versions based on nothing.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { sqliteMigrations as migrations } from '../../../../core/store/sqlite/migrations/sqliteMigrations.ts';
import { migrateDatabase, schemaVersion } from '../../../../core/store/sqlite/sqliteMigrate.ts';
import { locateNativeBinding, openDatabase } from '../../../../core/store/sqliteDatabase.ts';
import { nativeDir, scratchDir } from '../../../helpers.ts';

test('version 4 migrates to 5: an edit knows the version it was made from; generated versions none', () => {
  const db = openDatabase(join(scratchDir(), 'v4.sqlite'), { nativeBinding: locateNativeBinding(nativeDir) });
  migrateDatabase(
    db,
    migrations.filter((m) => m.version <= 4),
  );
  db.exec(`
    INSERT INTO study (id, name, kind, model, synced_at) VALUES (1, 'gen', 'review', '{}', 'then');
    INSERT INTO annotator (id, name, kind) VALUES (1, 'alice', 'human'), (2, 'bob', 'human');
    INSERT INTO review_item (id, study_id, item_id) VALUES (1, 1, 'i1'), (2, 1, 'i2');
    INSERT INTO review_item_version (id, item_id, text, author, created_at) VALUES
      (1, 1, 'generated', 'gpt', 't0'),
      (2, 2, 'other item', 'gpt', 't0'),
      (3, 1, 'edited by alice', 'alice', 't1'),
      (4, 1, 'regenerated', 'gpt', 't2');
    INSERT INTO review_verdict (id, version_id, annotator_id, verdict, created_at) VALUES
      (1, 1, 1, 'edit', 't1'),
      (2, 2, 2, 'accept', 't1');
  `);
  assert.deepEqual(
    migrateDatabase(
      db,
      migrations.filter((m) => m.version <= 5),
    ),
    [5],
  );
  assert.equal(schemaVersion(db), 5);
  assert.deepEqual(db.prepare('SELECT id, based_on FROM review_item_version ORDER BY id').raw().all(), [
    [1, null],
    [2, null],
    [3, 1],
    [4, null],
  ]);
  const plan = db.prepare('EXPLAIN QUERY PLAN SELECT * FROM review_verdict WHERE version_id = ?').all(1) as {
    detail: string;
  }[];
  assert.ok(
    plan.some((row) => /USING INDEX review_verdict_by_version/.test(row.detail)),
    JSON.stringify(plan),
  );
  db.close();
});
