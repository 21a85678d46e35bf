// The CLI as users start it: bin/qrels-studio.cjs → dist/cli.cjs, as real processes.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { nativeDir, runCliProcess } from '../helpers.ts';

test('version opens a WAL database through the bundled binding and reports SQLite', () => {
  const result = runCliProcess(['version', '--json']);
  assert.equal(result.status, 0, result.stderr);
  const report = JSON.parse(result.stdout);
  assert.match(report.sqliteVersion, /^3\.\d+\.\d+$/);
  assert.equal(report.journalMode, 'wal');
  assert.equal(report.walReadBack, true);
  assert.ok(report.nativeBinding.startsWith(nativeDir), report.nativeBinding);
  assert.equal(report.node, process.versions.node);
});

// This machine kind's system Node is 20 (the project's own is 24); elsewhere there may be no old Node to try.
const oldNode = '/usr/bin/node';
const oldNodeMajor = existsSync(oldNode)
  ? Number(execFileSync(oldNode, ['-p', 'process.versions.node.split(".")[0]'], { encoding: 'utf8' }))
  : 0;
const noOldNode = oldNodeMajor === 0 || oldNodeMajor >= 22 ? `no Node.js older than 22 at ${oldNode}` : false;

test('on an old Node the launcher hands over to the project Node instead of crashing', { skip: noOldNode }, () => {
  const result = runCliProcess(['version', '--json'], { node: oldNode });
  assert.equal(result.status, 0, result.stderr);
  assert.ok(Number(JSON.parse(result.stdout).node.split('.')[0]) >= 22);
});

test('on an old Node without the project Node it says what to do, with no stack trace', { skip: noOldNode }, () => {
  const result = runCliProcess(['version'], { node: oldNode, env: { QRELS_STUDIO_NO_REEXEC: '1' } });
  assert.equal(result.status, 1);
  assert.match(result.stderr, /needs Node\.js 22 or newer; this is Node\.js \d+\./);
  assert.match(result.stderr, /npm ci/);
  assert.doesNotMatch(result.stderr, /\n\s+at /);
});

test('unknown commands and arguments are usage errors (exit 2) with help, not stack traces', () => {
  const unknown = runCliProcess(['frobnicate']);
  assert.equal(unknown.status, 2);
  assert.match(unknown.stderr, /unknown command 'frobnicate'/);
  assert.match(unknown.stderr, /commands:\n/);
  const badArg = runCliProcess(['version', '--bogus']);
  assert.equal(badArg.status, 2);
  assert.match(badArg.stderr, /unknown argument '--bogus'\nusage: qrels-studio version/);
});
