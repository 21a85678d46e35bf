// The Label view when the study's PostgreSQL server goes away (issue 21 item 6), end to end in headless Chromium: the
// built view (dist/webview/label.js) against the real host end and label handlers, over a LabelSession on a real
// PostgreSQL store in a cluster this file starts itself (its server is stopped and killed; never the run's shared
// cluster). The annotator labels by keyboard while the server is stopped (or its backends SIGKILLed): the view says at
// once that it cannot save, never says saved, keeps the pair and the choice, does not move on; the server comes back
// and the view stores the label by itself and carries on. Afterwards the database holds every label once. A commit the
// host does not answer (a connection that hangs) is said as not saved yet; the host's message shows as text.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { LabelSession } from '../../../core/labelling/labelSession.ts';
import { type LabelRequestKind, labelRequestHandlers } from '../../../extension/panels/labelHandlers.ts';
import type { RequestParams } from '../../../webview/protocol.ts';
import { plainStudy } from '../../core/labelling/labellingStudy.ts';
import { kindStudy } from '../../core/store/postgres/labelsFixture.ts';
import { type Cluster, clusterVariable, startCluster } from '../../pg/pgCluster.ts';
import { launchChromium } from '../chromium.ts';
import { type CountingServer, type OpenWebview, openWebview, startWebviewServer } from '../webviewHost.ts';

let browser: Browser;
let server: CountingServer;
let cluster: Cluster;

before(async () => {
  cluster = await startCluster();
  process.on('exit', () => cluster.stop());
  // kindStudy's databases (testDatabase()) are made in this file's own cluster.
  process.env[clusterVariable] = JSON.stringify({ host: cluster.host, port: cluster.port, user: cluster.user });
  browser = await launchChromium();
  server = await startWebviewServer();
});

after(async () => {
  await browser?.close();
  await server?.close();
  cluster?.stop();
});

type Study = Awaited<ReturnType<typeof kindStudy>>;

interface View extends OpenWebview<LabelRequestKind> {
  commits(): RequestParams<'label/commit'>[];
}

async function openView(session: () => LabelSession): Promise<View> {
  const view = await openWebview(browser, server, {
    name: 'label',
    handlers: labelRequestHandlers(session),
    viewport: { width: 1100, height: 760 },
  });
  await view.page.locator('[data-testid="pair"]').waitFor();
  const commits = () =>
    view.received
      .filter((m) => (m as { kind?: string }).kind === 'label/commit')
      .map((m) => (m as { params: RequestParams<'label/commit'> }).params);
  return Object.assign(view, { commits });
}

const pairId = async (page: Page) => Number(await page.locator('[data-testid="pair"]').getAttribute('data-pair-id'));
const text = async (page: Page, testid: string) =>
  (await page.locator(`[data-testid="${testid}"]`).textContent())?.trim() ?? '';

/** What the view shows, read at one instant. */
function read(page: Page) {
  return page.evaluate(() => ({
    pairId: Number(document.querySelector('[data-testid="pair"]')?.getAttribute('data-pair-id') ?? Number.NaN),
    judged: Number((document.querySelector('[data-testid="progress"]')?.textContent ?? '').trim().split(' ')[0]),
    busy: document.querySelector('[data-testid="label-view"]')?.getAttribute('data-busy') === 'true',
    cannotSave: document.querySelector('[data-testid="cannot-save"]') !== null,
    status: document.querySelector('[data-testid="status"]')?.textContent ?? '',
  }));
}

/** Waits until `judged` labels are confirmed and the view takes keys again (the next pair on screen). */
async function ready(page: Page, judged: number): Promise<void> {
  await page.waitForFunction(
    (n) =>
      document.querySelector('[data-testid="label-view"]')?.getAttribute('data-busy') !== 'true' &&
      (document.querySelector('[data-testid="progress"]')?.textContent ?? '').trim().startsWith(`${n} /`),
    judged,
    { timeout: 30_000 },
  );
}

/** The labels stored, in order: each row once, with the commit id it was stored under. */
async function judgments(s: Study): Promise<{ pair_id: number; label: number; client_id: string }[]> {
  return (await s.rows('SELECT pair_id, label, client_id FROM judgment ORDER BY id')) as {
    pair_id: number;
    label: number;
    client_id: string;
  }[];
}

