// What the seed workflows share: the CLI as a process (waited for, or alongside a test's LLM server) and the value
// of one `eval` line.
import assert from 'node:assert/strict';
import { runCliProcess } from '../../helpers.ts';

export { runCliAsync as cliAsync } from '../../helpers.ts';

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
