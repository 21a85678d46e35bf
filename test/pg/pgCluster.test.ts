// The test harness's own promises (test/pg/pgCluster.ts): each testDatabase() is a new, empty database; a process
// without the run's cluster starts one of its own and leaves nothing behind — no folder, no server — whether it
// exits or is stopped by a signal.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { scratchDir } from '../helpers.ts';
import { clusterVariable, testDatabase } from './pgCluster.ts';

test('each testDatabase() is a new, empty database of the same cluster', async () => {
  const first = await testDatabase();
  const second = await testDatabase();
  assert.notEqual(first.database, second.database);
  assert.equal(first.port, second.port);
  const client = new pg.Client(first);
  await client.connect();
  try {
    await client.query('CREATE TABLE mine (x integer)');
    const other = new pg.Client(second);
    await other.connect();
    const { rows } = await other.query("SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public'");
    await other.end();
    assert.deepEqual(rows, [{ n: 0 }]);
  } finally {
    await client.end();
  }
});

const harness = pathToFileURL(`${import.meta.dirname}/pgCluster.ts`).href;

/** A process with a cluster of its own: it prints the port, then exits (`exit`) or waits to be stopped. */
function childWithCluster(then: 'exit' | 'wait', temp: string) {
  const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: temp };
  delete env[clusterVariable];
  const script = `import { testDatabase } from ${JSON.stringify(harness)};
const { port } = await testDatabase();
console.log(port);
${then === 'exit' ? 'process.exit(0);' : 'setInterval(() => {}, 1000);'}`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = new Promise<number>((resolve, reject) => {
    child.stdout.setEncoding('utf8').once('data', (text: string) => resolve(Number(text.trim())));
    child.once('exit', (code) => reject(new Error(`exited ${code} before starting a cluster`)));
  });
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return { child, port, exited };
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

for (const ending of ['exit', 'SIGTERM', 'SIGINT'] as const) {
  test(`a process's own cluster is stopped and removed when it ends (${ending})`, async () => {
    const temp = scratchDir();
    const { child, port, exited } = childWithCluster(ending === 'exit' ? 'exit' : 'wait', temp);
    const serverPort = await port;
    if (ending !== 'exit') {
      assert.equal(await listening(serverPort), true);
      child.kill(ending);
    }
    await exited;
    assert.equal(await listening(serverPort), false);
    assert.deepEqual(readdirSync(temp), []);
  });
}
