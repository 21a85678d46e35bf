// The Label view as the extension opens it in VS Code: its keyboard commands (next, previous, undo, note, help, …)
// are VS Code keybindings, so the page leaves those keys to the workbench — VS Code forwards a key press the page
// does not stop, from a listener on the page's window, which this test plays — and does what the host sends back
// (label/keyAction). The study's scale keys, Esc and typing in the note stay in the page and are never forwarded.
// The page also keeps what the panel shows in VS Code's webview state, for the panel serializer after a reload.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { labelRequestHandlers } from '../../../extension/panels/labelHandlers.ts';
import { launchChromium } from '../chromium.ts';
import { type CountingServer, openWebview, startWebviewServer, webviewDistDir } from '../webviewHost.ts';
import { createLabelStudy, simpleStudy } from './labelStudy.ts';

let browser: Browser;
let server: CountingServer;
const cleanups: (() => Promise<void> | void)[] = [];

before(async () => {
  assert.ok(existsSync(join(webviewDistDir, 'label.js')), 'dist/webview/label.js is missing: build it first');
  browser = await launchChromium();
  server = await startWebviewServer();
});

after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await browser?.close();
  await server?.close();
});

/** Records what reaches the page's window, as VS Code's key forwarder (pre/index.html) does. */
async function recordForwarded(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { forwarded: string[] }).forwarded = seen;
    window.addEventListener('keydown', (e) => seen.push(e.repeat ? `${e.key} (held)` : e.key));
  });
  return () => page.evaluate(() => [...(window as unknown as { forwarded: string[] }).forwarded]);
}

const position = (page: Page) => page.locator('[data-testid="position"]');

test('with VS Code keybindings: j/k/u/n go to the workbench and come back as actions; scale keys, Esc and notes stay', {
  timeout: 60_000,
}, async () => {
  const labelled = await createLabelStudy(simpleStudy(2, 3));
  cleanups.push(() => labelled.close());
  const session = await labelled.session('alice');
  const panelState = { studyFile: labelled.studyFile, study: 'dev' };
  const view = await openWebview(browser, server, {
    name: 'label',
    handlers: labelRequestHandlers(() => session),
    page: { hostKeybindings: true, panelState },
  });
  cleanups.push(() => view.close());
  const { page } = view;
  await page.locator('[data-testid="pair"]').waitFor();
  const forwarded = await recordForwarded(page);
  await position(page).filter({ hasText: 'pair 1 of 6' }).waitFor();

  // The panel's state is in VS Code's webview state from the start, for its serializer.
  assert.deepEqual(
    await page.evaluate(() => (window as unknown as { qrelsStudioWebviewState(): unknown }).qrelsStudioWebviewState()),
    {
      panel: panelState,
    },
  );

  // j is the workbench's (a keybinding, maybe remapped): the page does not move by itself…
  await page.keyboard.press('j');
  await page.waitForTimeout(300);
  assert.match((await position(page).textContent()) ?? '', /^pair 1 of 6$/);
  // …but does what the keybinding's command sends back.
  view.host.postEvent('label/keyAction', { action: { kind: 'move', delta: 1 } });
  await position(page).filter({ hasText: 'pair 2 of 6' }).waitFor();

  // A scale key labels in the page itself, and is not forwarded.
  const before = await page.locator('[data-testid="pair"]').getAttribute('data-pair-id');
  await page.keyboard.press('2');
  await page.locator(`[data-testid="pair"]:not([data-pair-id="${before}"])`).waitFor();
  await page.locator('[data-testid="progress"]').filter({ hasText: '1 / 6 judged' }).waitFor();
  assert.deepEqual(labelled.db.prepare('SELECT pair_id AS pairId, label FROM current_judgment').all(), [
    { pairId: Number(before), label: 2 },
  ]);

  // The note: opened by its command; what is typed in it (j, u, n…) is text, not a command.
  view.host.postEvent('label/keyAction', { action: { kind: 'note' } });
  const note = page.locator('[data-testid="note"]');
  await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'note');
  await page.keyboard.type('just unsure');
  assert.equal(await note.inputValue(), 'just unsure');
  await page.keyboard.press('F1'); // types nothing: the workbench's (the command palette)
  await page.keyboard.press('Escape');
  assert.match((await position(page).textContent()) ?? '', /^pair 3 of 6$/);

  // A held key is one command: its repeats do not reach the workbench (a held u undoes one label, not all).
  await page.keyboard.down('u');
  await page.keyboard.down('u');
  await page.keyboard.down('u');
  await page.keyboard.up('u');
  view.host.postEvent('label/keyAction', { action: { kind: 'undo' } });
  await page.locator('[data-testid="progress"]').filter({ hasText: '0 / 6 judged' }).waitFor();

  assert.deepEqual(await forwarded(), ['j', 'F1', 'u']);
  assert.deepEqual(view.errors, []);
});

test('without VS Code (no keybindings): the page maps every key itself, and keeps no panel state', {
  timeout: 60_000,
}, async () => {
  const labelled = await createLabelStudy(simpleStudy(1, 3));
  cleanups.push(() => labelled.close());
  const session = await labelled.session('alice');
  const view = await openWebview(browser, server, { name: 'label', handlers: labelRequestHandlers(() => session) });
  cleanups.push(() => view.close());
  await view.page.locator('[data-testid="pair"]').waitFor();
  await view.page.keyboard.press('j');
  await position(view.page).filter({ hasText: 'pair 2 of 3' }).waitFor();
  assert.equal(
    await view.page.evaluate(() =>
      (window as unknown as { qrelsStudioWebviewState(): unknown }).qrelsStudioWebviewState(),
    ),
    undefined,
  );
});
