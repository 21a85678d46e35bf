// The CLI run inside the test process (cli/main.ts's runCli, as bin/qrels-studio.cjs runs it), with its output
// collected: for tests that need a store the test itself opens beside the command (a PostgreSQL test database).
import { runCli } from '../../cli/main.ts';
import { nativeDir } from '../helpers.ts';

export interface CliResult {
  status: number;
  stdout: string;
  stderr: string;
}

/** `qrels-studio ...args` in `cwd`: its exit status and everything it printed. */
export async function cliInProcess(cwd: string, ...args: string[]): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const status = await runCli(args, {
    productVersion: 'test',
    nativeDir,
    cwd,
    stdout: (text) => {
      stdout += typeof text === 'string' ? text : Buffer.from(text).toString('utf8');
    },
    stderr: (text) => {
      stderr += text;
    },
  });
  return { status, stdout, stderr };
}

/**
 * libpq's environment naming `database` (host, port, user, database; no password, no stores setting) — what a user
 * of the CLI sets to reach a server — for this process, so that an in-process `store` command finds the database.
 */
export function useDatabaseForCli(database: {
  host?: unknown;
  port?: unknown;
  user?: unknown;
  database: string;
}): void {
  Object.assign(process.env, {
    PGHOST: String(database.host),
    PGPORT: String(database.port),
    PGUSER: String(database.user),
    PGDATABASE: database.database,
    PGPASSWORD: '',
    QRELS_STUDIO_STORES: '',
  });
}
