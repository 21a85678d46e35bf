// End to end: in a real VS Code (code-server) with the packaged .vsix, a keyword misspelt on the line after a name
// list (`annotators alice bob`, then `blnd`) is an error — not a third annotator — and a field the data file does
// not have (`text: question`, the file has `query`) is an error too; each is corrected by the quick fix picked from
// the editor's own quick-fix menu, and the study file is then free of errors.
import { pickQuickFix, workbenchTest } from './codeServer.ts';

const study = `study "wqt-dev" {
  guidelines "guidelines.md"
  queries "queries.jsonl" { id: qid  text: question }
  corpus  "tables.jsonl"  { id: table_id  body: table }
  scale binary { 0 "No" key "0"  1 "Yes" key "1" }
  annotators alice bob
  blnd
}
`;

workbenchTest(
  'a misspelt keyword after a name list and an unknown field: errors, each corrected by its quick fix',
  {
    files: {
      'wqt.assess': study,
      'guidelines.md': '# Guidelines\n',
      'queries.jsonl': '{"qid": "q1", "query": "medal tables"}\n',
      'tables.jsonl': '{"table_id": "t1", "table": "| a |"}\n',
    },
    open: { file: 'wqt.assess', text: 'blnd' },
  },
  async ({ page }, t) => {
    const started = Date.now();
    const problems = page.locator('.statusbar-item#status\\.problems');
    await page
      .locator('.statusbar-item#status\\.problems[aria-label*="Errors: 2"]')
      .waitFor({ timeout: 45_000 })
      .catch(async (error) => {
        throw new Error(`expected 2 errors, status bar says ${await problems.getAttribute('aria-label')}`, {
          cause: error,
        });
      });
    t.diagnostic(`workbench to two errors: ${Date.now() - started} ms`);

    const pickFix = (position: string, title: string) => pickQuickFix(page, position, title);

    await pickFix('7:4', 'Replace `blnd` with `blind`');
    await page.locator('.editor-instance .view-lines', { hasText: 'blind' }).waitFor({ timeout: 20_000 });
    await page.locator('.statusbar-item#status\\.problems[aria-label*="Errors: 1"]').waitFor({ timeout: 20_000 });

    await pickFix('3:46', "Use field 'query'");
    await page.locator('.editor-instance .view-lines', { hasText: 'text: query' }).waitFor({ timeout: 20_000 });
    await page.locator('.editor-instance .squiggly-error').first().waitFor({ state: 'detached', timeout: 20_000 });
    t.diagnostic(`both fixed and re-checked after ${Date.now() - started} ms`);
  },
);
