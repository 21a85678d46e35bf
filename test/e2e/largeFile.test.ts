// End to end: a qrels file over 50 MB, which VS Code shows but never hands to extensions, in a real VS Code
// (code-server) with the packaged .vsix. The extension's client sees the open tab, names the file to the language
// server, which lints it from disk: its one problem reaches the Problems panel.
import assert from 'node:assert/strict';
import { runFromPalette, workbenchTest } from './codeServer.ts';

/** ~52 MB of clean judgments, then one with a fractional label. */
function largeQrels(): string {
  const lines: string[] = [];
  for (let q = 0; q < 20_000; q++) {
    for (let d = 0; d < 100; d++) lines.push(`query-${q} 0 document-${q}-${d} ${d % 4}`);
  }
  lines.push('query-0 0 document-extra 1.5');
  return `${lines.join('\n')}\n`;
}

workbenchTest(
  'a qrels file over 50 MB is linted from disk and its problem shows in the Problems panel',
  { files: { 'huge.qrels': largeQrels() }, open: { file: 'huge.qrels' } },
  async ({ page }, t) => {
    const started = Date.now();
    const problems = page.locator('.statusbar-item#status\\.problems');
    await problems.waitFor({ timeout: 10_000 });
    for (;;) {
      if (/Errors: 1\b/.test((await problems.getAttribute('aria-label')) ?? '')) break;
      if (Date.now() - started > 90_000) assert.fail('no error reported for huge.qrels within 90 s');
      await page.waitForTimeout(250);
    }
    t.diagnostic(`workbench to diagnostics: ${Date.now() - started} ms`);
    await runFromPalette(page, '>View: Focus Problems', 'View: Focus Problems');
    const row = page.locator('.markers-panel .monaco-list-row', { hasText: "relevance label '1.5' is not an integer" });
    await row.waitFor({ timeout: 10_000 });
    assert.match((await row.textContent()) ?? '', /\[Ln 2000001, Col 26\]/);
  },
);
