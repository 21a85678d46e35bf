// The migration list is the one order every backend follows: the SQLite adapter has statements for every version
// of it (and none besides), versions run 1, 2, 3, … without gaps, and each has a name and a description.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { migrations } from '../../../../core/store/migrations/registry.ts';
import { sqliteMigrationSql, sqliteMigrations } from '../../../../core/store/sqlite/migrations/sqliteMigrations.ts';

test('the migration list: versions without gaps, each named and described', () => {
  assert.deepEqual(
    migrations.map((m) => m.version),
    migrations.map((_, i) => i + 1),
  );
  for (const migration of migrations) {
    assert.match(migration.name, /^[a-z][A-Za-z0-9]*$/, `version ${migration.version}`);
    assert.ok(migration.description.length > 0, `version ${migration.version}`);
  }
  assert.equal(new Set(migrations.map((m) => m.name)).size, migrations.length);
});

test('the SQLite adapter has statements for every version of the list, and for no other', () => {
  for (const migration of migrations) {
    const sql = sqliteMigrationSql.get(migration.version);
    assert.ok(sql !== undefined && sql.trim().length > 0, `no SQLite statements for version ${migration.version}`);
  }
  assert.deepEqual(
    [...sqliteMigrationSql.keys()].sort((a, b) => a - b),
    migrations.map((m) => m.version),
  );
  assert.deepEqual(
    sqliteMigrations.map(({ version, name, description }) => ({ version, name, description })),
    migrations.map(({ version, name, description }) => ({ version, name, description })),
  );
});
