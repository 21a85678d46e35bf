// What the seed workflows share: the CLI as a process (waited for, or alongside a test's LLM server) and the value
// of one `eval` line.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cliLauncher, runCliProcess } from '../../helpers.ts';

/** The CLI as a process that runs while the test goes on (its LLM server answers meanwhile). */
export function cliAsync(
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [cliLauncher, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => {
    stdout += text;
  });
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    stderr += text;
  });
  return new Promise((resolve) => {
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** Runs the CLI in `cwd`, which must succeed; its standard output. */
export function cli(cwd: string, ...args: string[]): string {
  const result = runCliProcess(args, { cwd });
  assert.equal(result.status, 0, `${args.join(' ')}\n${result.stderr}`);
  return result.stdout;
}

/** The value of trec_eval's line `name <tab> key <tab> value` (key `all`: the summary). */
export function value(stdout: string, name: string, key = 'all'): number {
  const match = new RegExp(`^${name}\\s*\\t${key}\\t(-?\\d+\\.\\d{4})$`, 'm').exec(stdout);
  assert.ok(match, `no line ${name} ${key} in\n${stdout}`);
  return Number(match[1]);
}
