// The runtime panel's bundle in real Chromium, with the test playing VS Code's host (see ../webviewHost.ts).
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import type { RuntimeReport } from '../../../core/runtime/runtimeReport.ts';
import { launchChromium } from '../chromium.ts';
import {
  type CountingServer,
  type OpenWebview,
  openWebview,
  startCountingServer,
  startWebviewServer,
  webviewDistDir,
} from '../webviewHost.ts';

const report: RuntimeReport = {
  productVersion: '0.1.0',
  host: 'VS Code 1.139.1 (web)',
  node: '24.21.0',
  napi: '10',
  abi: '137',
  platform: 'linux',
  arch: 'x64',
  sqliteVersion: '3.50.4',
  journalMode: 'wal',
  walReadBack: true,
  nativeBinding: '/home/user/.vscode/extensions/qrels-studio/dist/native/better_sqlite3-linux-x64.node',
};

let browser: Browser;
let server: CountingServer;
let remote: CountingServer;
const open: OpenWebview<'runtime/check'>[] = [];

before(async () => {
  assert.ok(
    existsSync(join(webviewDistDir, 'runtime.js')),
    'dist/webview/runtime.js is missing: build it first (`npm run build`; `npm test` does)',
  );
  browser = await launchChromium();
  server = await startWebviewServer();
  // Another origin, standing for "the web": the page must never reach it.
  remote = await startCountingServer((_path, response) => response.writeHead(200).end('x'));
});

after(async () => {
  for (const view of open) await view.close();
  await browser?.close();
  await server?.close();
  await remote?.close();
});

async function openRuntimePanel(check: () => RuntimeReport | Promise<RuntimeReport>) {
  const view = await openWebview(browser, server, {
    name: 'runtime',
    handlers: { 'runtime/check': () => check() },
    // Like the extension: the report is posted at once and the host holds it until the view says ready.
    beforeLoad: (host) => host.postEvent('runtime/report', { result: { ok: true, value: report } }),
  });
  open.push(view);
  return view;
}

function cell(view: OpenWebview<'runtime/check'>, field: keyof RuntimeReport) {
  return view.page.locator(`vscode-table-row[data-field="${field}"] vscode-table-cell`).nth(1);
}

test('the panel says ready first, then shows the report the host sent', { timeout: 30_000 }, async () => {
  const view = await openRuntimePanel(() => report);
  await cell(view, 'sqliteVersion').filter({ hasText: '3.50.4' }).waitFor();
  assert.deepEqual(view.received[0], { kind: 'ready' }, 'ready is the first message');
  assert.equal(view.received.filter((m) => (m as { kind: string }).kind === 'ready').length, 1, 'ready once');
  assert.deepEqual(view.posted, [{ kind: 'runtime/report', data: { result: { ok: true, value: report } } }]);

  assert.equal(await cell(view, 'productVersion').textContent(), '0.1.0');
  assert.equal(await cell(view, 'host').textContent(), 'VS Code 1.139.1 (web)');
  assert.equal(await cell(view, 'node').textContent(), '24.21.0');
  assert.equal(await cell(view, 'napi').textContent(), '10');
  assert.equal(await cell(view, 'platform').textContent(), 'linux-x64');
  assert.equal(await cell(view, 'journalMode').textContent(), 'wal');
  assert.match((await cell(view, 'walReadBack').textContent()) ?? '', /^ok/);
  assert.equal(await cell(view, 'nativeBinding').textContent(), report.nativeBinding);
  assert.equal(await view.page.locator('h1').textContent(), 'Qrels Studio runtime');
  assert.deepEqual(view.errors, []);

  const screenshots = process.env.QRELS_STUDIO_SCREENSHOTS;
  if (screenshots) {
    mkdirSync(screenshots, { recursive: true });
    await view.page.screenshot({ path: join(screenshots, 'runtime-panel.png') });
  }
});

test('"Run check again" sends runtime/check with an id and shows the reply', { timeout: 30_000 }, async () => {
  let answer: (value: RuntimeReport) => void = () => {};
  const view = await openRuntimePanel(() => new Promise<RuntimeReport>((resolve) => (answer = resolve)));
  await cell(view, 'sqliteVersion').filter({ hasText: '3.50.4' }).waitFor();

  const button = view.page.locator('vscode-button', { hasText: 'Run check again' });
  await button.click();
  await view.page.getByText('Checking…').waitFor();
  assert.equal(await button.getAttribute('disabled'), '', 'the button is disabled while the host works');

  const request = view.received.at(-1) as { kind: string; id: number; params: unknown };
  assert.equal(request.kind, 'runtime/check');
  assert.ok(Number.isSafeInteger(request.id), 'the request has a numeric id');
  assert.deepEqual(request.params, {});

  answer({ ...report, sqliteVersion: '3.51.0', walReadBack: false });
  await cell(view, 'sqliteVersion').filter({ hasText: '3.51.0' }).waitFor();
  assert.deepEqual(view.posted.at(-1), {
    kind: 'reply',
    id: request.id,
    ok: true,
    value: { ...report, sqliteVersion: '3.51.0', walReadBack: false },
  });
  assert.match((await cell(view, 'walReadBack').textContent()) ?? '', /^FAILED/);
  assert.equal(await button.getAttribute('disabled'), null, 'the button is enabled again');

  await button.click();
  await view.page.getByText('Checking…').waitFor();
  const second = view.received.at(-1) as { id: number };
  assert.notEqual(second.id, request.id, 'each request has its own id');
  answer(report);
  await cell(view, 'sqliteVersion').filter({ hasText: '3.50.4' }).waitFor();
  assert.deepEqual(view.errors, []);
});

