// The Label view when the host is slow and the annotator is not: replies held back while keys arrive, a session reset
// in the middle of a commit, a neighbouring chunk that arrives after the annotator moved on, held keys, focus left
// on a control. Each test holds one kind of reply (the host has already done the work: only the answer is late), as a
// busy extension host or a big study makes it, and asserts what the annotator sees and what SQLite holds.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { LabelSession } from '../../../core/labelling/labelSession.ts';
import type { RequestHandlers } from '../../../extension/panels/hostChannel.ts';
import { type LabelRequestKind, labelRequestHandlers } from '../../../extension/panels/labelHandlers.ts';
import type { RequestParams } from '../../../webview/protocol.ts';
import { launchChromium } from '../chromium.ts';
import { type CountingServer, type OpenWebview, openWebview, startWebviewServer } from '../webviewHost.ts';
import { createLabelStudy, type LabelStudy, type LabelStudyOptions, simpleStudy } from './labelStudy.ts';

let browser: Browser;
let server: CountingServer;
const cleanups: (() => Promise<void> | void)[] = [];

before(async () => {
  browser = await launchChromium();
  server = await startWebviewServer();
});

after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await browser?.close();
  await server?.close();
});

/** Replies held back: the handler runs at once (its effect is in SQLite), its reply waits for release(). */
class Holds {
  readonly #held: { kind: LabelRequestKind; matches: (params: unknown) => boolean; release: Promise<void> }[] = [];
  readonly #releases = new Map<LabelRequestKind, () => void>();

