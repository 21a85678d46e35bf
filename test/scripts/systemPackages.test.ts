// The step of `npm test` and `npm start` that gets Debian's packages onto a bare machine: root installs them with
// apt-get; anyone else gets the one command to run, before any test fails for want of them.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { installPlan, requirementsFor, type SystemRequirement } from '../../scripts/systemPackages.ts';
import { repoRoot } from '../helpers.ts';

const missing = (debianPackage: string): SystemRequirement => ({
  debianPackage,
  neededFor: `${debianPackage} things`,
  present: () => false,
});

test('nothing missing: nothing to do, whoever runs it', () => {
  assert.deepEqual(installPlan([], { root: false, aptGet: true }), { kind: 'nothing' });
  assert.deepEqual(installPlan([], { root: true, aptGet: true }), { kind: 'nothing' });
});

test('root with apt-get installs every missing package in one apt-get install, after an update', () => {
  const plan = installPlan([missing('chromium'), missing('libkrb5-dev')], { root: true, aptGet: true });
  assert.deepEqual(plan, {
    kind: 'install',
    packages: ['chromium', 'libkrb5-dev'],
    commands: [
      ['apt-get', 'update', '-qq'],
      ['apt-get', 'install', '-y', '-qq', 'chromium', 'libkrb5-dev'],
    ],
  });
});

test('not root: the message names each package, why, and the sudo command; without apt-get, what to look for', () => {
  const plan = installPlan([missing('chromium')], { root: false, aptGet: true });
  assert.equal(plan.kind, 'ask');
  assert.match(
    plan.kind === 'ask' ? plan.message : '',
    /chromium: chromium things\nrun: sudo apt-get install -y chromium$/,
  );
  assert.match(plan.kind === 'ask' ? plan.message : '', /this is not root/);
  const elsewhere = installPlan([missing('libkrb5-dev')], { root: true, aptGet: false });
  assert.match(elsewhere.kind === 'ask' ? elsewhere.message : '', /no apt-get on this machine/);
  assert.match(elsewhere.kind === 'ask' ? elsewhere.message : '', /equivalent of Debian's libkrb5-dev/);
});

test('npm test needs chromium, postgresql and the Kerberos headers; npm start only the headers', () => {
  assert.deepEqual(
    requirementsFor('test').map((r) => r.debianPackage),
    ['chromium', 'postgresql', 'libkrb5-dev'],
  );
  assert.deepEqual(
    requirementsFor('start').map((r) => r.debianPackage),
    ['libkrb5-dev'],
  );
});

const script = join(repoRoot, 'scripts', 'systemPackages.ts');

test('as a process on this machine (the test run itself needs both): silent, exit 0', () => {
  const result = spawnSync(process.execPath, [script, 'test'], { encoding: 'utf8' });
  assert.equal(result.status, 0, result.stderr);
  assert.equal(result.stdout + result.stderr, '');
});

test('as a non-root user with Chromium missing: exit 1, the sudo command, no apt-get run', (t) => {
  if (process.getuid?.() !== 0) return t.skip('needs root to run a process as another user');
  const asNobody = { uid: 65534, gid: 65534, env: { PATH: process.env.PATH, HOME: '/nonexistent' } };
  // A checkout under a folder only root may enter (/root/…) cannot be run as another user at all.
  const reachable = spawnSync(
    process.execPath,
    ['-e', `require('fs').accessSync(${JSON.stringify(script)})`],
    asNobody,
  );
  if (reachable.status !== 0) return t.skip(`user 65534 cannot reach ${script} or ${process.execPath} here`);
  const result = spawnSync(process.execPath, [script, 'test'], {
    ...asNobody,
    encoding: 'utf8',
    env: { ...asNobody.env, QRELS_STUDIO_CHROMIUM: '/nonexistent/chromium' },
  });
  assert.equal(result.status, 1, result.stderr);
  assert.match(
    result.stderr,
    /^✗ missing system packages .*\n {2}chromium: .*\nrun: sudo apt-get install -y chromium\n$/,
  );
});
