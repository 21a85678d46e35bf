// The Review view's bundle in headless Chromium, served by the real HostChannel with the extension's handlers over a
// ReviewSession on a real SQLite review: rate by keyboard, accept; edit → a new version whose diff against the
// original is shown; a rewrite's diff against its source with its findings; reject held until its reason — and every
// verdict read back from the record (the storage port). A blind review with two reviewers: no one else's edit before one's own verdict, a
// disagreement shown as disputed, a summary over one's own items only, and the adjudicator's queue of disputed
// items, where she settles one by accepting the version she picks.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { ReviewSession } from '../../../core/review/reviewSession.ts';
import { reviewRequestHandlers } from '../../../extension/panels/reviewHandlers.ts';
import { createReviewStudy, storedVerdicts, storedVersions, verdictOn } from '../../core/review/reviewStudy.ts';
import { repoRoot } from '../../helpers.ts';
import { launchChromium } from '../chromium.ts';
import { applyTheme, darkModern, lightModern, offTheme, rgb } from '../themeControls.ts';
import { type CountingServer, openWebview, startWebviewServer, webviewDistDir } from '../webviewHost.ts';

let browser: Browser;
let server: CountingServer;
const screenshotDir = join(repoRoot, 'test-output', 'screenshots');

before(async () => {
  assert.ok(existsSync(join(webviewDistDir, 'review.js')), 'dist/webview/review.js is missing: run `npm run build`');
  browser = await launchChromium();
  server = await startWebviewServer();
  mkdirSync(screenshotDir, { recursive: true });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** The Review view in Chromium, served by the extension's handlers over `session`. */
const openReviewView = (session: ReviewSession) =>
  openWebview(browser, server, {
    name: 'review',
    handlers: reviewRequestHandlers(() => session),
    viewport: { width: 1000, height: 800 },
  });

const shownItem = (page: Page) => page.locator('[data-testid="item"]').getAttribute('data-item-id');

async function waitForItem(page: Page, id: string): Promise<void> {
  await page.waitForFunction(
    (want) => document.querySelector('[data-testid="item"]')?.getAttribute('data-item-id') === want,
    id,
  );
}

test('rate and accept, edit into a new version, reject with a reason: the view and SQLite agree', {
  timeout: 60_000,
}, async () => {
  const { store, session: sessionOf } = await createReviewStudy('  title "Generated instructions and rewrites"\n');
  // An LLM critic rated i2 (as core/review/reviewCritic.ts stores it): its rubric pre-fills alice's — but not its
  // 'fluency', a dimension the review no longer declares (the host would refuse the verdict).
  const critic = 'llm:critic@0123abcd';
  const i2 = (await store.reviews.records('gen')).find((r) => r.item.itemId === 'i2')!;
  await store.reviews.recordCriticVerdict(
    'gen',
    {
      item: i2.item.id,
      versionId: i2.versions[0]!.id,
      reviewer: critic,
      verdict: 'reject',
      rubric: { clarity: 'poor', consistency: 'acceptable', fluency: 'poor' },
      reason: '"tall" is vague',
    },
    '2026-01-01T00:00:00.000Z',
  );
  const session = await sessionOf('alice');
  const view = await openReviewView(session);
  const people = async () => (await storedVerdicts(store)).filter((v) => v.annotator !== critic);
  try {
    const { page } = view;
    await waitForItem(page, 'i1');
    assert.match(await page.locator('[data-testid="item"]').innerText(), /C2 · Exclusive topic/);
    // Rubric by keyboard: 1 = excellent for clarity, ↓, 2 = acceptable for consistency; a accepts.
    await page.keyboard.press('1');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('2');
    await page.keyboard.press('a');
    await waitForItem(page, 'i2');
    assert.deepEqual(
      (await people()).map((v) => ({ verdict: v.verdict, rubric: v.rubric })),
      [{ verdict: 'accept', rubric: { clarity: 'excellent', consistency: 'acceptable' } }],
    );

    assert.match(await page.locator('[data-testid="prefilled"]').innerText(), /pre-filled by llm:critic@0123abcd/);
    assert.equal(await page.getByLabel('clarity: poor').isChecked(), true);
    assert.match(
      await page.locator('[data-testid="others"]').innerText(),
      /llm:critic@0123abcd: reject — "tall" is vague/,
    );
    // e opens the text; Ctrl+Enter without a reason holds the edit; with one, a new version is stored.
    await page.keyboard.press('e');
    const edit = page.locator('[data-testid="edit-text"]');
    await edit.waitFor();
    await edit.fill('Find tables of buildings over 300 m with heights in metres.');
    await page.keyboard.press('Control+Enter');
    await page
      .locator('[data-testid="error"]')
      .filter({ hasText: /needs a reason/ })
      .waitFor();
    assert.equal((await storedVersions(store)).length, 3);
    await page.locator('[data-testid="reason"]').fill('"tall" is vague');
    await page.keyboard.press('Control+Enter');
    await waitForItem(page, 'n1');
    assert.deepEqual(
      (await storedVersions(store))
        .filter((v) => v.author === 'alice')
        .map((v) => ({ text: v.text, author: v.author })),
      [{ text: 'Find tables of buildings over 300 m with heights in metres.', author: 'alice' }],
    );
    assert.deepEqual(
      (await storedVerdicts(store)).find((v) => v.verdict === 'edit')?.rubric,
      { clarity: 'poor', consistency: 'acceptable' },
      'the critic’s rubric, confirmed, without the undeclared dimension',
    );

    // The rewrite: its diff against the source and its findings; r holds the reject until its reason.
    assert.ok((await page.locator('[data-testid="diff"] del').count()) > 0);
    const findings = await page
      .locator('[data-testid="finding"]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-check')));
    assert.deepEqual(findings, ['dropped-number', 'dropped-citation', 'dropped-entity', 'length-drift']);
    await page.screenshot({ path: join(screenshotDir, 'review.png'), fullPage: true });
    await page.keyboard.press('r');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'reason');
    await page.keyboard.type('drops Section 420 and the five years');
    await page.keyboard.press('Control+Enter');
    await page
      .locator('[data-testid="queue-end"]')
      .waitFor({ timeout: 5000 })
      .catch(async () => {
        throw new Error(`not at the end: ${await page.locator('body').innerText()}`);
      });
    assert.deepEqual(
      (await people()).map((v) => ({ verdict: v.verdict, rationale: v.reason })),
      [
        { verdict: 'accept', rationale: null },
        { verdict: 'edit', rationale: '"tall" is vague' },
        { verdict: 'reject', rationale: 'drops Section 420 and the five years' },
      ],
    );
    assert.match(await page.locator('[data-testid="progress"]').innerText(), /3 \/ 3 reviewed/);
    // The summary at the end: one reviewer's verdicts per type.
    await page.locator('[data-testid="summary"]').waitFor();
    const rows = await page
      .locator('[data-testid="summary-row"]')
      .evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
    // Columns: accept, edit, reject, disputed, pending, unreviewed (one reviewer decides: no annotators declared).
    assert.deepEqual(rows, [
      ['C2', '1', '0', '0', '0', '0', '0'],
      ['HN', '0', '0', '1', '0', '0', '0'],
      ['S1', '0', '1', '0', '0', '0', '0'],
    ]);

    // Back to the edited item: the diff against its original version.
    await page.keyboard.press('k');
    await waitForItem(page, 'n1');
    await page.keyboard.press('k');
    await waitForItem(page, 'i2');
    assert.equal(await shownItem(page), 'i2');
    assert.match(await page.locator('[data-testid="diff"] del').first().innerText(), /tall/);
    assert.match(await page.locator('[data-testid="diff"]').innerText(), /300 m/);
    assert.deepEqual(view.errors, []);
    assert.deepEqual(await view.cspViolations(), []);
  } finally {
    await view.close();
    await store.close();
  }
});

