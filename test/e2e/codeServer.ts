// End-to-end helpers: a real VS Code (code-server from .cache/, see scripts/ensureCodeServer.ts) running the packaged
// .vsix, and a real headless Chromium (Debian's, driven by playwright-core) to use it.
//
// Everything lives in a scratch directory (HOME, XDG dirs, user data, extensions, config), never the user's home.
// Every process code-server starts carries a marker in its environment, so stop() can find and kill all of them —
// the extension host and language servers included — and check that none is left.

import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { after, before, type TestContext, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { ensureCodeServer } from '../../scripts/ensureCodeServer.ts';
import { distDir, scratchDir } from '../helpers.ts';
import { assertChromiumInstalled, chromiumArgs, chromiumPath } from '../webview/chromium.ts';

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
  startTimeoutMs?: number;
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
  const port = await freePort();
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

export interface Browser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/** Debian's Chromium, headless, with a fresh profile (and HOME) in `profileDir`. */
export async function launchChromium(
  profileDir: string,
  options: { viewport?: { width: number; height: number }; colorScheme?: 'light' | 'dark' } = {},
): Promise<Browser> {
  assertChromiumInstalled();
  // Chromium writes crash-report databases and caches under HOME/XDG dirs: keep those inside the profile too.
  const home = join(profileDir, 'home');
  mkdirSync(home, { recursive: true });
  const context = await chromium.launchPersistentContext(join(profileDir, 'profile'), {
    executablePath: chromiumPath,
    env: {
      ...process.env,
      HOME: home,
      XDG_CONFIG_HOME: join(home, '.config'),
      XDG_CACHE_HOME: join(home, '.cache'),
      XDG_DATA_HOME: join(home, '.local', 'share'),
    },
    headless: true,
    args: chromiumArgs,
    viewport: options.viewport ?? { width: 1280, height: 800 },
    colorScheme: options.colorScheme ?? 'light',
    timeout: 30_000,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return { context, page, close: () => context.close() };
}

/**
 * Runs a command through the palette: F1, type, wait until the wanted row is the selected one, Enter. The palette
 * lists what was registered when it opened, and on a busy machine an extension's commands can register a few
 * seconds after the workbench shows: a palette without the row is closed and opened again, until `timeoutMs`.
 */
export async function runFromPalette(page: Page, query: string, row: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const input = page.locator('.quick-input-widget input');
  const wanted = page.locator('.quick-input-list .monaco-list-row.focused', { hasText: row });
  for (;;) {
    await page.keyboard.press('F1');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    await input.fill(query);
    try {
      await wanted.waitFor({ timeout: Math.max(1000, Math.min(5000, deadline - Date.now())) });
      break;
    } catch (error) {
      if (Date.now() >= deadline) throw error;
      await page.keyboard.press('Escape');
      await input.waitFor({ state: 'hidden', timeout: 10_000 });
    }
  }
  await page.keyboard.press('Enter');
}

export interface WorkbenchSession {
  page: Page;
  server: CodeServer;
  /** Everything this test writes lives here; kept (with failure.png) when the test fails. */
  scratch: string;
}

export interface WorkbenchTestOptions {
  /** Files of the workspace folder, by name. */
  files: Record<string, string>;
  /** The file opened in an editor before `body` runs, and a piece of its text that shows it is displayed. */
  open: { file: string; text?: string };
}

/**
 * One end-to-end test file's test: the packaged .vsix (a private copy: builds may rewrite dist/ meanwhile) in a
 * fresh code-server with the workbench open in Chromium on a workspace holding `files`, `open.file` in an editor.
 * Registers the hooks that install code-server once (outside the test's timeout) and that stop Chromium,
 * code-server and everything it started even when the test fails, checking that nothing is left running.
 */
export function workbenchTest(
  name: string,
  options: WorkbenchTestOptions,
  body: (session: WorkbenchSession, t: TestContext) => Promise<void>,
): void {
  const builtVsix = join(distDir, 'qrels-studio.vsix');
  const scratch = scratchDir('qrels-studio-e2e-');
  let server: CodeServer | undefined;
  let browser: Browser | undefined;
  let failed = false;

  before(async () => {
    assert.ok(existsSync(builtVsix), `${builtVsix} is missing: run \`npm run package\` first (\`npm test\` does)`);
    await ensureCodeServer();
  });

  after(async () => {
    try {
      await browser?.close();
    } finally {
      try {
        await server?.stop();
        assert.deepEqual(processesOf(scratch), [], 'code-server processes left running');
      } finally {
        if (failed) console.error(`e2e scratch directory kept for inspection: ${scratch}`);
        else rmSync(scratch, { recursive: true, force: true });
      }
    }
  });

  test(name, { timeout: 120_000 }, async (t) => {
    let page: Page | undefined;
    try {
      const vsix = join(scratch, 'qrels-studio.vsix');
      copyFileSync(builtVsix, vsix);
      const folder = join(scratch, 'workspace');
      mkdirSync(folder, { recursive: true });
      for (const [file, text] of Object.entries(options.files)) writeFileSync(join(folder, file), text);

      server = await startCodeServer({ scratch, folder, extensions: [vsix] });
      browser = await launchChromium(join(scratch, 'chromium'), { viewport: { width: 1280, height: 720 } });
      page = browser.page;
      const started = Date.now();
      await page.goto(server.workbenchUrl);
      await page.locator('.monaco-workbench').waitFor({ timeout: 30_000 });
      // The explorer lists the workspace once the workbench has restored; only then do keybindings reach it.
      const fileRow = page.locator('.explorer-folders-view .monaco-list-row', { hasText: options.open.file });
      await fileRow.waitFor({ timeout: 30_000 });
      await fileRow.click();
      // A file too large for the text editor shows a placeholder instead of its text: then its tab is enough.
      await (options.open.text === undefined
        ? page.locator('.tabs-container .tab', { hasText: options.open.file })
        : page.locator('.editor-instance .view-lines', { hasText: options.open.text })
      ).waitFor({ timeout: 10_000 });
      t.diagnostic(`workbench ready with ${options.open.file} in ${Date.now() - started} ms`);

      await body({ page, server, scratch }, t);
    } catch (error) {
      failed = true;
      if (page) {
        await page.screenshot({ path: join(scratch, 'failure.png') }).catch(() => {});
        const rows = await page.locator('.quick-input-widget .monaco-list-row').allTextContents();
        if (rows.length > 0) t.diagnostic(`command palette at failure:\n${rows.join('\n')}`);
        const panel = await page
          .locator('.part.panel')
          .innerText()
          .catch(() => '');
        if (panel) t.diagnostic(`panel at failure:\n${panel.slice(0, 4000)}`);
      }
      if (server) {
        t.diagnostic(`code-server output:\n${server.output().slice(-4000)}`);
        t.diagnostic(`extension host log:\n${server.extensionHostLog().slice(-4000)}`);
      }
      t.diagnostic(`failure screenshot and logs: ${scratch}`);
      throw error;
    }
  });
}
