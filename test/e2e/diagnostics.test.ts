// End to end: the packaged .vsix in a real VS Code (code-server). Opening a qrels file with a duplicate judgment
// starts the bundled language server through the extension's language client, and its diagnostic reaches the
// editor: a red squiggle under the docid, the error count in the status bar, the message in the Problems panel.
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { ensureCodeServer } from '../../scripts/ensureCodeServer.ts';
import { distDir, scratchDir } from '../helpers.ts';
import {
  type Browser,
  type CodeServer,
  launchChromium,
  processesOf,
  runFromPalette,
  startCodeServer,
} from './codeServer.ts';

const builtVsix = join(distDir, 'qrels-studio.vsix');
const duplicateMessage =
  "document 'd1' is judged again for query 'q1': first judged on line 1 (trec_eval aborts on it)";

const scratch = scratchDir('qrels-studio-e2e-diagnostics-');
let server: CodeServer | undefined;
let browser: Browser | undefined;
let failed = false;

before(async () => {
  assert.ok(existsSync(builtVsix), `${builtVsix} is missing: run \`npm run package\` first (\`npm test\` does)`);
  // The first run installs code-server (minutes, so not under the test's timeout); later runs return at once.
  await ensureCodeServer();
});

after(async () => {
  // Each step runs even if an earlier one throws: no browser, code-server or language server may outlive the test.
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

test('a duplicate judgment in bad.qrels shows as a duplicate-pair error in the editor and the Problems panel', {
  timeout: 120_000,
}, async (t) => {
  let page: Page | undefined;
  try {
    // A private copy: other builds may rewrite dist/ while this test runs.
    const vsix = join(scratch, 'qrels-studio.vsix');
    copyFileSync(builtVsix, vsix);
    const folder = join(scratch, 'workspace');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'bad.qrels'), 'q1 0 d1 1\nq1 0 d2 0\nq1 0 d1 2\n');

    server = await startCodeServer({ scratch, folder, extensions: [vsix] });
    browser = await launchChromium(join(scratch, 'chromium'), { viewport: { width: 1280, height: 720 } });
    page = browser.page;

    const started = Date.now();
    await page.goto(server.workbenchUrl);
    await page.locator('.monaco-workbench').waitFor({ timeout: 30_000 });
    const fileRow = page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'bad.qrels' });
    await fileRow.waitFor({ timeout: 30_000 });
    await fileRow.click();
    await page.locator('.editor-instance .view-lines', { hasText: 'd2' }).waitFor({ timeout: 10_000 });

    // The squiggle: opening a `qrels` document activates the extension, which starts the server, which lints.
    await page.locator('.editor-instance .squiggly-error').first().waitFor({ timeout: 45_000 });
    t.diagnostic(`workbench to squiggle: ${Date.now() - started} ms`);
    // The status bar counts one error and no warning.
    const problems = page.locator('.statusbar-item#status\\.problems');
    await problems.waitFor({ timeout: 10_000 });
    const counts = (await problems.getAttribute('aria-label')) ?? '';
    assert.match(counts, /Errors: 1\b/);
    assert.doesNotMatch(counts, /Warnings: [1-9]/);

    await runFromPalette(page, '>View: Focus Problems', 'View: Focus Problems');
    const row = page.locator('.markers-panel .monaco-list-row', { hasText: duplicateMessage });
    await row.waitFor({ timeout: 10_000 });
    const rowText = ((await row.textContent()) ?? '').replace(/\s+/g, ' ');
    t.diagnostic(`problems row: ${rowText}`);
    assert.ok(rowText.includes('duplicate-pair'), rowText);
    assert.ok(rowText.includes('qrels-studio'), rowText);
    assert.match(rowText, /\[Ln 3, Col 6\]/);
    // Its related information, a row below it, points at the first judgment.
    const related = page.locator('.markers-panel .monaco-list-row', {
      hasText: "first judgment of 'd1' for query 'q1'",
    });
    await related.waitFor({ timeout: 10_000 });
    assert.match((await related.textContent()) ?? '', /bad\.qrels\s*\[Ln 1, Col 6\]/);
    // One error for the file: the duplicate, nothing else.
    const rows = await page.locator('.markers-panel .monaco-list-row').allTextContents();
    assert.equal(rows.filter((text) => text.includes('qrels-studio')).length, 1, rows.join('\n'));

    // The client's output channel is there under its name.
    await runFromPalette(page, '>Output: Show Output Channels', 'Output: Show Output Channels');
    await page.locator('.quick-input-widget input').fill('Qrels Studio Language Server');
    await page
      .locator('.quick-input-list .monaco-list-row.focused', { hasText: 'Qrels Studio Language Server' })
      .waitFor({ timeout: 10_000 });
    await page.keyboard.press('Escape');

    const hostLog = server.extensionHostLog();
    assert.doesNotMatch(hostLog, /Activating extension .?qrels-studio\.qrels-studio.? failed/i);
  } catch (error) {
    failed = true;
    if (page) {
      await page.screenshot({ path: join(scratch, 'failure.png') }).catch(() => {});
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