/** Every label once: one row per labelled pair, commit ids distinct, and each the id of a commit the view sent. */
async function assertEachOnce(s: Study, view: View, expected: { pairId: number; label: number }[]): Promise<void> {
  const rows = await judgments(s);
  assert.deepEqual(
    rows.map((r) => ({ pairId: r.pair_id, label: r.label })),
    expected,
    'every label there, none twice',
  );
  assert.equal(new Set(rows.map((r) => r.client_id)).size, rows.length, 'commit ids unique');
  const sent = new Set(view.commits().map((c) => c.commitId));
  for (const row of rows) assert.ok(sent.has(row.client_id), `stored under an id the view sent: ${row.client_id}`);
}

test('the server stops while the annotator labels: cannot save, no moving on, and once it is back the view saves by itself and carries on', {
  timeout: 180_000,
}, async () => {
  const s = await kindStudy('postgres', plainStudy(1, 5));
  const session = await s.session('alice');
  const view = await openView(() => session);
  const { page } = view;
  try {
    const labelled: { pairId: number; label: number }[] = [];
    // One label as usual.
    const first = await pairId(page);
    await page.keyboard.press('1');
    await ready(page, 1);
    labelled.push({ pairId: first, label: 1 });
    const second = await pairId(page);
    assert.notEqual(second, first);

    cluster.stopServer('immediate');
    try {
      await page.keyboard.press('2');
      const alert = page.locator('[data-testid="cannot-save"]');
      await alert.waitFor({ timeout: 15_000 });
      assert.equal(
        await text(page, 'cannot-save-title'),
        "Cannot save — the study's database is unreachable; retrying…",
      );
      assert.equal(await alert.getAttribute('role'), 'alert');
      assert.equal(await text(page, 'status'), 'Not saved yet');
      assert.match(await text(page, 'cannot-save-detail'), /could not be reached|was lost/);
      // The choice stays visible, on the same pair.
      assert.equal(await page.locator('[data-testid="scale-2"]').getAttribute('data-chosen'), 'true');
      assert.equal(await pairId(page), second);
      // Keys that would move on do not: next, previous, another label, undo.
      for (const key of ['j', 'k', '0', 'u']) await page.keyboard.press(key);
      await page.waitForTimeout(1500);
      assert.equal(await pairId(page), second, 'still on the pair');
      assert.ok(await alert.isVisible(), 'still saying it cannot save (not a toast that vanished)');
      assert.equal(await text(page, 'progress'), '1 / 5 judged');
      assert.equal(view.received.filter((m) => (m as { kind?: string }).kind === 'label/undo').length, 0);
      const attempts = view.commits().slice(1);
      assert.ok(attempts.length >= 2, `sent again meanwhile (${attempts.length} attempts)`);
      assert.ok(
        attempts.every((c) => c.commitId === attempts[0]!.commitId && c.label === 2 && c.pairId === second),
        'the same commit, same commit id, every time',
      );
      assert.notEqual(attempts[0]!.commitId, view.commits()[0]!.commitId, 'a new id for a new decision');
    } finally {
      cluster.startServer();
    }
    // Back: the view saves by itself (its next attempt) and carries on to the next pair.
    await page.locator('[data-testid="cannot-save"]').waitFor({ state: 'detached', timeout: 30_000 });
    await ready(page, 2);
    assert.match(await text(page, 'status'), /^Saved 2 · Highly for q1 \//);
    labelled.push({ pairId: second, label: 2 });
    const third = await pairId(page);
    assert.ok(third !== second && third !== first);
    // And labels as usual to the end of the queue.
    for (let i = 0; i < 3; i++) {
      labelled.push({ pairId: await pairId(page), label: 0 });
      await page.keyboard.press('0');
      await ready(page, 3 + i);
    }
    await page.locator('[data-testid="queue-end"]').waitFor();
    await assertEachOnce(s, view, labelled);
    assert.deepEqual(view.errors, []);
    assert.deepEqual(await view.cspViolations(), []);
  } finally {
    await view.close();
    await s.store.close();
  }
});

test('the server processes SIGKILLed while the annotator labels fast: the view recovers by itself, every label once', {
  timeout: 180_000,
}, async () => {
  const pairs = 30;
  const s = await kindStudy('postgres', plainStudy(1, pairs));
  const session = await s.session('alice');
  const view = await openView(() => session);
  const { page } = view;
  try {
    const labelled: { pairId: number; label: number }[] = [];
    let sawCannotSave = false;
    for (let i = 0; i < pairs; i++) {
      await ready(page, i);
      const shown = await pairId(page);
      if (i === 10) {
        // A crash: every backend serving the study killed; PostgreSQL ends all connections and recovers by itself.
        const backends = (await s.rows(
          "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'qrels-studio'",
        )) as { pid: number }[];
        assert.ok(backends.length > 0, 'the store has connections to kill');
        for (const { pid } of backends) process.kill(pid, 'SIGKILL');
      }
      await page.keyboard.press(String(i % 3));
      labelled.push({ pairId: shown, label: i % 3 });
      // Until the label is confirmed the view stays on the pair (and may say it cannot save meanwhile).
      for (;;) {
        const now = await read(page);
        if (now.cannotSave) {
          sawCannotSave = true;
          assert.equal(now.pairId, shown, 'no moving on before it is saved');
          assert.doesNotMatch(now.status, /Saved/);
        }
        if (now.judged === i + 1) break;
        assert.equal(now.judged, i, 'one label at a time');
        assert.equal(now.pairId, shown, 'on the pair until its label is confirmed');
        await page.waitForTimeout(20);
      }
    }
    await page.locator('[data-testid="queue-end"]').waitFor();
    await assertEachOnce(s, view, labelled);
    // Seen or not, depending on whether the kill found a commit on its way or only idle connections.
    console.log(`# the view said it cannot save meanwhile: ${sawCannotSave}`);
    assert.deepEqual(view.errors, []);
  } finally {
    await view.close();
    await s.store.close();
  }
});

test('the reason the host gives is shown as text, never as markup', { timeout: 60_000 }, async () => {
  const s = await kindStudy('postgres', plainStudy(1, 2));
  const session = await s.session('alice');
  const handlers = labelRequestHandlers(() => session);
  let failures = 0;
  const view = await openWebview(browser, server, {
    name: 'label',
    handlers: {
      ...handlers,
      'label/commit': async (commit) => {
        // A server's message is not ours: it may hold anything (here, markup), and is retried as unreachable.
        if (failures++ < 2) {
          throw Object.assign(new Error('<img src=x onerror="window.pwned=1"><b id="bold">server</b> gone'), {
            retry: 'unreachable',
          });
        }
        return handlers['label/commit'](commit);
      },
    },
  });
  const { page } = view;
  try {
    await page.locator('[data-testid="pair"]').waitFor();
    await page.keyboard.press('1');
    await page.locator('[data-testid="cannot-save"]').waitFor();
    assert.equal(
      await text(page, 'cannot-save-detail'),
      '<img src=x onerror="window.pwned=1"><b id="bold">server</b> gone',
    );
    assert.equal(await page.locator('#bold, img[src="x"]').count(), 0);
    await page.locator('[data-testid="progress"]').filter({ hasText: '1 / 2 judged' }).waitFor();
    assert.equal(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned), undefined);
    assert.equal((await judgments(s)).length, 1);
    assert.deepEqual(await view.cspViolations(), []);
  } finally {
    await view.close();
    await s.store.close();
  }
});

