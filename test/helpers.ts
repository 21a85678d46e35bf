// Shared by tests: paths of the built artefacts and a way to run the real CLI as a process.
import { type SpawnSyncReturns, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import { join } from 'node:path';
import { isMainThread } from 'node:worker_threads';

export const repoRoot = join(import.meta.dirname, '..');
export const distDir = join(repoRoot, 'dist');
export const nativeDir = join(distDir, 'native');
/** Test data copied into the project (test/fixtures/README.md says where each file comes from). */
export const fixturesDir = join(repoRoot, 'test', 'fixtures');
export const cliLauncher = join(repoRoot, 'bin', 'qrels-studio.cjs');

/** QRELS_STUDIO_KEEP_SCRATCH=1 keeps every test's scratch folders (and says where) to inspect a failure. */
export const keepScratch = process.env.QRELS_STUDIO_KEEP_SCRATCH === '1';
let processScratch: string | undefined;

/**
 * A fresh folder for one test's files. All of a test process's folders live in one folder of the temp directory
 * that is removed when the process exits — passed, failed or thrown — so no run leaves anything behind.
 */
export function scratchDir(prefix = 'qrels-studio-test-'): string {
  // A worker thread (the fuzz targets) sees no exit event of its own and no signals: its folders are made directly
  // in the temp directory, and the code that made one removes it (in a `finally`).
  if (!isMainThread) return mkdtempSync(join(tmpdir(), prefix));
  if (processScratch === undefined) {
    const root = mkdtempSync(join(tmpdir(), `qrels-studio-tests-${process.pid}-`));
    processScratch = root;
    const cleanUp = (): void => {
      if (keepScratch) console.error(`test scratch folders kept: ${root}`);
      else rmSync(root, { recursive: true, force: true });
    };
    process.on('exit', cleanUp);
    // A test process stopped by a signal (the runner's timeout, Ctrl+C) runs no exit handlers: clean up and exit
    // as the signal would have (128 + its number). Exiting ourselves, because other handlers (Playwright's close
    // browsers on SIGTERM) would keep the process alive after a re-sent signal.
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
      process.once(signal, () => process.exit(128 + constants.signals[signal]));
    }
  }
  return mkdtempSync(join(processScratch, prefix));
}

/** Runs bin/qrels-studio.cjs as a real process with the given Node (the project's by default). */
export function runCliProcess(
  args: string[],
  options: { node?: string; cwd?: string; env?: NodeJS.ProcessEnv; input?: string } = {},
): SpawnSyncReturns<string> {
  return spawnSync(options.node ?? process.execPath, [cliLauncher, ...args], {
    cwd: options.cwd ?? repoRoot,
    env: { ...process.env, ...options.env },
    encoding: 'utf8',
    input: options.input,
    maxBuffer: 256 * 1024 * 1024,
  });
}

export interface CliFinished {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * The CLI as a process that runs while the test goes on (a test's LLM server must keep answering meanwhile): the
 * child (to kill), its end, and what it wrote to stderr so far. `nodeArgs` go to Node before the launcher (a preload).
 */
export function startCliProcess(args: string[], cwd: string, env: NodeJS.ProcessEnv, nodeArgs: string[] = []) {
  const child = spawn(process.execPath, [...nodeArgs, cliLauncher, ...args], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => {
    stdout += text;
  });
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    stderr += text;
  });
  const finished = new Promise<CliFinished>((resolve) => {
    child.on('close', (status, signal) => resolve({ status, signal, stdout, stderr }));
  });
  return { child, finished, stderr: () => stderr };
}

/** The CLI as a background process, awaited. */
export function runCliAsync(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<CliFinished> {
  return startCliProcess(args, cwd, env).finished;
}

/** A small seeded generator (mulberry32) of numbers in [0, 1): the same sequence on every run (the bootstrap's). */
export { seededRandom } from '../core/agreement/bootstrap.ts';
