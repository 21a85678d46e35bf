// A real VS Code: code-server (installed into .cache/ by ensureCodeServer.ts) started on 127.0.0.1 with the packaged
// .vsix, for `npm start` (scripts/start.ts) and the end-to-end tests (test/e2e/codeServer.ts).
//
// Everything lives in a scratch directory (HOME, XDG dirs, user data, extensions, config), never the user's home.
// Every process code-server starts carries a marker in its environment, so stop() can find and kill all of them —
// the extension host and language servers included — and check that none is left.

import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ensureCodeServer } from './ensureCodeServer.ts';

const markerVariable = 'QRELS_STUDIO_E2E_RUN';

export interface CodeServerOptions {
  /** Scratch directory that receives everything code-server writes. */
  scratch: string;
  /** Folder to open in the workbench. */
  folder: string;
  /** .vsix files to install before starting. */
  extensions?: string[];
  /** VS Code user settings (merged over quiet defaults). */
  settings?: Record<string, unknown>;
  /**
   * The remote machine's user settings (user-data/Machine/settings.json, "Preferences: Open Remote Settings"): where
   * code-server reads settings of scope `machine` and `machine-overridable`, which it ignores in the user settings.
   */
  machineSettings?: Record<string, unknown>;
  /** The user's keybindings.json entries (none by default). */
  keybindings?: readonly Record<string, unknown>[];
  startTimeoutMs?: number;
  /** Port on 127.0.0.1; a free one by default. */
  port?: number;
}

export interface CodeServer {
  url: string;
  /** The workbench URL with the folder opened. */
  workbenchUrl: string;
  pid: number;
  userDataDir: string;
  extensionsDir: string;
  /** What code-server printed so far (stdout and stderr). */
  output(): string;
  /** Text of every extension-host log written so far. */
  extensionHostLog(): string;
  /** Stops code-server and every process it started; resolves once none is left (throws if one survives). */
  stop(): Promise<void>;
}

/** Quiet defaults: no welcome page, tips, telemetry, update checks or AI panels in the way of the test. */
const defaultSettings: Record<string, unknown> = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'chat.disableAIFeatures': true,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'security.workspace.trust.enabled': false,
  'git.enabled': false,
};

