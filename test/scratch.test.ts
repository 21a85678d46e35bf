// Tests leave nothing in the temp directory: every scratchDir folder of a test process goes when the process exits,
// whether its tests passed, failed or threw.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { repoRoot, scratchDir } from './helpers.ts';

function runTestFile(source: string, env: NodeJS.ProcessEnv = {}): { status: number | null; temp: string[] } {
  const dir = scratchDir('scratch-test-');
  const temp = join(dir, 'tmp');
  mkdirSync(temp);
  const file = join(dir, 'subject.test.ts');
  writeFileSync(file, source.replace('HELPERS', pathToFileURL(join(repoRoot, 'test', 'helpers.ts')).href));
  // Without the parent runner's NODE_TEST_CONTEXT, the child reports (and exits) as a test run of its own.
  const { NODE_TEST_CONTEXT: _, ...inherited } = process.env;
  const result = spawnSync(process.execPath, ['--test', file], {
    encoding: 'utf8',
    env: { ...inherited, TMPDIR: temp, QRELS_STUDIO_KEEP_SCRATCH: '', ...env },
  });
  return { status: result.status, temp: readdirSync(temp) };
}

test('a failing test that made scratch folders leaves the temp directory empty', () => {
  const { status, temp } = runTestFile(`
    import { writeFileSync } from 'node:fs';
    import { join } from 'node:path';
    import { test } from 'node:test';
    import { scratchDir } from 'HELPERS';
    test('fails', () => {
      for (let i = 0; i < 3; i++) writeFileSync(join(scratchDir(), 'data.txt'), 'x'.repeat(1000));
      throw new Error('deliberately');
    });
  `);
  assert.equal(status, 1);
  assert.deepEqual(temp, []);
});

test('a test whose process dies of an uncaught error after making scratch folders leaves nothing either', () => {
  const { status, temp } = runTestFile(`
    import { test } from 'node:test';
    import { scratchDir } from 'HELPERS';
    test('throws later', () => {
      scratchDir();
      setTimeout(() => { throw new Error('uncaught'); }, 0);
    });
  `);
  assert.notEqual(status, 0);
  assert.deepEqual(temp, []);
});

test('a test process stopped by SIGTERM (a timeout, Ctrl+C) leaves nothing either, and exits as the signal would', () => {
  const dir = scratchDir('scratch-signal-');
  const temp = join(dir, 'tmp');
  mkdirSync(temp);
  const file = join(dir, 'subject.ts');
  writeFileSync(
    file,
    `import { scratchDir } from '${pathToFileURL(join(repoRoot, 'test', 'helpers.ts')).href}';
     scratchDir();
     process.kill(process.pid, 'SIGTERM');
     setTimeout(() => {}, 10_000);`,
  );
  const { NODE_TEST_CONTEXT: _, ...inherited } = process.env;
  const result = spawnSync(process.execPath, [file], {
    env: { ...inherited, TMPDIR: temp, QRELS_STUDIO_KEEP_SCRATCH: '' },
  });
  assert.equal(result.status, 128 + 15);
  assert.deepEqual(readdirSync(temp), []);
});

test('QRELS_STUDIO_KEEP_SCRATCH=1 keeps them, to inspect a failure', () => {
  const { temp } = runTestFile(
    `
    import { test } from 'node:test';
    import { scratchDir } from 'HELPERS';
    test('makes one', () => { scratchDir(); });
  `,
    { QRELS_STUDIO_KEEP_SCRATCH: '1' },
  );
  assert.equal(temp.length, 1);
  assert.match(temp[0]!, /^qrels-studio-tests-\d+-/);
});