test('blind, two reviewers: the other’s edit stays hidden, a disagreement is disputed, the adjudicator settles it from the disputed queue by the version she picks', {
  timeout: 60_000,
}, async () => {
  const { store, session: sessionOf } = await createReviewStudy(
    '  annotators alice bob\n  adjudicator dana\n  blind\n',
  );
  await verdictOn(await sessionOf('alice'), 1, {
    verdict: 'edit',
    reason: 'vague',
    text: 'Find tables of buildings over 300 m.',
  });
  const bob = await sessionOf('bob');
  const dana = await sessionOf('dana');
  const bobView = await openReviewView(bob);
  try {
    const { page } = bobView;
    await waitForItem(page, 'i1');
    await page.keyboard.press('j');
    await waitForItem(page, 'i2');
    const text = await page.locator('[data-testid="item"]').innerText();
    assert.doesNotMatch(text, /300 m|alice/, 'alice’s edit and name do not reach bob before his verdict');
    assert.equal(await page.locator('[data-testid="item-status"]').count(), 0);
    assert.equal(await page.locator('[data-testid="diff"]').count(), 0);
    await page.keyboard.press('a');
    await waitForItem(page, 'n1');
    await page.keyboard.press('k');
    await waitForItem(page, 'i2');
    await page.locator('[data-testid="item-status"]').filter({ hasText: 'disputed' }).waitFor();
    assert.match(await page.locator('[data-testid="others"]').innerText(), /alice: edit — vague/);
    // After his verdict bob sees alice's edit as the version under review, diffed against the generated text (and
    // may accept it, to agree with her).
    assert.match(await page.locator('[data-testid="diff"] del').first().innerText(), /tall/);
    assert.match(await page.locator('[data-testid="diff"]').innerText(), /300 m/);
    // Judging the generated text instead: no diff of its own; against alice's edit, the words she removed come back.
    await page.locator('[data-testid="judging"]').selectOption({ label: 'version 1 (gpt-5.2)' });
    assert.equal(await page.locator('[data-testid="diff"]').count(), 0);
    await page.locator('[data-testid="compare-with"]').selectOption({ label: 'version 2 (alice)' });
    assert.match(await page.locator('[data-testid="diff"] ins').first().innerText(), /tall/);
    assert.match(await page.locator('[data-testid="diff"] del').first().innerText(), /over 300 m/);
    // His summary counts only the items he has reviewed: the others' outcomes stay hidden.
    await page.keyboard.press('j');
    await waitForItem(page, 'n1');
    await page.keyboard.press('j');
    await page.locator('[data-testid="summary-scope"]').waitFor();
    assert.deepEqual(
      await page
        .locator('[data-testid="summary-row"]')
        .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-type'))),
      ['S1'],
    );
    assert.deepEqual(bobView.errors, []);
  } finally {
    await bobView.close();
  }

  const danaView = await openReviewView(dana);
  try {
    const { page } = danaView;
    await waitForItem(page, 'i1');
    await page.locator('[data-testid="queue"]').selectOption('disputed');
    await waitForItem(page, 'i2');
    assert.equal(await page.locator('[data-testid="position"]').innerText(), 'item 1 of 1');
    // The adjudicator reviews the latest version, alice's edit, against the generated text.
    assert.match(await page.locator('[data-testid="diff"]').innerText(), /300 m/);
    assert.match(await page.locator('[data-testid="others"]').innerText(), /alice: edit[\s\S]*bob: accept/);
    // She sides with bob: she judges the generated text, and accepts it.
    await page.locator('[data-testid="judging"]').selectOption({ label: 'version 1 (gpt-5.2)' });
    await page.locator('[data-testid="reason"]').fill('"tall" is clear enough');
    await page.keyboard.press('Escape');
    await page.keyboard.press('a');
    await page.locator('[data-testid="queue-end"]').waitFor();
    assert.equal(
      await page.locator('[data-testid="summary-scope"]').count(),
      0,
      'the adjudicator sees the whole review',
    );
    const authors = new Map((await storedVersions(store)).map((v) => [v.id, v.author]));
    assert.deepEqual(
      (await storedVerdicts(store))
        .filter((v) => v.annotator === 'dana')
        .map((v) => ({ verdict: v.verdict, rationale: v.reason, author: authors.get(v.versionId) })),
      [{ verdict: 'accept', rationale: '"tall" is clear enough', author: 'gpt-5.2' }],
    );
    await page.keyboard.press('k');
    await waitForItem(page, 'i2');
    await page.locator('[data-testid="item-status"]').filter({ hasText: 'accept' }).waitFor();
    assert.deepEqual(danaView.errors, []);
    assert.deepEqual(await danaView.cspViolations(), []);
  } finally {
    await danaView.close();
    await store.close();
  }
});

