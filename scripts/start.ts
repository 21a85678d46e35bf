// `npm start`: build and package the extension, then open it on a copy of the demo workspace (demo/ copied to
// .cache/demo-workspace/ by scripts/demoWorkspace.ts, so what is tried there never changes demo/) — in desktop VS Code when
// a `code` command is on PATH (as an extension under development), otherwise in code-server on 127.0.0.1, installed on
// first use into .cache/ (scripts/ensureCodeServer.ts), with the packaged .vsix. Says what it does and how long
// each step took; stops with the exact command to run when something it cannot install itself is missing.
//   QRELS_STUDIO_CODE_SERVER=1   use code-server even when `code` is on PATH
//   PORT=8080                    code-server's port (default: 8080, or a free one when that is taken)
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { startCodeServer } from './codeServerProcess.ts';
import { prepareDemoWorkspace } from './demoWorkspace.ts';
import { ensureCodeServer, isCodeServerInstalled } from './ensureCodeServer.ts';
import { ensureSystemPackages } from './systemPackages.ts';

const root = join(import.meta.dirname, '..');
const vsix = join(root, 'dist', 'qrels-studio.vsix');

async function step<T>(title: string, run: () => T | Promise<T>): Promise<T> {
  const started = performance.now();
  process.stdout.write(`▶ ${title}…\n`);
  const result = await run();
  process.stdout.write(`  done in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  return result;
}

function onPath(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

await step('build and package the extension (npm run package)', () => {
  const result = spawnSync('npm', ['run', '--silent', 'package'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
});

const { folder: demo, made } = prepareDemoWorkspace(join(root, 'demo'), join(root, '.cache', 'demo-workspace'));
const said = {
  new: 'a fresh copy of demo/',
  kept: 'your copy of demo/ from an earlier run; delete it to start over',
  renewed: 'demo/ changed since the last run: a fresh copy replaces the old one',
};
console.log(`▶ demo workspace: ${demo} (${said[made]})`);

if (onPath('code') && process.env.QRELS_STUDIO_CODE_SERVER !== '1') {
  console.log(`▶ opening VS Code on ${demo} with the extension under development (${root})`);
  const code = spawn('code', ['--extensionDevelopmentPath', root, demo], { stdio: 'inherit', detached: true });
  code.unref();
  process.exit(0);
}

try {
  ensureSystemPackages('start');
  if (!isCodeServerInstalled()) {
    console.log('▶ installing code-server into .cache/ (first use only: about 2–3 minutes, ~620 MB)…');
  }
  const started = performance.now();
  await ensureCodeServer({ log: (line) => console.log(`  ${line}`) });
  console.log(`  code-server ready in ${((performance.now() - started) / 1000).toFixed(1)} s`);
} catch (error) {
  console.error(`✗ ${(error as Error).message}`);
  process.exit(1);
}

const wanted = Number(process.env.PORT ?? 8080);
const port = (await portIsFree(wanted)) ? wanted : undefined;
const scratch = join(root, '.cache', 'demo-code-server');
const server = await step('start code-server with the packaged extension', () =>
  startCodeServer({
    scratch,
    folder: demo,
    extensions: [vsix],
    ...(port !== undefined && { port }),
    settings: { 'workbench.colorTheme': 'Default Dark Modern', 'workbench.startupEditor': 'none' },
    startTimeoutMs: 60_000,
  }),
);
console.log(`\nQrels Studio demo: ${server.workbenchUrl}\n(Ctrl+C stops code-server and everything it started.)`);
let stopping = false;
const stop = async (): Promise<void> => {
  if (stopping) return;
  stopping = true;
  await server.stop();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
