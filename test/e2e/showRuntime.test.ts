// End to end: the packaged .vsix in a real VS Code (code-server), driven through the command palette by a real
// Chromium. Proves that the bundled better-sqlite3 binary loads inside code-server's extension host and that a WAL
// database works there. The first run installs code-server into .cache/ (a minute or two, in the `before` hook).
//
// QRELS_STUDIO_SCREENSHOTS=1 also writes the README screenshot, media/screenshots/runtime.png.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../helpers.ts';
import { runFromPalette, workbenchTest } from './codeServer.ts';

const version = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).version as string;
const commandTitle = 'Qrels Studio: Show version and runtime';

workbenchTest(
  '"Show version and runtime" loads the bundled SQLite in code-server\'s extension host',
  {
    files: { 'sample.qrels': '101 0 doc-17 2\n101 0 doc-42 0\n102 0 doc-08 1\n' },
    open: { file: 'sample.qrels', text: 'doc-17' },
  },
  async ({ page, server, scratch }, t) => {
    const started = Date.now();
    await runFromPalette(page, `>${commandTitle}`, commandTitle);
    const toast = page.locator('.notification-toast', { hasText: `Qrels Studio ${version} ·` });
    await toast.waitFor({ state: 'visible', timeout: 30_000 });
    const message = ((await toast.locator('.notification-list-item-message').textContent()) ?? '').trim();
    t.diagnostic(`notification: ${message}`);
    t.diagnostic(`workbench to notification: ${Date.now() - started} ms`);

    assert.match(message, new RegExp(`^Qrels Studio ${version.replaceAll('.', '\\.')} · host VS Code \\d+\\.\\d+`));
    assert.ok(message.includes('Node.js 24'), message);
    assert.match(message, /Node\.js 24\.\d+\.\d+ \(N-API 10, ABI 137\)/);
    assert.ok(message.includes('SQLite 3.'), message);
    assert.ok(message.includes('journal wal, WAL read-back ok'), message);
    assert.match(message, new RegExp(`platform ${process.platform}-${process.arch}`));

    // The output channel names the binary that was loaded: the one shipped in the installed extension.
    await runFromPalette(page, '>Output: Show Output Channels', 'Output: Show Output Channels');
    await page.locator('.quick-input-widget input').fill('Qrels Studio');
    await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: 'Qrels Studio' }).waitFor();
    await page.keyboard.press('Enter');
    const outputLines = page.locator('.part.panel .view-lines', { hasText: 'better_sqlite3' });
    await outputLines.waitFor({ timeout: 10_000 });
    // Monaco renders spaces as no-break spaces and soft-wraps long lines: compare without any whitespace.
    const output = ((await outputLines.textContent()) ?? '').replace(/\s+/g, '');
    const binding = join(
      server.extensionsDir,
      `qrels-studio.qrels-studio-${version}`,
      'dist',
      'native',
      `better_sqlite3-${process.platform}-${process.arch}.node`,
    );
    assert.ok(output.includes(binding.replace(/\s+/g, '')), `output channel does not name ${binding}:\n${output}`);

    // Negative checks: no error notification from the command, and the extension host did not report a failed
    // activation or a binding that could not be loaded.
    const errors = await page.locator('.notification-toast', { hasText: 'Qrels Studio:' }).allInnerTexts();
    assert.deepEqual(errors, [], 'an error notification appeared');
    assert.equal(await page.locator('.notification-toast .codicon-error').count(), 0, 'a notification shows an error');
    const hostLog = server.extensionHostLog();
    assert.match(hostLog, /qrels-studio\.qrels-studio/, 'the extension host log does not mention the extension');
    assert.doesNotMatch(hostLog, /Activating extension .?qrels-studio\.qrels-studio.? failed/i);
    assert.doesNotMatch(hostLog, /NODE_MODULE_VERSION|invalid ELF header|Runtime check failed/);

    // Expanded, the notification shows the whole report: that is the picture for the README.
    await toast.hover();
    await toast.locator('.codicon-notifications-expand').click();
    await page
      .locator('.notification-toast.notification-fade-in-done', { hasText: `Qrels Studio ${version}` })
      .waitFor();
    const screenshot =
      process.env.QRELS_STUDIO_SCREENSHOTS === '1'
        ? join(repoRoot, 'media', 'screenshots', 'runtime.png')
        : join(scratch, 'runtime.png');
    mkdirSync(join(screenshot, '..'), { recursive: true });
    await page.screenshot({ path: screenshot });
    t.diagnostic(`screenshot: ${screenshot}`);
  },
);