test('the findings beside the text are those of the version judged', { timeout: 60_000 }, async () => {
  const { store, session: sessionOf } = await createReviewStudy('  annotators alice bob\n');
  const restored =
    'The defendant was convicted of fraud under Section 420 of the Penal Code and sentenced to five years in prison.';
  await verdictOn(await sessionOf('alice'), 2, { verdict: 'edit', reason: 'restores Section 420', text: restored });
  const bob = await sessionOf('bob');
  const view = await openReviewView(bob);
  try {
    const { page } = view;
    await waitForItem(page, 'i1');
    // Two presses before the host answers the first: two items on, not one.
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await waitForItem(page, 'n1');
    const checks = () =>
      page.locator('[data-testid="finding"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-check')));
    assert.deepEqual(await checks(), [], 'alice’s edit, under review, drops nothing');
    await page.locator('[data-testid="judging"]').selectOption({ label: 'version 1 (gpt-4o)' });
    await page.locator('[data-testid="findings"]').waitFor();
    assert.deepEqual(await checks(), ['dropped-number', 'dropped-citation', 'dropped-entity', 'length-drift']);
    assert.deepEqual(view.errors, []);
  } finally {
    await view.close();
    await store.close();
  }
});

test('every control follows the theme, dark and light: the rubric radios, the verdict buttons, the queue, the reason', {
  timeout: 60_000,
}, async () => {
  const { store, session: sessionOf } = await createReviewStudy('  title "Generated instructions and rewrites"\n');
  const view = await openReviewView(await sessionOf('alice'));
  try {
    const { page } = view;
    await waitForItem(page, 'i1');
    await page.keyboard.press('1');
    const radio = page.getByLabel('clarity: excellent');
    assert.equal(await radio.isChecked(), true);
    for (const theme of [darkModern, lightModern]) {
      await applyTheme(page, theme);
      assert.deepEqual(await offTheme(page, theme), [], theme.kind);
      assert.deepEqual(
        await radio.evaluate((e) => [getComputedStyle(e).backgroundColor, getComputedStyle(e).borderTopColor]),
        [rgb(theme.colours['--vscode-checkbox-background']!), rgb(theme.colours['--vscode-checkbox-border']!)],
        theme.kind,
      );
      // The dot of the checked radio, drawn in the checkbox foreground.
      assert.equal(
        await radio.evaluate((e) => getComputedStyle(e, '::before').backgroundColor),
        rgb(theme.colours['--vscode-checkbox-foreground']!),
      );
    }
    assert.deepEqual(view.errors, []);
  } finally {
    await view.close();
    await store.close();
  }
});