  hold<K extends LabelRequestKind>(kind: K, matches: (params: RequestParams<K>) => boolean = () => true): void {
    const release = new Promise<void>((resolve) => this.#releases.set(kind, resolve));
    this.#held.push({ kind, matches: matches as (params: unknown) => boolean, release });
  }

  release(kind: LabelRequestKind): void {
    this.#releases.get(kind)?.();
    this.#held.splice(0, this.#held.length, ...this.#held.filter((h) => h.kind !== kind));
  }

  wrap(handlers: RequestHandlers<LabelRequestKind>): RequestHandlers<LabelRequestKind> {
    const wrapped: Record<string, (params: never) => unknown> = {};
    for (const [kind, handler] of Object.entries(handlers) as [LabelRequestKind, (params: unknown) => unknown][]) {
      wrapped[kind] = async (params: unknown) => {
        const value = handler(params);
        const held = this.#held.find((h) => h.kind === kind && h.matches(params));
        if (held) await held.release;
        return value;
      };
    }
    return wrapped as unknown as RequestHandlers<LabelRequestKind>;
  }
}

interface RaceView extends OpenWebview<LabelRequestKind> {
  holds: Holds;
  /** The requests of `kind` the view has sent so far. */
  sent(kind: LabelRequestKind): unknown[];
}

async function openRaceView(
  session: () => LabelSession,
  override: Partial<RequestHandlers<LabelRequestKind>> = {},
): Promise<RaceView> {
  const holds = new Holds();
  const handlers = holds.wrap({ ...labelRequestHandlers(session), ...override });
  const view = await openWebview(browser, server, { name: 'label', handlers, viewport: { width: 1100, height: 760 } });
  cleanups.push(() => view.close());
  await view.page.locator('[data-testid="pair"]').waitFor();
  const sent = (kind: LabelRequestKind) =>
    view.received.filter((m) => (m as { kind?: string }).kind === kind).map((m) => (m as { params: unknown }).params);
  return Object.assign(view, { holds, sent });
}

async function study(options: LabelStudyOptions): Promise<LabelStudy> {
  const created = await createLabelStudy(options);
  cleanups.push(() => created.close());
  return created;
}

async function shownPairId(page: Page): Promise<number> {
  return Number(await page.locator('[data-testid="pair"]').getAttribute('data-pair-id'));
}

/** Waits until the view has sent `count` requests of `kind`. */
async function untilSent(view: RaceView, kind: LabelRequestKind, count: number): Promise<void> {
  for (let i = 0; i < 200 && view.sent(kind).length < count; i++) await view.page.waitForTimeout(10);
  assert.equal(view.sent(kind).length, count, `${kind} requests sent`);
}

/** Lets every reply and re-render in flight land. */
const settle = (page: Page) => page.waitForTimeout(250);

function judgments(labelled: LabelStudy): { pairId: number; label: number; annotator: string }[] {
  return labelled.db
    .prepare(
      `SELECT j.pair_id AS pairId, j.label, a.name AS annotator FROM judgment AS j
       JOIN annotator AS a ON a.id = j.annotator_id ORDER BY j.id`,
    )
    .all() as { pairId: number; label: number; annotator: string }[];
}

test('a session reset while a commit is in flight: the late reply does not bring the old session back', {
  timeout: 60_000,
}, async () => {
  const labelled = await study(simpleStudy(1, 4));
  let session = await labelled.session('alice');
  const view = await openRaceView(() => session);
  const first = await shownPairId(view.page);
  view.holds.hold('label/commit');
  await view.page.keyboard.press('1');
  await untilSent(view, 'label/commit', 1);
  // The annotator setting changed meanwhile: the panel opened bob's session and reset the view.
  session = await labelled.session('bob');
  view.host.postEvent('label/reset', { state: session.state() });
  await view.page.locator('[data-testid="annotator"]').filter({ hasText: 'bob' }).waitFor();
  view.holds.release('label/commit');
  await settle(view.page);
  assert.equal(await view.page.locator('[data-testid="annotator"]').textContent(), 'bob');
  assert.equal(await view.page.locator('[data-testid="status"]').textContent(), '', 'not saving anything');
  // bob labels the pair he is shown: stored as his, at the position his queue has it.
  const shown = await shownPairId(view.page);
  await view.page.keyboard.press('2');
  await view.page.locator('[data-testid="progress"]').filter({ hasText: '1 / 4 judged' }).waitFor();
  assert.deepEqual(judgments(labelled), [
    { pairId: first, label: 1, annotator: 'alice' },
    { pairId: shown, label: 2, annotator: 'bob' },
  ]);
  assert.equal(await view.page.locator('[data-testid="error"]').count(), 0);
});

test('k then j before the previous pair arrives: the view ends where the keys say, and so does the cursor', {
  timeout: 60_000,
}, async () => {
  const labelled = await study(simpleStudy(1, 8));
  const session = await labelled.session('carol');
  const version = session.state().queue.version;
  const at4 = (await session.pairAt(4, version, true))!; // carol was at pair 5 of 8: positions before it are not cached
  const view = await openRaceView(() => session);
  assert.equal(await shownPairId(view.page), at4.pairId);
  await untilSent(view, 'label/pairAt', 5); // position 4, the cursor on it, then 5, 6 and 7 prefetched
  view.holds.hold('label/pairAt', (p) => p.position === 3 && !p.current);
  await view.page.keyboard.press('k');
  await untilSent(view, 'label/pairAt', 6);
  await view.page.keyboard.press('j');
  await settle(view.page);
  view.holds.release('label/pairAt');
  await settle(view.page);
  assert.equal(await shownPairId(view.page), at4.pairId, 'k then j: back at the pair it started from');
  assert.equal(await view.page.locator('[data-testid="position"]').textContent(), 'pair 5 of 8');
  const cursor = labelled.db.prepare('SELECT pair_id FROM label_cursor').pluck().get();
  assert.equal(cursor, at4.pairId, 'the cursor is on the pair shown');
});

test('a neighbouring chunk that arrives after the annotator moved on is not shown in place of the next document', {
  timeout: 60_000,
}, async () => {
  const labelled = await study({
    queries: [{ qid: 'q1', text: 'tides' }],
    documents: [
      { docid: 'a#1', parent: 'a', text: 'Tides, chunk one of a.' },
      { docid: 'a#2', parent: 'a', text: 'NEIGHBOUR chunk two of a.' },
      { docid: 'b#1', parent: 'b', text: 'Tides, chunk one of b.' },
    ],
    ranking: { q1: ['a#1', 'b#1'] },
  });
  const session = await labelled.session('dora');
  const view = await openRaceView(() => session);
  const first = await shownPairId(view.page);
  view.holds.hold('label/document');
  await view.page.getByRole('button', { name: 'Next chunk' }).click();
  await untilSent(view, 'label/document', 1);
  await view.page.keyboard.press('j');
  await view.page.waitForFunction((id) => {
    const pair = document.querySelector('[data-testid="pair"]');
    return pair !== null && Number(pair.getAttribute('data-pair-id')) !== id;
  }, first);
  view.holds.release('label/document');
  await settle(view.page);
  assert.equal(await view.page.locator('.neighbour-note').count(), 0, 'no neighbour shown for the second pair');
  assert.match(String(await view.page.locator('[data-testid="document-body"]').textContent()), /chunk one of b/);
});

test('a failed request of another kind while a commit is in flight does not let a second label through', {
  timeout: 60_000,
}, async () => {
  const labelled = await study({ ...simpleStudy(1, 3), guidelines: '# Guidelines' });
  const session = await labelled.session('erik');
  const view = await openRaceView(() => session, {
    'label/guidelines': () => {
      throw new Error('cannot read the guidelines');
    },
  });
  view.holds.hold('label/commit');
  await view.page.keyboard.press('1');
  await untilSent(view, 'label/commit', 1);
  await view.page.keyboard.press('?');
  await view.page.locator('[data-testid="guidelines-error"]', { hasText: 'cannot read the guidelines' }).waitFor();
  await view.page.keyboard.press('Escape');
  await view.page.keyboard.press('2');
  await settle(view.page);
  assert.equal(view.sent('label/commit').length, 1, 'the second key waited for the first label to be stored');
  view.holds.release('label/commit');
  await view.page.locator('[data-testid="progress"]').filter({ hasText: '1 / 3 judged' }).waitFor();
  await settle(view.page);
  assert.equal(judgments(labelled).length, 1);
});

test('a key pressed while the queue is being reordered does not turn into a refused label', {
  timeout: 60_000,
}, async () => {
  const labelled = await study(simpleStudy(2, 3));
  const session = await labelled.session('fay');
  const view = await openRaceView(() => session);
  view.holds.hold('label/setQueue');
  await view.page.locator('[data-testid="queue-order"]').selectOption('rank');
  await untilSent(view, 'label/setQueue', 1);
  await view.page.keyboard.press('Escape'); // leave the select: keys are the view's again
  await view.page.keyboard.press('1');
  await settle(view.page);
  view.holds.release('label/setQueue');
  await view.page.waitForFunction(
    () => (document.querySelector('[data-testid="queue-order"]') as HTMLSelectElement | null)?.value === 'rank',
  );
  await settle(view.page);
  assert.equal(await view.page.locator('[data-testid="error"]').count(), 0, 'no "the queue changed" error');
  assert.equal(view.sent('label/commit').length, 0, 'the key was not sent against the old queue');
  // The reordered queue labels normally.
  const shown = await shownPairId(view.page);
  await view.page.keyboard.press('2');
  await view.page.locator('[data-testid="progress"]').filter({ hasText: '1 / 6 judged' }).waitFor();
  assert.deepEqual(judgments(labelled), [{ pairId: shown, label: 2, annotator: 'fay' }]);
});

test('after clicking "Unlabelled only" the keys label again (a checkbox is not a text field)', {
  timeout: 60_000,
}, async () => {
  const labelled = await study(simpleStudy(1, 3));
  const session = await labelled.session('gus');
  const view = await openRaceView(() => session);
  await view.page.locator('[data-testid="unlabelled-only"]').click();
  await untilSent(view, 'label/setQueue', 1);
  await settle(view.page);
  const shown = await shownPairId(view.page);
  await view.page.keyboard.press('1');
  await view.page.locator('[data-testid="progress"]').filter({ hasText: '1 / 3 judged' }).waitFor({ timeout: 3000 });
  assert.deepEqual(judgments(labelled), [{ pairId: shown, label: 1, annotator: 'gus' }]);
});

test('a scale key held down labels one pair, not every pair the auto-repeat reaches', { timeout: 60_000 }, async () => {
  const labelled = await study(simpleStudy(1, 5));
  const session = await labelled.session('hal');
  const view = await openRaceView(() => session);
  const first = await shownPairId(view.page);
  await view.page.keyboard.down('1');
  await view.page.locator('[data-testid="progress"]').filter({ hasText: '1 / 5 judged' }).waitFor();
  for (let i = 0; i < 3; i++) {
    await view.page.keyboard.down('1'); // the key is still down: keydown with repeat = true
    await settle(view.page);
  }
  await view.page.keyboard.up('1');
  assert.deepEqual(judgments(labelled), [{ pairId: first, label: 1, annotator: 'hal' }]);
});

test('a query without conditions proposes no derived label from all(conditions): Enter labels nothing', {
  timeout: 60_000,
}, async () => {
  const labelled = await study({
    queries: [
      { qid: 'c1', text: 'monthly rainfall', instruction: 'Any table.', constraints: [] },
      { qid: 'c2', text: 'monthly rainfall', instruction: 'Monthly figures only.', constraints: ['Monthly'] },
    ],
    documents: [
      { docid: 'r1', text: 'Rainfall by month.' },
      { docid: 'r2', text: 'Rainfall by month.' },
    ],
    ranking: { c1: ['r1'], c2: ['r2'] },
    extra:
      '  aspect topical "On topic?"\n  conditions from constraints\n  derive label = all(conditions) ? 2 : topical ? 1 : 0',
  });
  const session = await labelled.session('ida');
  const view = await openRaceView(() => session);
  assert.equal(await view.page.locator('[data-testid="pair"]').getAttribute('data-qid'), 'c1');
  await settle(view.page);
  assert.equal(await view.page.locator('[data-testid="derived"]').count(), 0, 'nothing ticked proves "all hold"');
  await view.page.keyboard.press('Enter');
  await settle(view.page);
  assert.deepEqual(judgments(labelled), []);
  // A query with conditions still derives (none ticked: 0).
  await view.page.keyboard.press('j');
  await view.page.locator('[data-testid="pair"][data-qid="c2"]').waitFor();
  await view.page.locator('[data-testid="derived"]').filter({ hasText: 'answers: 0' }).waitFor();
});

test('undo of a pair the reordered queue left out, then a label for it: stored, and the view goes back to the queue', {
  timeout: 60_000,
}, async () => {
  const labelled = await study(simpleStudy(1, 4));
  const session = await labelled.session('jo');
  const view = await openRaceView(() => session);
  const first = await shownPairId(view.page);
  await view.page.keyboard.press('1');
  await view.page.locator('[data-testid="progress"]').filter({ hasText: '1 / 4 judged' }).waitFor();
  await view.page.locator('[data-testid="unlabelled-only"]').click(); // the labelled pair leaves the queue
  await view.page.locator('[data-testid="position"]').filter({ hasText: 'of 3' }).waitFor();
  const queued = await shownPairId(view.page);
  await view.page.keyboard.press('Escape');
  await view.page.keyboard.press('u');
  await view.page.locator(`[data-testid="pair"][data-pair-id="${first}"]`).waitFor();
  await view.page.locator('[data-testid="progress"]').filter({ hasText: '0 / 4 judged' }).waitFor();
  await view.page.keyboard.press('2');
  await view.page.locator('[data-testid="progress"]').filter({ hasText: '1 / 4 judged' }).waitFor({ timeout: 5000 });
  await view.page.locator(`[data-testid="pair"][data-pair-id="${queued}"]`).waitFor();
  assert.equal(await view.page.locator('[data-testid="error"]').count(), 0);
  const current = labelled.db.prepare('SELECT pair_id AS pairId, label FROM current_judgment').all() as {
    pairId: number;
    label: number;
  }[];
  assert.deepEqual(current, [{ pairId: first, label: 2 }]);
});
