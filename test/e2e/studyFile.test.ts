// End to end: a study file in a real VS Code (code-server) with the packaged .vsix. A misspelt keyword in a
// `.assess` file starts the language server (the extension activates on the `assess` language), shows as an
// error squiggle, and its quick fix — picked from the editor's own quick-fix menu — corrects the text and clears it.
import assert from 'node:assert/strict';
import { runFromPalette, workbenchTest } from './codeServer.ts';

const study = `study "wqt-dev" {
  guidlines "guidelines.md"
  queries "queries.jsonl" { id: qid  text: query }
  corpus  "tables.jsonl"  { id: table_id  body: table }
  scale binary { 0 "No" key "0"  1 "Yes" key "1" }
}
`;

workbenchTest(
  'a misspelt keyword in a study file is an error with a quick fix that corrects it',
  {
    files: {
      'wqt.assess': study,
      'guidelines.md': '# Guidelines\n',
      'queries.jsonl': '{"qid": "q1", "query": "medal tables"}\n',
      'tables.jsonl': '{"table_id": "t1", "table": "| a |"}\n',
    },
    open: { file: 'wqt.assess', text: 'guidlines' },
  },
  async ({ page }, t) => {
    const started = Date.now();
    await page.locator('.editor-instance .squiggly-error').first().waitFor({ timeout: 45_000 });
    t.diagnostic(`workbench to squiggle: ${Date.now() - started} ms`);
    const problems = page.locator('.statusbar-item#status\\.problems');
    assert.match((await problems.getAttribute('aria-label')) ?? '', /Errors: 1\b/);

    // Put the cursor in the misspelt word (Go to Line/Column 2:5), open its quick fixes (Ctrl+.) and pick the one
    // that corrects it, as a user would. The menu can open before the server's fixes for the new diagnostic have
    // arrived ("No code actions available"): then it is closed and asked for again.
    const fix = page.locator('.action-widget .monaco-list-row', {
      hasText: 'Replace `guidlines` with `guidelines`',
    });
    const deadline = Date.now() + 30_000;
    for (;;) {
      await runFromPalette(page, '>Go to Line/Column', 'Go to Line/Column');
      await page.waitForFunction(
        () => document.querySelector<HTMLInputElement>('.quick-input-widget input')?.value === ':',
      );
      await page.keyboard.type('2:5');
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
    await page.locator('.editor-instance .view-lines', { hasText: 'guidelines "guidelines.md"' }).waitFor({
      timeout: 20_000,
    });
    await page.locator('.editor-instance .squiggly-error').first().waitFor({ state: 'detached', timeout: 20_000 });
    t.diagnostic(`fixed and re-checked after ${Date.now() - started} ms`);
  },
);
