// End-to-end helpers: a real VS Code (code-server, started by scripts/codeServerProcess.ts with the packaged .vsix)
// and a real headless Chromium (Debian's, driven by playwright-core) to use it.
import assert from 'node:assert/strict';
import { copyFileSync, cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { after, before, type TestContext, test } from 'node:test';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { type CodeServer, processesOf, startCodeServer } from '../../scripts/codeServerProcess.ts';
import { ensureCodeServer } from '../../scripts/ensureCodeServer.ts';
import { distDir, keepScratch, scratchDir } from '../helpers.ts';
import { assertChromiumInstalled, chromiumArgs, chromiumPath } from '../webview/chromium.ts';

export { type CodeServer, processesOf, startCodeServer };

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

/**
 * Puts the cursor at `position` ("line:column", by Go to Line/Column), opens the quick fixes (Ctrl+.) and picks the
 * one titled `title`, as a user would. The menu can open before the language server's fixes for a new diagnostic
 * have arrived ("No code actions available"): then it is closed and asked for again, until `timeoutMs`.
 */
export async function pickQuickFix(page: Page, position: string, title: string, timeoutMs = 30_000): Promise<void> {
  const fix = page.locator('.action-widget .monaco-list-row', { hasText: title });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await runFromPalette(page, '>Go to Line/Column', 'Go to Line/Column');
    await page.waitForFunction(
      () => document.querySelector<HTMLInputElement>('.quick-input-widget input')?.value === ':',
    );
    await page.keyboard.type(position);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Control+.');
    try {
      await fix.waitFor({ timeout: 5000 });
      break;
    } catch (error) {
      if (Date.now() >= deadline) throw error;
      await page.keyboard.press('Escape');
    }
  }
  await fix.click();
}

export interface WorkbenchSession {
  page: Page;
  server: CodeServer;
  /** Everything this test writes lives here; kept (with failure.png) when the test fails. */
  scratch: string;
  /** The workspace folder open in the workbench. */
  folder: string;
}

export interface WorkbenchTestOptions {
  /** Files of the workspace folder, by name. */
  files?: Record<string, string>;
  /** A folder whose whole content is copied into the workspace first (the demo workspace). */
  copyFrom?: string;
  /** The user's keybindings.json, in place before VS Code starts. */
  keybindings?: readonly Record<string, unknown>[];
  /**
   * The user's settings.json entries (over code-server's quiet defaults), in place before VS Code starts; a function
   * is asked when the test starts (after the file's `before` hooks: a server's port known by then).
   */
  settings?: Record<string, unknown> | (() => Record<string, unknown>);
  /**
   * The remote machine's settings (user-data/Machine/settings.json): where code-server reads settings of scope
   * `machine-overridable` (`qrelsStudio.stores`); a function, as for `settings`.
   */
  machineSettings?: Record<string, unknown> | (() => Record<string, unknown>);
  /** The test's time limit (default two minutes). */
  timeoutMs?: number;
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
        // A failure's screenshot and logs stay only when asked for (QRELS_STUDIO_KEEP_SCRATCH=1): a test run leaves
        // nothing behind in the temp directory.
        if (failed && keepScratch) console.error(`e2e scratch directory kept for inspection: ${scratch}`);
        else rmSync(scratch, { recursive: true, force: true });
      }
    }
  });

  test(name, { timeout: options.timeoutMs ?? 120_000 }, async (t) => {
    let page: Page | undefined;
    try {
      const vsix = join(scratch, 'qrels-studio.vsix');
      copyFileSync(builtVsix, vsix);
      const folder = join(scratch, 'workspace');
      mkdirSync(folder, { recursive: true });
      // Without databases a local `npm start` may have left: every run starts from the files.
      const local = (path: string): boolean => basename(path) === '.qrels-studio';
      if (options.copyFrom) cpSync(options.copyFrom, folder, { recursive: true, filter: (path) => !local(path) });
      for (const [file, text] of Object.entries(options.files ?? {})) writeFileSync(join(folder, file), text);

      server = await startCodeServer({
        scratch,
        folder,
        extensions: [vsix],
        ...(options.keybindings && { keybindings: options.keybindings }),
        ...(options.settings && {
          settings: typeof options.settings === 'function' ? options.settings() : options.settings,
        }),
        ...(options.machineSettings && {
          machineSettings:
            typeof options.machineSettings === 'function' ? options.machineSettings() : options.machineSettings,
        }),
      });
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
      ).waitFor({ timeout: 30_000 });
      t.diagnostic(`workbench ready with ${options.open.file} in ${Date.now() - started} ms`);

      await body({ page, server, scratch, folder }, t);
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
