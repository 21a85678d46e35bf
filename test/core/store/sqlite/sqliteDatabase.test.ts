import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  currentNativeBindingTarget,
  locateNativeBinding,
  NativeBindingMissingError,
  nativeBindingFileName,
  openDatabase,
} from '../../../../core/store/sqliteDatabase.ts';
import { nativeDir, scratchDir } from '../../../helpers.ts';

test('the shipped binary for this platform is found in dist/native', () => {
  const file = locateNativeBinding(nativeDir);
  assert.equal(file, join(nativeDir, nativeBindingFileName(currentNativeBindingTarget()!)));
  assert.ok(existsSync(file));
});

test('a missing binary is a clear error naming the file, not a crash', () => {
  assert.throws(() => locateNativeBinding(scratchDir()), NativeBindingMissingError);
  assert.throws(() => locateNativeBinding(scratchDir()), /not found at .*better_sqlite3-.*\.node/);
});

test('platform and libc map to the prebuild names better-sqlite3 ships', () => {
  assert.equal(currentNativeBindingTarget('linux', 'x64', false), 'linux-x64');
  assert.equal(currentNativeBindingTarget('linux', 'arm64', true), 'linuxmusl-arm64');
  assert.equal(currentNativeBindingTarget('win32', 'x64', false), 'win32-x64');
  assert.equal(currentNativeBindingTarget('darwin', 'arm64', false), 'darwin-arm64');
  assert.equal(currentNativeBindingTarget('freebsd', 'x64', false), undefined);
  assert.equal(currentNativeBindingTarget('linux', 'ia32', false), undefined);
});

test('a database opens in WAL mode with foreign keys, and a reader keeps its snapshot while the writer commits', () => {
  const file = join(scratchDir(), 'wal.sqlite');
  const nativeBinding = locateNativeBinding(nativeDir);
  const writer = openDatabase(file, { nativeBinding });
  assert.equal(writer.pragma('journal_mode', { simple: true }), 'wal');
  assert.equal(writer.pragma('foreign_keys', { simple: true }), 1);
  writer.exec('create table t (x integer)');
  writer.prepare('insert into t values (1)').run();

  const reader = openDatabase(file, { nativeBinding, readonly: true });
  reader.exec('begin');
  assert.equal(reader.prepare('select count(*) from t').pluck().get(), 1);
  writer.prepare('insert into t values (2)').run();
  assert.equal(reader.prepare('select count(*) from t').pluck().get(), 1, 'snapshot kept inside the read transaction');
  reader.exec('commit');
  assert.equal(reader.prepare('select count(*) from t').pluck().get(), 2);
  reader.close();
  writer.close();
  assert.ok(existsSync(`${file}-wal`) || existsSync(file));
});