test('the summary’s agreement target: a value above it on three items is "not yet", in the words of the Agreement view', {
  timeout: 60_000,
}, async () => {
  const { store, session: sessionOf } = await createReviewStudy(
    '  annotators alice bob\n  agreement percent target 0.5\n',
  );
  for (const annotator of ['alice', 'bob']) {
    const session = await sessionOf(annotator);
    await verdictOn(session, 0, { verdict: 'accept' });
    await verdictOn(session, 1, { verdict: 'accept' });
    await verdictOn(session, 2, annotator === 'alice' ? { verdict: 'accept' } : { verdict: 'reject', reason: 'vague' });
  }
  const view = await openReviewView(await sessionOf('alice'));
  try {
    const { page } = view;
    await page.locator('[data-testid="queue"]').selectOption('todo');
    const target = page.locator('[data-testid="summary-target"]');
    await target.waitFor();
    const text = await target.innerText();
    // Two of three items alike: 0.667 clears 0.5, but three items cannot show it.
    assert.match(
      text,
      /^percent agreement 0\.667, target 0\.500: not yet \(n = 3, 95 % interval \[\d\.\d{3}, \d\.\d{3}\]\)$/,
    );
    const [low] = /\[(\d\.\d{3}),/.exec(text)!.slice(1).map(Number);
    assert.ok(low! < 0.5, text);
    assert.equal(await target.getAttribute('data-state'), 'not-yet');
    assert.deepEqual(view.errors, []);
  } finally {
    await view.close();
    await store.close();
  }
});
