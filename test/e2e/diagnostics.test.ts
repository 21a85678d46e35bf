// End to end: the packaged .vsix in a real VS Code (code-server). Opening a qrels file with a duplicate judgment
// starts the bundled language server through the extension's language client, and its diagnostic reaches the
// editor: a red squiggle under the docid, the error count in the status bar, the message in the Problems panel.
import assert from 'node:assert/strict';
import { runFromPalette, workbenchTest } from './codeServer.ts';

const duplicateMessage =
  "document 'd1' is judged again for query 'q1': first judged on line 1 (trec_eval aborts on it)";

workbenchTest(
  'a duplicate judgment in bad.qrels shows as a duplicate-pair error in the editor and the Problems panel',
  { files: { 'bad.qrels': 'q1 0 d1 1\nq1 0 d2 0\nq1 0 d1 2\n' }, open: { file: 'bad.qrels', text: 'd2' } },
  async ({ page, server }, t) => {
    const started = Date.now();
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
  },
);