test('an error reply is shown as a message, not a broken view', { timeout: 30_000 }, async () => {
  const view = await openRuntimePanel(() => {
    throw new Error('SQLite binary for linux-x64 not found at /nowhere/better_sqlite3-linux-x64.node');
  });
  await cell(view, 'sqliteVersion').filter({ hasText: '3.50.4' }).waitFor();
  await view.page.locator('vscode-button', { hasText: 'Run check again' }).click();

  const alert = view.page.getByRole('alert');
  await alert.waitFor();
  assert.equal(
    await alert.textContent(),
    'Runtime check failed: SQLite binary for linux-x64 not found at /nowhere/better_sqlite3-linux-x64.node',
  );
  const reply = view.posted.at(-1);
  assert.ok(reply?.kind === 'reply' && !reply.ok, 'the host replied with an error value');
  assert.equal(await view.page.locator('vscode-table').count(), 0, 'no stale report next to the error');
  assert.deepEqual(view.errors, [], 'an error value is not an exception in the page');
});

test('the CSP stops remote loads and scripts without the nonce', { timeout: 30_000 }, async () => {
  const view = await openRuntimePanel(() => report);
  await cell(view, 'sqliteVersion').filter({ hasText: '3.50.4' }).waitFor();
  assert.deepEqual(await view.cspViolations(), [], 'the panel itself (React, vscode-elements, styles) breaks no rule');
  const servedBefore = new Map(server.hits);

  // What a hostile document body could try once it is in the DOM.
  await view.page.evaluate(
    ({ remoteOrigin, ownOrigin }) => {
      const body = document.createElement('div');
      body.innerHTML =
        `<img src="${remoteOrigin}/tracker.png">` +
        `<img src="${ownOrigin}/no-such.png" onerror="window.handlerRan = true">` +
        `<iframe src="${remoteOrigin}/frame.html"></iframe>` +
        `<link rel="stylesheet" href="${remoteOrigin}/theme.css">`;
      document.body.append(body);
      const inline = document.createElement('script');
      inline.textContent = 'window.inlineRan = true';
      document.body.append(inline);
      const sameOrigin = document.createElement('script');
      sameOrigin.src = `${ownOrigin}/dist/webview/runtime.js?again`;
      document.body.append(sameOrigin);
      void fetch(`${remoteOrigin}/beacon`).catch(() => {});
    },
    { remoteOrigin: remote.origin, ownOrigin: server.origin },
  );

  await view.page.waitForFunction(
    () => (window as unknown as { qrelsStudioCspViolations: unknown[] }).qrelsStudioCspViolations.length >= 7,
  );
  const violations = await view.cspViolations();
  const by = (directive: string) => violations.filter((v) => v.directive === directive).map((v) => v.blocked);
  assert.deepEqual(by('img-src'), [`${remote.origin}/tracker.png`]);
  assert.deepEqual(by('frame-src'), [remote.origin], 'Chromium reports a blocked frame by its origin');
  assert.deepEqual(by('style-src-elem'), [`${remote.origin}/theme.css`]);
  assert.deepEqual(by('connect-src'), [`${remote.origin}/beacon`]);
  assert.deepEqual(by('script-src-elem').sort(), [`${server.origin}/dist/webview/runtime.js?again`, 'inline'].sort());
  assert.deepEqual(by('script-src-attr'), ['inline']);

  const ran = await view.page.evaluate(() => {
    const w = window as unknown as { inlineRan?: boolean; handlerRan?: boolean };
    return { inline: w.inlineRan ?? false, handler: w.handlerRan ?? false };
  });
  assert.deepEqual(ran, { inline: false, handler: false }, 'no script without the nonce ran');
  assert.equal(remote.totalHits(), 0, 'nothing reached the remote origin');
  const requestedSince = [...server.hits]
    .filter(([path, count]) => path !== '/favicon.ico' && count > (servedBefore.get(path) ?? 0))
    .map(([path]) => path);
  assert.deepEqual(requestedSince, ['/no-such.png'], 'the one request made: an image from the extension origin');
});
