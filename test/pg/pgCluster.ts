// Throwaway PostgreSQL clusters for the tests: a real server (Debian's PostgreSQL 15), never a mock. `npm test`
// (scripts/test.ts) starts one cluster per run before the tests and names it to every test process in
// QRELS_STUDIO_PG_CLUSTER; `testDatabase()` gives each caller a fresh, empty database in it (migratedTestDatabase() of
// test/pg/migratedDatabase.ts a fresh one at the newest schema, copied from a migrated template). A test file run
// alone (no such variable) starts a cluster of its own on first use and stops and removes it when the process exits.
//
// PostgreSQL refuses to run as root: as root the cluster belongs to the `postgres` OS user (Debian's package makes
// it), initdb and pg_ctl run through `runuser -u postgres`, in a scratch folder it owns; as anyone else they run
// directly. The server listens on a free port of 127.0.0.1 and on a socket in its folder, trusts every local
// connection (`-A trust`; startCluster's `auth: 'scram-sha-256'` makes a cluster that asks passwords), and its
// superuser is `owner`. `stopServer('immediate')` and `startServer()` kill and restart it: a test that stops or
// kills a server starts a cluster of its own with startCluster() (and stops it), never the run's, which the other
// test processes are using.
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { constants, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';

/** The environment variable that names the run's cluster to the test processes (JSON of ClusterAddress). */
export const clusterVariable = 'QRELS_STUDIO_PG_CLUSTER';

export interface ClusterAddress {
  host: string;
  port: number;
  /** The cluster's superuser. */
  user: string;
}

export interface Cluster extends ClusterAddress {
  /** The superuser's password, when the cluster asks for one (ClusterOptions.auth). */
  password?: string;
  /** The scratch folder: data/, the log, the socket. */
  dir: string;
  /** Stops the server (`immediate`: as a crash would) and leaves the folder. */
  stopServer(mode?: 'fast' | 'immediate'): void;
  /** Starts the stopped server again on the same port. */
  startServer(): void;
  /** Stops the server and removes the folder. Synchronous, so that it can run in an exit handler. */
  stop(): void;
}

const superuser = 'owner';
const isRoot = process.getuid?.() === 0;

/** The folder of initdb and pg_ctl: Debian's newest /usr/lib/postgresql/N/bin, else wherever PATH finds initdb. */
export function postgresBinDir(): string | undefined {
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((name) => /^\d+$/.test(name) && existsSync(join(debian, name, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions.length > 0) return join(debian, versions[0]!, 'bin');
  }
  const found = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' });
  const path = found.status === 0 ? found.stdout.trim() : '';
  return path === '' ? undefined : dirname(path);
}

function run(bin: string, program: string, args: string[]): void {
  const command = isRoot ? 'runuser' : join(bin, program);
  const commandArgs = isRoot ? ['-u', 'postgres', '--', join(bin, program), ...args] : args;
  const result = spawnSync(command, commandArgs, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.status !== 0) {
    throw new Error(
      `${program} ${args.join(' ')} failed (exit ${result.status ?? result.signal}): ${result.stderr || result.stdout}`,
    );
  }
}

/** A port of 127.0.0.1 nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject()));
    });
  });
}

/** As root, the postgres user must be able to reach its folder: every folder above it gets search permission. */
function openPathFor(dir: string): void {
  for (let folder = dirname(dir); folder !== dirname(folder); folder = dirname(folder)) {
    const mode = statSync(folder).mode;
    if ((mode & 0o001) === 0) chmodSync(folder, (mode & 0o7777) | 0o711);
  }
}

export interface ClusterOptions {
  /**
   * How the server checks who connects: `trust` (the default) lets anyone be any role; `scram-sha-256` asks every
   * role its password (role and row-level-security tests), the superuser's being `password`.
   */
  auth?: 'trust' | 'scram-sha-256';
  /** The superuser's password under `scram-sha-256` (default `owner-secret`). */
  password?: string;
}

/** Starts a new cluster in a scratch folder of the temp directory (`parent`). */
export async function startCluster(parent = tmpdir(), options: ClusterOptions = {}): Promise<Cluster> {
  const auth = options.auth ?? 'trust';
  const password = auth === 'trust' ? undefined : (options.password ?? 'owner-secret');
  const bin = postgresBinDir();
  if (bin === undefined) throw new Error('no PostgreSQL here (initdb): apt-get install -y postgresql');
  const dir = mkdtempSync(join(parent, 'qrels-studio-pg-'));
  let port = 0;
  let running = false;
  const stopServer = (mode: 'fast' | 'immediate' = 'fast'): void => {
    if (!running) return;
    running = false;
    run(bin, 'pg_ctl', ['-D', join(dir, 'data'), '-m', mode, '-w', 'stop']);
  };
  const startServer = (): void => {
    // TCP on 127.0.0.1 only: a Unix socket's path is limited to ~107 bytes, which a nested scratch folder exceeds.
    const options = `-c unix_socket_directories='' -p ${port} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=200`;
    run(bin, 'pg_ctl', ['-D', join(dir, 'data'), '-o', options, '-l', join(dir, 'log'), '-w', '-t', '60', 'start']);
    running = true;
  };
  const stop = (): void => {
    try {
      stopServer('immediate');
    } catch {
      // Already stopped (a signal reached the server first): the folder goes all the same.
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    if (isRoot) {
      openPathFor(dir);
      const ids = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
      const groups = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
      if (ids.status !== 0) throw new Error('no `postgres` OS user (apt-get install -y postgresql makes it)');
      chownSync(dir, Number(ids.stdout.trim()), Number(groups.stdout.trim()));
    }
    const passwordFile = join(dir, 'password');
    if (password !== undefined) {
      writeFileSync(passwordFile, `${password}\n`, { mode: 0o644 });
    }
    run(bin, 'initdb', [
      '-D',
      join(dir, 'data'),
      '-A',
      auth,
      '-U',
      superuser,
      ...(password === undefined ? [] : [`--pwfile=${passwordFile}`]),
      '-E',
      'UTF8',
      '--locale=C.UTF-8',
      '--no-sync',
    ]);
    rmSync(passwordFile, { force: true });
    // Another process may take the free port between the look and the start: a few tries.
    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      try {
        startServer();
        break;
      } catch (error) {
        const log = existsSync(join(dir, 'log')) ? readFileSync(join(dir, 'log'), 'utf8') : '';
        if (attempt >= 3 || !/could not (bind|create)/i.test(log)) throw error;
      }
    }
  } catch (error) {
    stop();
    throw error;
  }
  return {
    host: '127.0.0.1',
    port,
    user: superuser,
    ...(password !== undefined && { password }),
    dir,
    stopServer,
    startServer,
    stop,
  };
}

let processCluster: Promise<ClusterAddress> | undefined;

/** The cluster of this run (QRELS_STUDIO_PG_CLUSTER), or one this process starts on first use and stops at exit. */
export function runCluster(): Promise<ClusterAddress> {
  processCluster ??= (async () => {
    const named = process.env[clusterVariable];
    if (named !== undefined && named !== '') return JSON.parse(named) as ClusterAddress;
    const cluster = await startCluster();
    process.on('exit', () => cluster.stop());
    // A signal runs no exit handler: exit as the signal would have (128 + its number), which runs them.
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
      process.once(signal, () => process.exit(128 + constants.signals[signal]));
    }
    return { host: cluster.host, port: cluster.port, user: cluster.user };
  })();
  return processCluster;
}

let databases = 0;

export interface TestDatabaseOptions {
  /**
   * The database to copy (`CREATE DATABASE … TEMPLATE`); nobody may be connected to it. By default the cluster's
   * template1: an empty database. test/pg/migratedDatabase.ts's migratedTestDatabase() passes the migrated template.
   */
  template?: string;
}

/**
 * A fresh database in the run's cluster, for one test: how to connect to it (a pg ClientConfig). Empty (unmigrated)
 * unless `options.template` names a database to copy.
 */
export async function testDatabase(options: TestDatabaseOptions = {}): Promise<pg.ClientConfig & { database: string }> {
  const { host, port, user } = await runCluster();
  databases += 1;
  const database = `test_${process.pid}_${databases}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ host, port, user, database: 'postgres' });
  await admin.connect();
  try {
    const template = options.template === undefined ? '' : ` TEMPLATE "${options.template}"`;
    await admin.query(`CREATE DATABASE "${database}"${template}`);
  } finally {
    await admin.end();
  }
  return { host, port, user, database };
}
