// End to end: a study file in a real VS Code (code-server) with the packaged .vsix. A misspelt keyword in a
// `.assess` file starts the language server (the extension activates on the `assess` language), shows as an
// error squiggle, and its quick fix — picked from the editor's own quick-fix menu — corrects the text and clears it.
import assert from 'node:assert/strict';
import { pickQuickFix, workbenchTest } from './codeServer.ts';

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

    // The quick fix that corrects the misspelt word, picked from the editor's own menu (cursor at 2:5).
    await pickQuickFix(page, '2:5', 'Replace `guidlines` with `guidelines`');
    await page.locator('.editor-instance .view-lines', { hasText: 'guidelines "guidelines.md"' }).waitFor({
      timeout: 20_000,
    });
    await page.locator('.editor-instance .squiggly-error').first().waitFor({ state: 'detached', timeout: 20_000 });
    t.diagnostic(`fixed and re-checked after ${Date.now() - started} ms`);
  },
);