test('a commit the host does not answer (a connection that hangs): not saved yet, said within seconds, saved once answered', {
  timeout: 60_000,
}, async () => {
  const s = await kindStudy('postgres', plainStudy(1, 2));
  const session = await s.session('alice');
  const handlers = labelRequestHandlers(() => session);
  let answer: () => void = () => undefined;
  const answered = new Promise<void>((resolve) => {
    answer = resolve;
  });
  const view = await openWebview(browser, server, {
    name: 'label',
    handlers: {
      ...handlers,
      'label/commit': async (commit) => {
        await answered;
        return handlers['label/commit'](commit);
      },
    },
  });
  const { page } = view;
  try {
    await page.locator('[data-testid="pair"]').waitFor();
    const first = await pairId(page);
    await page.keyboard.press('1');
    await page.locator('[data-testid="status"]').filter({ hasText: 'Saving…' }).waitFor();
    await page.locator('[data-testid="cannot-save"]').waitFor({ timeout: 5000 });
    assert.equal(
      await text(page, 'cannot-save-title'),
      "Not saved yet — the study's database has not answered; waiting…",
    );
    assert.equal(await text(page, 'status'), 'Not saved yet');
    await page.keyboard.press('j');
    await page.waitForTimeout(300);
    assert.equal(await pairId(page), first);
    answer();
    await page.locator('[data-testid="progress"]').filter({ hasText: '1 / 2 judged' }).waitFor();
    await page.locator('[data-testid="cannot-save"]').waitFor({ state: 'detached' });
    assert.match(await text(page, 'status'), /^Saved 1 · Relevant/);
    assert.equal((await judgments(s)).length, 1);
    assert.deepEqual(view.errors, []);
  } finally {
    await view.close();
    await s.store.close();
  }
});
