// `npm test`: everything CI checks, in order — format/lint, types, the production bundles and the .vsix, then every
// test (unit, integration, Chromium, end-to-end) in one run of Node's test runner.
// `npm test -- test/core/metrics` runs only the tests under the given paths (after building).
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { type Cluster, clusterVariable, startCluster } from '../test/pg/pgCluster.ts';
import { ensureSystemPackages } from './systemPackages.ts';

const root = join(import.meta.dirname, '..');
const selected = process.argv.slice(2);

/** Runs one step; a failed step ends `npm test` unless it is `tolerated` (then its exit code is returned). */
function step(
  title: string,
  command: string,
  args: string[],
  tolerated = false,
  env: NodeJS.ProcessEnv = process.env,
): number {
  console.log(`\n▶ ${title}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env });
  if (result.status !== 0) {
    console.error(`✗ ${title} failed (exit ${result.status ?? result.signal})`);
    if (!tolerated) process.exit(result.status ?? 1);
  }
  return result.status ?? 1;
}

/** The test step running now, so that a signal to `npm test` reaches it. */
let running: ChildProcess | undefined;

/** A tolerated step run asynchronously (step's rules): a signal meanwhile ends it, then `npm test`, cleaning up. */
function testStep(title: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  console.log(`\n▶ ${title}`);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit', env });
    running = child;
    child.on('close', (status, signal) => {
      running = undefined;
      if (status !== 0) console.error(`✗ ${title} failed (exit ${status ?? signal})`);
      resolve(status ?? 1);
    });
  });
}

function testFiles(paths: string[]): string[] {
  const found: string[] = [];
  const visit = (path: string): void => {
    if (statSync(path).isDirectory()) {
      for (const entry of readdirSync(path).sort()) visit(join(path, entry));
    } else if (path.endsWith('.test.ts')) {
      found.push(relative(root, path));
    }
  };
  for (const path of paths) {
    const absolute = join(root, path);
    if (!existsSync(absolute)) {
      console.error(`no such test path: ${path}`);
      process.exit(2);
    }
    visit(absolute);
  }
  return found;
}

const npx = join(root, 'node_modules', '.bin');
// Chromium and the Kerberos headers come from Debian, not npm: installed here when missing and we are root (a bare
// machine, CI), otherwise the run stops at once with the command to type instead of failing test by test.
try {
  ensureSystemPackages('test');
} catch (error) {
  console.error(`✗ ${(error as Error).message}`);
  process.exit(1);
}
if (selected.length === 0) {
  step('lint and format (biome)', join(npx, 'biome'), ['check', '.']);
  step('type check (tsc --strict)', join(npx, 'tsc'), ['--noEmit', '-p', '.']);
  step('package (production bundles + .vsix)', 'npm', ['run', '--silent', 'package']);
} else {
  // The end-to-end tests install the packaged .vsix, so a subset builds the same artefacts as the full run.
  step('package (production bundles + .vsix)', 'npm', ['run', '--silent', 'package']);
}
const files = testFiles(selected.length > 0 ? selected : ['test']);
const endToEnd = files.filter((file) => file.startsWith(join('test', 'e2e')));
const others = files.filter((file) => !endToEnd.includes(file));
// Two test files at a time on the machine's two cores; but each end-to-end test runs a whole VS Code and a Chromium,
// and two of them beside each other (or beside the Chromium tests) starve both: they run after the rest, one at a time.
// Every test process gets a temp directory inside this run's own, so that whatever a test leaves behind (a browser
// profile, a crashed process's files) is found, named and removed at the end instead of piling up in /tmp.
// QRELS_STUDIO_KEEP_SCRATCH=1 keeps it (with the failures' screenshots and logs) and says where.
const keepScratch = process.env.QRELS_STUDIO_KEEP_SCRATCH === '1';
const machineTemp = tmpdir();
const runTemp = mkdtempSync(join(machineTemp, 'qrels-studio-npm-test-'));
process.env.TMPDIR = runTemp;
// One throwaway PostgreSQL cluster for the whole run (test/pg/pgCluster.ts), in the run's temp directory: every
// test process finds it in QRELS_STUDIO_PG_CLUSTER and makes its own databases in it. Stopped and removed at the end,
// also when a step ends the run early or a signal stops it.
let cluster: Cluster | undefined;
// Also when a step ends the run early (process.exit in step()).
process.on('exit', () => {
  cluster?.stop();
  if (keepScratch) console.error(`test scratch folders kept in ${runTemp}`);
  else rmSync(runTemp, { recursive: true, force: true });
});
// Ctrl+C or a CI's SIGTERM: the running tests get the signal and end, then the exit handler above cleans up.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    if (running === undefined) process.exit(128 + constants.signals[signal]);
    running.kill(signal);
    running.once('close', () => process.exit(128 + constants.signals[signal]));
  });
}
try {
  console.log('\n▶ a throwaway PostgreSQL cluster for the tests');
  cluster = await startCluster(runTemp);
  process.env[clusterVariable] = JSON.stringify({ host: cluster.host, port: cluster.port, user: cluster.user });
  console.log(`  on ${cluster.host}:${cluster.port}`);
} catch (error) {
  console.error(`✗ could not start PostgreSQL for the tests: ${(error as Error).message}`);
  process.exit(1);
}
let failed = 0;
if (others.length > 0) {
  failed = await testStep(`tests (${others.length} files)`, ['--test', '--test-concurrency=2', ...others]);
}
if (endToEnd.length > 0) {
  // Installing code-server (first run on a machine: about a minute and a half) is a step of its own, so that no
  // test's time limit has to cover it.
  // Not a test: it runs with the machine's temp directory (npm, which it runs, leaves a compile cache there).
  step(
    'code-server for the end-to-end tests',
    process.execPath,
    [join(root, 'scripts', 'ensureCodeServer.ts')],
    false,
    {
      ...process.env,
      TMPDIR: machineTemp,
    },
  );
  const title = `end-to-end tests (${endToEnd.length} files, one at a time)`;
  const status = await testStep(title, ['--test', '--test-concurrency=1', ...endToEnd]);
  failed ||= status;
}
cluster.stop();
cluster = undefined;
// Node's own compile cache (module.enableCompileCache: npm 11 turns it on, so any npm a test runs writes it) is shared
// by processes, not a test's leftover.
const leftovers = readdirSync(runTemp).filter((entry) => entry !== 'node-compile-cache');
if (leftovers.length > 0 && !keepScratch) {
  // scratchDir cleans up after every test process; anything here escaped it and is a bug in a test.
  console.error(
    `\n✗ the tests left ${leftovers.length} entries in the temp directory: ${leftovers.slice(0, 10).join(', ')}`,
  );
  failed ||= 1;
}
process.exit(failed);
