// Schema migrations on real SQLite files: a new database gets every migration once; a database at every older
// version is brought up to date keeping its rows; one written by a newer Qrels Studio is refused, unchanged.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { SchemaVersionError } from '../../../../core/store/migrate.ts';
import { sqliteMigrations as migrations } from '../../../../core/store/sqlite/migrations/sqliteMigrations.ts';
import { migrateDatabase, schemaVersion } from '../../../../core/store/sqlite/sqliteMigrate.ts';
import { locateNativeBinding, openDatabase } from '../../../../core/store/sqliteDatabase.ts';
import { nativeDir, scratchDir } from '../../../helpers.ts';

const nativeBinding = locateNativeBinding(nativeDir);
const open = (file: string) => openDatabase(file, { nativeBinding });

test('migrations are numbered 1, 2, 3, … without gaps', () => {
  assert.deepEqual(
    migrations.map((m) => m.version),
    migrations.map((_, i) => i + 1),
  );
});

test('a new database gets every migration once; opening it again applies none', () => {
  const file = join(scratchDir(), 'study.sqlite');
  const db = open(file);
  assert.deepEqual(
    migrateDatabase(db),
    migrations.map((m) => m.version),
  );
  assert.equal(schemaVersion(db), migrations.at(-1)!.version);
  assert.deepEqual(migrateDatabase(db), []);
  assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
  assert.deepEqual(db.pragma('foreign_key_check'), []);
  db.close();
});

test('a database at every older version migrates to the newest, keeping its rows', () => {
  for (let version = 1; version < migrations.length + 1; version++) {
    const file = join(scratchDir(), `at-${version}.sqlite`);
    const db = open(file);
    migrateDatabase(db, migrations.slice(0, version));
    db.prepare("INSERT INTO study (name, kind, model, synced_at) VALUES ('s', 'study', '{}', 'then')").run();
    db.close();
    const again = open(file);
    migrateDatabase(again);
    assert.equal(schemaVersion(again), migrations.at(-1)!.version);
    assert.equal(again.prepare('SELECT count(*) FROM study').pluck().get(), 1);
    again.close();
  }
});

test('a database from a newer Qrels Studio is refused and left as it is', () => {
  const file = join(scratchDir(), 'newer.sqlite');
  const db = open(file);
  migrateDatabase(db);
  const newer = migrations.at(-1)!.version + 1;
  db.pragma(`user_version = ${newer}`);
  assert.throws(() => migrateDatabase(db), SchemaVersionError);
  assert.throws(() => migrateDatabase(db), /newer than this Qrels Studio knows/);
  assert.equal(schemaVersion(db), newer);
  db.close();
});

test('a migration that fails leaves the database at the version before it', () => {
  const file = join(scratchDir(), 'failing.sqlite');
  const db = open(file);
  const broken = [
    ...migrations,
    {
      version: migrations.length + 1,
      name: 'broken',
      description: 'broken',
      sql: 'CREATE TABLE x (a); SELECT * FROM nowhere;',
    },
  ];
  assert.throws(() => migrateDatabase(db, broken), /no such table: nowhere/);
  assert.equal(schemaVersion(db), migrations.length);
  assert.equal(db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'x'").pluck().get(), 0);
  db.close();
});
