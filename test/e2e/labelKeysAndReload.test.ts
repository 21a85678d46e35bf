// End to end in a real VS Code (code-server, the packaged .vsix) on a copy of the demo: the Label view's keys are
// VS Code keybindings — a user's keybindings.json moves "next pair" from j to l, and the view follows — and the
// panel comes back, working, after the window reloads (its serializer), without retainContextWhenHidden's help.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { repoRoot } from '../helpers.ts';
import { runFromPalette, workbenchTest } from './codeServer.ts';

/** The frame of the Label view's page (webviews live in nested iframes). */
async function labelFrame(page: Page, timeoutMs = 60_000): Promise<Frame> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const frame of page.frames()) {
      if (
        await frame
          .locator('[data-testid="pair"]')
          .count()
          .catch(() => 0)
      )
        return frame;
    }
    if (Date.now() > deadline) throw new Error('no Label view with a pair appeared');
    await page.waitForTimeout(250);
  }
}

workbenchTest(
  'the Label view: keys remapped in keybindings.json, and the panel restored after a window reload',
  {
    copyFrom: join(repoRoot, 'demo'),
    open: { file: 'README.md', text: 'Qrels Studio demo workspace' },
    // The user's own keybindings.json: "next pair" on l instead of j.
    keybindings: [
      { key: 'l', command: 'qrelsStudio.label.next', when: "activeWebviewPanelId == 'qrelsStudio.label'" },
      { key: 'j', command: '-qrelsStudio.label.next' },
    ],
    timeoutMs: 240_000,
  },
  async ({ page }, t) => {
    await page.locator('.activitybar .action-item a[aria-label^="Qrels Studio"]').click();
    const tree = page.locator('.pane-body .monaco-list-row');
    await tree.filter({ hasText: 'energy-dev' }).first().click({ timeout: 30_000 });
    let frame = await labelFrame(page);
    const position = () => frame.locator('[data-testid="position"]');
    const progress = () => frame.locator('[data-testid="progress"]');
    await frame.locator('[data-testid="query-text"]').click(); // focus inside the webview: keys go to it
    await position().filter({ hasText: 'pair 1 of 19' }).waitFor({ timeout: 15_000 });

    // A scale key (the study file's) labels in the view; k (a default keybinding) goes back.
    await page.keyboard.press('2');
    await progress().filter({ hasText: '1 / 19 judged' }).waitFor({ timeout: 15_000 });
    await position().filter({ hasText: 'pair 2 of 19' }).waitFor();
    await page.keyboard.press('k');
    await position().filter({ hasText: 'pair 1 of 19' }).waitFor({ timeout: 10_000 });
    // j is unbound now; l is "next pair".
    await page.keyboard.press('j');
    await page.waitForTimeout(1500);
    assert.match((await position().textContent()) ?? '', /^pair 1 of 19$/, 'j no longer moves');
    await page.keyboard.press('l');
    await position().filter({ hasText: 'pair 2 of 19' }).waitFor({ timeout: 10_000 });

    // Reload the window (as a user does, Developer: Reload Window): the Label view comes back by itself, on its
    // study, and labels.
    const reloaded = Date.now();
    await runFromPalette(page, '>Developer: Reload Window', 'Developer: Reload Window');
    await page.waitForEvent('load', { timeout: 30_000 });
    await page.locator('.monaco-workbench').waitFor({ timeout: 30_000 });
    await page.locator('.tabs-container .tab', { hasText: 'Label: energy-dev' }).waitFor({ timeout: 60_000 });
    frame = await labelFrame(page);
    await progress().filter({ hasText: '1 / 19 judged' }).waitFor({ timeout: 30_000 });
    t.diagnostic(`Label view back ${Date.now() - reloaded} ms after the reload`);
    await frame.locator('[data-testid="query-text"]').click();
    const before = await frame.locator('[data-testid="pair"]').getAttribute('data-pair-id');
    await page.keyboard.press('0');
    await progress().filter({ hasText: '2 / 19 judged' }).waitFor({ timeout: 15_000 });
    await frame.locator(`[data-testid="pair"]:not([data-pair-id="${before}"])`).waitFor();
    await page.keyboard.press('l');
    await page.keyboard.press('k');
    await frame.locator(`[data-testid="pair"]:not([data-pair-id="${before}"])`).waitFor();
  },
);
