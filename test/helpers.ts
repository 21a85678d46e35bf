// Shared by tests: paths of the built artefacts and a way to run the real CLI as a process.
import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const repoRoot = join(import.meta.dirname, '..');
export const distDir = join(repoRoot, 'dist');
export const nativeDir = join(distDir, 'native');
/** Test data copied into the project (test/fixtures/README.md says where each file comes from). */
export const fixturesDir = join(repoRoot, 'test', 'fixtures');
export const cliLauncher = join(repoRoot, 'bin', 'qrels-studio.cjs');

export function scratchDir(prefix = 'qrels-studio-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
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