export async function startCodeServer(options: CodeServerOptions): Promise<CodeServer> {
  const entry = await ensureCodeServer();
  const dirs = {
    home: join(options.scratch, 'home'),
    config: join(options.scratch, 'home', '.config'),
    data: join(options.scratch, 'home', '.local', 'share'),
    cache: join(options.scratch, 'home', '.cache'),
    state: join(options.scratch, 'home', '.local', 'state'),
    tmp: join(options.scratch, 'tmp'),
    userData: join(options.scratch, 'user-data'),
    extensions: join(options.scratch, 'extensions'),
  };
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
  mkdirSync(join(dirs.userData, 'User'), { recursive: true });
  writeFileSync(
    join(dirs.userData, 'User', 'settings.json'),
    JSON.stringify({ ...defaultSettings, ...options.settings }, null, 2),
  );
  if (options.machineSettings) {
    mkdirSync(join(dirs.userData, 'Machine'), { recursive: true });
    writeFileSync(join(dirs.userData, 'Machine', 'settings.json'), JSON.stringify(options.machineSettings, null, 2));
  }
  if (options.keybindings) {
    writeFileSync(join(dirs.userData, 'User', 'keybindings.json'), JSON.stringify(options.keybindings, null, 2));
  }
  const port = options.port ?? (await freePort());
  const configFile = join(options.scratch, 'code-server.yaml');
  writeFileSync(configFile, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);

  const env = scratchEnv(dirs, options.scratch);
  const common = ['--config', configFile, '--user-data-dir', dirs.userData, '--extensions-dir', dirs.extensions];

  for (const vsix of options.extensions ?? []) {
    if (!existsSync(vsix)) throw new Error(`${vsix} does not exist; build it with \`npm run package\``);
    const result = spawnSync(process.execPath, [entry, ...common, '--install-extension', vsix, '--force'], {
      env,
      encoding: 'utf8',
      timeout: 60_000,
    });
    const printed = `${result.stdout}${result.stderr}`;
    if (result.status !== 0 || !/successfully installed/i.test(printed)) {
      throw new Error(`code-server --install-extension ${vsix} failed (exit ${result.status}):\n${printed}`);
    }
  }

  const args = [
    entry,
    ...common,
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--auth',
    'none',
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--ignore-last-opened',
    options.folder,
  ];
  // Own process group (detached), so stop() can signal code-server and its children at once.
  const child = spawn(process.execPath, args, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let printed = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    printed += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    printed += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const marker = options.scratch;

  const server: CodeServer = {
    url: `http://127.0.0.1:${port}/`,
    workbenchUrl: `http://127.0.0.1:${port}/?folder=${encodeURIComponent(options.folder)}`,
    pid: child.pid!,
    userDataDir: dirs.userData,
    extensionsDir: dirs.extensions,
    output: () => printed,
    extensionHostLog: () => readLogs(join(dirs.userData, 'logs'), /exthost.*\.log$|remoteexthost\.log$/),
    stop: () => stopAll(child, exited, marker),
  };
  try {
    await waitForHealth(server.url, child, options.startTimeoutMs ?? 30_000, () => printed);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return server;
}

/** The processes (pid and command line) that carry this run's marker: code-server and everything it started. */
export function processesOf(marker: string): { pid: number; command: string }[] {
  if (process.platform !== 'linux') return [];
  const found: { pid: number; command: string }[] = [];
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      const environ = readFileSync(`/proc/${pid}/environ`, 'utf8');
      if (!environ.split('\0').includes(`${markerVariable}=${marker}`)) continue;
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
      found.push({ pid, command });
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

async function stopAll(child: ChildProcess, exited: Promise<void>, marker: string): Promise<void> {
  const signalGroup = (signal: NodeJS.Signals): void => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // the group is already gone
    }
  };
  const signalMarked = (signal: NodeJS.Signals): void => {
    for (const { pid } of processesOf(marker)) {
      try {
        process.kill(pid, signal);
      } catch {
        // exited meanwhile
      }
    }
  };
  const running = (): boolean =>
    (child.exitCode === null && child.signalCode === null) || processesOf(marker).some(({ pid }) => !isZombie(pid));
  const waitUntilGone = async (ms: number): Promise<void> => {
    const deadline = Date.now() + ms;
    while (running() && Date.now() < deadline) await Promise.race([exited, sleep(100)]);
  };
  // Politely first (the extension host and language servers exit within ~3 s), then by force. Children that left
  // the process group (setsid) are still found by the marker in their environment.
  signalGroup('SIGTERM');
  signalMarked('SIGTERM');
  await waitUntilGone(8000);
  if (running()) {
    signalGroup('SIGKILL');
    signalMarked('SIGKILL');
    await waitUntilGone(3000);
  }
  const left = processesOf(marker).filter(({ pid }) => !isZombie(pid));
  if (left.length > 0) {
    throw new Error(
      `processes left running after stopping code-server:\n${left.map((p) => `${p.pid} ${p.command}`).join('\n')}`,
    );
  }
}

function isZombie(pid: number): boolean {
  try {
    return /\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

/**
 * The environment code-server runs in: home, XDG and temp dirs in the scratch dir, nothing from an outer VS Code (its
 * VSCODE_* variables would make the CLI talk to that instance) or from the test runner, plus the run marker.
 */
function scratchEnv(
  dirs: { home: string; config: string; data: string; cache: string; state: string; tmp: string },
  marker: string,
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith('VSCODE_') || key.startsWith('NODE_TEST') || key === 'NODE_OPTIONS') continue;
    if (key === 'ELECTRON_RUN_AS_NODE' || key.startsWith('npm_')) continue;
    env[key] = value;
  }
  return {
    ...env,
    HOME: dirs.home,
    XDG_CONFIG_HOME: dirs.config,
    XDG_DATA_HOME: dirs.data,
    XDG_CACHE_HOME: dirs.cache,
    XDG_STATE_HOME: dirs.state,
    // VS Code leaves its IPC sockets (vscode-ipc-*.sock) in the temp dir: keep them in the scratch dir too.
    TMPDIR: dirs.tmp,
    [markerVariable]: marker,
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitForHealth(url: string, child: ChildProcess, timeoutMs: number, printed: () => string) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`code-server exited (${child.signalCode ?? child.exitCode}) before answering:\n${printed()}`);
    }
    try {
      const response = await fetch(new URL('healthz', url), { signal: AbortSignal.timeout(1000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`code-server did not answer ${url}healthz within ${timeoutMs} ms:\n${printed()}`);
}

function readLogs(dir: string, name: RegExp): string {
  if (!existsSync(dir)) return '';
  let text = '';
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && name.test(entry.name)) text += readFileSync(join(entry.parentPath, entry.name), 'utf8');
  }
  return text;
}
