// The Label view's bundle in real headless Chromium, served by the real HostChannel with the extension's own
// handlers (extension/panels/labelHandlers.ts) over a LabelSession on a real SQLite study. What is asserted is
// what an annotator and the database see: keys pressed → rows in `judgment`, undo, blind mode, hostile documents.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { LabelSession } from '../../../core/labelling/labelSession.ts';
import { type LabelRequestKind, labelRequestHandlers } from '../../../extension/panels/labelHandlers.ts';
import { repoRoot } from '../../helpers.ts';
import { launchChromium } from '../chromium.ts';
import { applyTheme, darkModern, lightModern, offTheme, rgb } from '../themeControls.ts';
import {
  type CountingServer,
  type OpenWebview,
  openWebview,
  startCountingServer,
  startWebviewServer,
  webviewDistDir,
} from '../webviewHost.ts';
import { createLabelStudy, type LabelStudy, simpleStudy } from './labelStudy.ts';

/** Where the run's screenshots go (test-output/ is git-ignored; the README's copies are in media/screenshots/). */
export const screenshotDir = join(repoRoot, 'test-output', 'screenshots');

let browser: Browser;
let server: CountingServer;
let remote: CountingServer;
const cleanups: (() => Promise<void> | void)[] = [];

before(async () => {
  assert.ok(
    existsSync(join(webviewDistDir, 'label.js')),
    'dist/webview/label.js is missing: build it first (`npm run build`; `npm test` does)',
  );
  browser = await launchChromium();
  server = await startWebviewServer();
  // Another origin, standing for "the web": no document may make the page reach it.
  remote = await startCountingServer((_path, response) => response.writeHead(200).end('x'));
  mkdirSync(screenshotDir, { recursive: true });
});

after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await browser?.close();
  await server?.close();
  await remote?.close();
});

async function openLabelView(
  session: () => LabelSession,
  viewport = { width: 1100, height: 760 },
): Promise<OpenWebview<LabelRequestKind>> {
  const view = await openWebview(browser, server, { name: 'label', handlers: labelRequestHandlers(session), viewport });
  cleanups.push(() => view.close());
  await view.page.locator('[data-testid="label-view"]').waitFor();
  return view;
}

async function study(options: Parameters<typeof createLabelStudy>[0]): Promise<LabelStudy> {
  const created = await createLabelStudy(options);
  cleanups.push(() => created.close());
  return created;
}

/** The pair on screen once the view has painted it. */
async function shownPair(page: Page): Promise<{ pairId: number; qid: string }> {
  const pair = page.locator('[data-testid="pair"]');
  await pair.waitFor();
  return { pairId: Number(await pair.getAttribute('data-pair-id')), qid: String(await pair.getAttribute('data-qid')) };
}

/** Presses `key` and waits until a different pair (or the end of the queue) is on screen and nothing is saving. */
async function pressAndAdvance(page: Page, key: string, from: number): Promise<void> {
  await page.keyboard.press(key);
  await page.waitForFunction(
    (previous) => {
      const pair = document.querySelector('[data-testid="pair"]');
      const status = document.querySelector('[data-testid="status"]')?.textContent ?? '';
      const moved = pair ? Number(pair.getAttribute('data-pair-id')) !== previous : true;
      return moved && !status.startsWith('Saving');
    },
    from,
    { timeout: 10_000 },
  );
}

test('50 pairs labelled by keyboard are 50 judgments in SQLite, in order, by the annotator', {
  timeout: 90_000,
}, async () => {
  const labelled = await study({ ...simpleStudy(6, 10), extra: '  annotators alice bob' });
  const session = await labelled.session('alice');
  const view = await openLabelView(() => session);
  assert.equal(await view.page.locator('[data-testid="annotator"]').textContent(), 'alice');
  assert.match(String(await view.page.locator('[data-testid="progress"]').textContent()), /^0 \/ 60 judged$/);

  const keys = ['0', '1', '2'];
  const expected: { pairId: number; label: number }[] = [];
  for (let i = 0; i < 50; i++) {
    const { pairId } = await shownPair(view.page);
    const key = keys[(i * 7) % 3]!;
    expected.push({ pairId, label: Number(key) });
    await pressAndAdvance(view.page, key, pairId);
  }
  assert.match(String(await view.page.locator('[data-testid="progress"]').textContent()), /^50 \/ 60 judged$/);
  assert.equal(new Set(expected.map((e) => e.pairId)).size, 50, 'every key labelled a different pair');

  const rows = labelled.db
    .prepare(
      `SELECT j.pair_id AS pairId, j.label, j.source, a.name FROM judgment AS j JOIN annotator AS a ON a.id = j.annotator_id
       ORDER BY j.created_at, j.id`,
    )
    .all() as { pairId: number; label: number; source: string; name: string }[];
  assert.deepEqual(
    rows.map(({ pairId, label }) => ({ pairId, label })),
    expected,
    'one judgment per key press, in the order pressed',
  );
  assert.ok(rows.every((r) => r.name === 'alice' && r.source === 'manual'));
  assert.deepEqual(view.errors, []);
});

test('u retracts the last label: the pair is shown again unlabelled, and the database agrees', {
  timeout: 60_000,
}, async () => {
  const labelled = await study(simpleStudy(2, 4));
  const session = await labelled.session('carol');
  const view = await openLabelView(() => session);
  const first = await shownPair(view.page);
  await pressAndAdvance(view.page, '2', first.pairId);
  const second = await shownPair(view.page);
  await pressAndAdvance(view.page, '1', second.pairId);
  const third = await shownPair(view.page);

  await view.page.keyboard.press('u');
  await view.page.locator(`[data-testid="pair"][data-pair-id="${second.pairId}"]`).waitFor();
  await view.page.locator('[data-testid="progress"]').filter({ hasText: '1 / 8 judged' }).waitFor();
  assert.equal(await view.page.locator('[data-testid="mine"]').count(), 0, 'the undone pair shows no label of mine');
  const current = labelled.db.prepare('SELECT pair_id AS pairId, label FROM current_judgment ORDER BY pair_id').all();
  assert.deepEqual(current, [{ pairId: first.pairId, label: 2 }]);
  const all = labelled.db.prepare('SELECT count(*) FROM judgment').pluck().get();
  assert.equal(all, 2, 'undo keeps the history: the judgment stays, retracted');

  // A second u walks back further; labelling again after undo stores a new judgment.
  await view.page.keyboard.press('u');
  await view.page.locator(`[data-testid="pair"][data-pair-id="${first.pairId}"]`).waitFor();
  await view.page.locator('[data-testid="progress"]').filter({ hasText: '0 / 8 judged' }).waitFor();
  await pressAndAdvance(view.page, '0', first.pairId);
  assert.equal((await shownPair(view.page)).pairId, second.pairId);
  assert.deepEqual(labelled.db.prepare('SELECT pair_id AS pairId, label FROM current_judgment').all(), [
    { pairId: first.pairId, label: 0 },
  ]);
  assert.notEqual(third.pairId, second.pairId);
  assert.deepEqual(view.errors, []);
});

test('the view reopens where the annotator was', { timeout: 60_000 }, async () => {
  const labelled = await study(simpleStudy(3, 3));
  let session = await labelled.session('dana');
  let view = await openLabelView(() => session);
  for (let i = 0; i < 4; i++) {
    const { pairId } = await shownPair(view.page);
    await pressAndAdvance(view.page, '1', pairId);
  }
  await view.page.keyboard.press('j'); // moved on without labelling: that is where dana is
  await view.page.locator('[data-testid="position"]').filter({ hasText: 'pair 6 of 9' }).waitFor();
  const where = await shownPair(view.page);
  // The cursor write follows the move; give it the round trip it needs before the "window" closes.
  await view.page.waitForTimeout(200);
  await view.close();

  session = await labelled.session('dana'); // a new extension host: a new session over the same file
  view = await openLabelView(() => session);
  await view.page.locator('[data-testid="position"]').filter({ hasText: 'pair 6 of 9' }).waitFor();
  assert.equal((await shownPair(view.page)).pairId, where.pairId);
  assert.match(String(await view.page.locator('[data-testid="progress"]').textContent()), /^4 \/ 9 judged$/);
});

test('blind mode: no other label or suggestion reaches the view before the annotator has labelled the pair', {
  timeout: 60_000,
}, async () => {
  const labelled = await study({ ...simpleStudy(1, 3), extra: '  annotators erin frank\n  blind' });
  const db = labelled.db;
  // frank labelled every pair, and an LLM judge suggested a label with a rationale.
  const frank = await labelled.session('frank');
  for (let p = 0; p < 3; p++) {
    const pair = (await frank.pairAt(p, frank.state().queue.version, false))!;
    await frank.commit({
      position: p,
      pairId: pair.pairId,
      label: 2,
      note: `FRANK-SECRET-NOTE-${pair.pairId}`,
      queueVersion: frank.state().queue.version,
    });
  }
  const judge = db
    .prepare("INSERT INTO annotator (name, kind) VALUES ('llm:gpt-test@abc', 'llm')")
    .run().lastInsertRowid;
  for (const { id } of db.prepare('SELECT id FROM pair').all() as { id: number }[]) {
    db.prepare(
      "INSERT INTO suggestion (pair_id, annotator_id, label, rationale, created_at) VALUES (?, ?, 1, 'LLM-SECRET-RATIONALE-' || ?, '2026-01-01T00:00:00.000Z')",
    ).run(id, judge, id);
  }

  const session = await labelled.session('erin');
  const view = await openLabelView(() => session);
  const first = await shownPair(view.page);
  await view.page.locator('[data-testid="blind-notice"]').waitFor();
  const pairIds = db.prepare('SELECT id FROM pair ORDER BY id').pluck().all() as number[];
  /** The pairs whose secrets reached the page. */
  const leaked = (): number[] => {
    const posted = JSON.stringify(view.posted);
    return pairIds.filter((id) => posted.includes(`NOTE-${id}"`) || posted.includes(`RATIONALE-${id}"`));
  };
  assert.equal(await view.page.locator('[data-testid="suggestion"]').count(), 0);
  assert.equal(await view.page.locator('[data-testid="other-label"]').count(), 0);
  assert.ok(!(await view.page.content()).includes('SECRET'));
  assert.ok(!JSON.stringify(view.posted).includes('llm:gpt-test'), "not even the judge's name");
  assert.deepEqual(leaked(), [], 'nothing hidden was even sent to the page');

  // After labelling, going back shows what the others said.
  await pressAndAdvance(view.page, '0', first.pairId);
  assert.deepEqual(leaked(), [first.pairId], 'labelling one pair reveals that pair only (prefetched ones stay hidden)');
  await view.page.keyboard.press('k');
  await view.page.locator(`[data-testid="pair"][data-pair-id="${first.pairId}"]`).waitFor();
  await view.page.locator('[data-testid="suggestion"]').waitFor();
  assert.match(
    String(await view.page.locator('[data-testid="others"]').textContent()),
    new RegExp(`frank.*FRANK-SECRET-NOTE-${first.pairId}`, 's'),
  );
  assert.match(String(await view.page.locator('[data-testid="suggestion"]').textContent()), /LLM-SECRET-RATIONALE/);
  assert.equal((await shownPair(view.page)).pairId, first.pairId);
});

const hostileBodies = (remoteOrigin: string): string[] => [
  `<table><tr><td>safe cell</td></tr></table><script>window.__pwned = 'script'</script>`,
  `<img src="${remoteOrigin}/img.png" onerror="window.__pwned = 'onerror'"> caption text`,
  `<a href="javascript:window.__pwned='link'">click me</a> and <iframe src="${remoteOrigin}/frame"></iframe>`,
  `<table style="background:url(${remoteOrigin}/css.png)"><tr><td rowspan="2">merged</td><td>b</td></tr><tr><td>c</td></tr></table>`,
  `<svg onload="window.__pwned='svg'"><image href="${remoteOrigin}/svg.png"/></svg><link rel="stylesheet" href="${remoteOrigin}/x.css"><meta http-equiv="refresh" content="0;url=${remoteOrigin}/meta">`,
  `<object data="${remoteOrigin}/object"></object><form action="${remoteOrigin}/form"><button>go</button></form><style>@import url(${remoteOrigin}/import.css)</style>`,
];

for (const format of ['html', 'markdown', 'text'] as const) {
  test(`hostile ${format} documents show as text or inert markup: nothing runs, nothing loads`, {
    timeout: 60_000,
  }, async () => {
    const bodies = hostileBodies(remote.origin);
    const markdownExtras = [
      `![tracker](${remote.origin}/md.png) and [link](javascript:alert(1)) <b onmouseover=x>raw</b>`,
    ];
    const texts = format === 'markdown' ? [...bodies, ...markdownExtras] : bodies;
    const labelled = await study({
      queries: [{ qid: 'q1', text: 'safe cell merged caption' }],
      documents: texts.map((text, i) => ({ docid: `evil${i}`, title: `<img src=${remote.origin}/title.png>`, text })),
      ranking: { q1: texts.map((_, i) => `evil${i}`) },
      format,
    });
    const session = await labelled.session('gina');
    const view = await openLabelView(() => session);
    const before = remote.totalHits();
    for (let i = 0; i < texts.length; i++) {
      const { pairId } = await shownPair(view.page);
      await view.page.locator('[data-testid="document-body"]').waitFor();
      const body = view.page.locator('[data-testid="document-body"]');
      assert.equal(await body.locator('script, iframe, img, object, embed, link, meta, form, svg, style').count(), 0);
      assert.equal(await body.locator('[onerror], [onload], [onmouseover], [style], [href], [src]').count(), 0);
      if (format === 'html' && i === 3) {
        assert.equal(await body.locator('td[rowspan="2"]').count(), 1, 'table structure survives sanitising');
      }
      if (format !== 'html') {
        // Raw HTML in plain text and Markdown is shown as the characters it is.
        assert.ok((await body.textContent())?.includes('<'), 'markup shows as text');
      }
      await pressAndAdvance(view.page, '0', pairId);
    }
    await view.page.waitForTimeout(300); // anything that would load has had its chance
    assert.equal(await view.page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned), undefined);
    assert.equal(remote.totalHits() - before, 0, `requests left the page: ${[...remote.hits.keys()].join(', ')}`);
    assert.equal(view.page.url().startsWith(server.origin), true, 'the page never navigated');
  });
}

/** VS Code's Light Modern colours, set the way VS Code sets them (on <html>, through the CSSOM: the CSP allows it). */
const lightTheme: Record<string, string> = {
  '--vscode-foreground': '#3b3b3b',
  '--vscode-descriptionForeground': '#717171',
  '--vscode-editor-background': '#ffffff',
  '--vscode-panel-border': '#e5e5e5',
  '--vscode-textLink-foreground': '#005fb8',
  '--vscode-input-background': '#ffffff',
  '--vscode-input-foreground': '#3b3b3b',
  '--vscode-input-border': '#cecece',
  '--vscode-textPreformat-background': '#f2f2f2',
  '--vscode-editor-findMatchHighlightBackground': '#ea5c0055',
  '--vscode-inputValidation-errorBackground': '#f2dede',
  '--vscode-button-background': '#005fb8',
  '--vscode-button-foreground': '#ffffff',
  '--vscode-button-secondaryBackground': '#e5e5e5',
  '--vscode-button-secondaryForeground': '#3b3b3b',
  '--vscode-checkbox-background': '#f8f8f8',
  '--vscode-checkbox-border': '#cecece',
  '--vscode-checkbox-foreground': '#3b3b3b',
  '--vscode-settings-checkboxBackground': '#f8f8f8',
  '--vscode-settings-checkboxBorder': '#cecece',
};

test('screenshots of the Label view in a light and a dark theme', { timeout: 60_000 }, async () => {
  const labelled = await study({
    queries: [
      {
        qid: 'wqt-17',
        text: 'medal tables of the summer olympics',
        instruction:
          'Find tables listing medal counts per country at a Summer Olympics, excluding the 2008 Beijing Olympics. ' +
          'The table must give gold, silver and bronze separately.',
        constraints: [
          'Lists medal counts per country at a Summer Olympics',
          'Is not about the 2008 Beijing Olympics',
          'Gives gold, silver and bronze separately',
        ],
      },
    ],
    documents: [
      {
        docid: 'tbl-2012-medals',
        title: '2012 Summer Olympics medal table',
        text:
          '| Rank | Nation | Gold | Silver | Bronze |\n|---|---|---|---|---|\n' +
          '| 1 | United States | 46 | 29 | 29 |\n| 2 | China | 38 | 27 | 23 |\n| 3 | Great Britain | 29 | 17 | 19 |\n' +
          '\nMedal counts of the London 2012 Summer Olympics, unlike the 2008 Beijing Olympics table.',
      },
    ],
    ranking: { 'wqt-17': ['tbl-2012-medals'] },
    extra:
      '  aspect topical "Is the table about Olympic medal counts?"\n  conditions from constraints\n  derive label = all(conditions) ? 2 : topical ? 1 : 0',
  });
  const session = await labelled.session('alice');
  const view = await openLabelView(() => session);
  await view.page.locator('[data-testid="document-body"] table').waitFor();
  for (const n of [1, 2, 3]) await view.page.keyboard.press(`Shift+Digit${n}`);
  await view.page.locator('[data-testid="derived"]').filter({ hasText: 'Derived from your answers: 1' }).waitFor();
  await view.page.screenshot({ path: join(screenshotDir, 'label-dark.png') });
  // VS Code's Light Modern, as themeControls.ts has it (every control's colours), with the view's own extras.
  await applyTheme(view.page, { ...lightModern, colours: { ...lightModern.colours, ...lightTheme } });
  await view.page.screenshot({ path: join(screenshotDir, 'label-light.png') });
  assert.ok(existsSync(join(screenshotDir, 'label-dark.png')) && existsSync(join(screenshotDir, 'label-light.png')));
  assert.deepEqual(await view.cspViolations(), []);
  assert.deepEqual(view.errors, []);
});

test('answers by Shift+digit, a note by n, Enter commits the derived label; ? shows guidelines and keys', {
  timeout: 60_000,
}, async () => {
  const labelled = await study({
    queries: [
      {
        qid: 'c2-1',
        text: 'population of european capitals',
        instruction: 'Tables of capital city populations, excluding Berlin and Paris.',
        constraints: ['Gives populations of capital cities', 'Is not about Berlin or Paris'],
      },
      {
        qid: 'c2-2',
        text: 'rainfall by month',
        instruction: 'Monthly figures only.',
        constraints: ['Monthly rainfall'],
      },
    ],
    documents: [
      { docid: 'cap-1', title: 'Capitals', text: 'Population of European capitals: Madrid, Rome and Paris.' },
      { docid: 'rain-1', title: 'Rain', text: 'Rainfall by month in Bergen.' },
    ],
    ranking: { 'c2-1': ['cap-1'], 'c2-2': ['rain-1'] },
    extra:
      '  aspect topical "On topic?"\n  conditions from constraints\n  derive label = all(conditions) ? 2 : topical ? 1 : 0',
    guidelines: '# How to judge\n\nLabel **2** only when every condition holds. <script>window.__pwned = 1</script>',
  });
  const session = await labelled.session('hana');
  const view = await openLabelView(() => session);
  const { page } = view;
  const first = await shownPair(page);
  // The query's terms are marked in the document, the instruction's excluded entities differently.
  await page.locator('[data-testid="document-body"] mark.term').first().waitFor();
  assert.ok((await page.locator('[data-testid="document-body"] mark.term').allTextContents()).includes('Population'));
  assert.deepEqual(await page.locator('[data-testid="document-body"] mark.excluded').allTextContents(), ['Paris']);
  assert.deepEqual(await page.locator('[data-testid="instruction"] mark.excluded').allTextContents(), [
    'Berlin',
    'Paris',
  ]);

  await page.keyboard.press('Shift+Digit1'); // topical
  await page.keyboard.press('Shift+Digit2'); // condition 1
  await page.locator('[data-testid="derived"]').filter({ hasText: 'answers: 1' }).waitFor();
  await page.keyboard.press('Shift+Digit3'); // condition 2
  await page.locator('[data-testid="derived"]').filter({ hasText: 'answers: 2' }).waitFor();
  await page.keyboard.press('n');
  await page.keyboard.type('all conditions hold; 0 and 1 typed here do not label');
  await page.keyboard.press('Escape');
  await pressAndAdvance(page, 'Enter', first.pairId);

  const db = labelled.db;
  const judgment = db.prepare('SELECT id, label, rationale FROM judgment').get() as {
    id: number;
    label: number;
    rationale: string;
  };
  assert.deepEqual(
    { label: judgment.label, rationale: judgment.rationale },
    {
      label: 2,
      rationale: 'all conditions hold; 0 and 1 typed here do not label',
    },
  );
  assert.deepEqual(db.prepare('SELECT condition, satisfied FROM condition_judgment ORDER BY condition').all(), [
    { condition: 1, satisfied: 1 },
    { condition: 2, satisfied: 1 },
  ]);
  assert.deepEqual(db.prepare('SELECT aspect, answer FROM aspect_judgment').all(), [{ aspect: 'topical', answer: 1 }]);

  // The next pair starts with nothing ticked; going back shows the stored answers.
  assert.equal(
    await page
      .locator('[data-testid="derived"]')
      .textContent()
      .then((t) => t?.includes('answers: 0')),
    true,
  );
  await page.keyboard.press('k');
  await page.locator('[data-testid="mine"]').filter({ hasText: '2' }).waitFor();
  assert.equal(
    await page.locator('[data-testid="note"]').inputValue(),
    'all conditions hold; 0 and 1 typed here do not label',
  );

  await page.keyboard.press('?');
  await page.locator('[data-testid="guidelines"]').filter({ hasText: 'How to judge' }).waitFor();
  assert.match(String(await page.locator('[data-testid="key-map"]').textContent()), /⇧2.*Gives populations/s);
  assert.ok((await page.locator('[data-testid="guidelines"]').textContent())?.includes('<script>'), 'raw HTML as text');
  assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
  await page.keyboard.press('Escape');
  await page.locator('[data-testid="help-overlay"]').waitFor({ state: 'detached' });
});

test('a graded aspect: Shift+digit cycles its level, a click sets it, the derived sum is committed with the levels', {
  timeout: 60_000,
}, async () => {
  // DORIS-MAE's rule: 1 per aspect mostly met + 2 per aspect fully met, on a 0..4 scale for two aspects.
  const labelled = await study({
    ...simpleStudy(1, 1),
    scaleLevels: [0, 1, 2, 3, 4].map((v) => `${v} "Score ${v}" key "${v}"`),
    extra:
      '  aspect a1 "Aspect 1 met?" levels 0 1 2\n  aspect a2 "Aspect 2 met?" levels 0 1 2\n' +
      '  aspect topical "On topic?"\n  derive label = a1 + a2',
  });
  const session = await labelled.session('gita');
  const { page } = await openLabelView(() => session);
  const { pairId } = await shownPair(page);
  const levelOf = (name: string) => page.locator(`[data-testid="aspect-${name}"]`).getAttribute('data-level');
  // Unanswered: the lowest level, derived 0 + 0 = 0.
  assert.equal(await levelOf('a1'), '0');
  await page.locator('[data-testid="derived"]').filter({ hasText: 'answers: 0' }).waitFor();
  await page.keyboard.press('Shift+Digit1'); // a1 → 1
  await page.keyboard.press('Shift+Digit1'); // a1 → 2
  await page.keyboard.press('Shift+Digit2'); // a2 → 1
  await page.keyboard.press('Shift+Digit3'); // topical: yes (a yes/no aspect still ticks)
  // a1 fully met (2) + a2 mostly met (1) = 3.
  await page.locator('[data-testid="derived"]').filter({ hasText: 'answers: 3' }).waitFor();
  assert.equal(await levelOf('a1'), '2');
  assert.equal(await levelOf('a2'), '1');
  // Past the highest level back to the lowest: a1 2 → 0, then 0 → 1; derived 1 + 1 = 2.
  await page.keyboard.press('Shift+Digit1');
  await page.keyboard.press('Shift+Digit1');
  await page.locator('[data-testid="derived"]').filter({ hasText: 'answers: 2' }).waitFor();
  // A click on a level sets it: a2 → 2; derived 1 + 2 = 3.
  await page.locator('[data-testid="aspect-a2-level-2"]').click();
  await page.locator('[data-testid="derived"]').filter({ hasText: 'answers: 3' }).waitFor();
  assert.equal(await page.locator('[data-testid="aspect-a2-level-2"]').getAttribute('aria-pressed'), 'true');
  await page.keyboard.press('?');
  assert.match(
    String(await page.locator('[data-testid="key-map"]').textContent()),
    /⇧1tick Aspect 1 met\? \(next level: 0 → 1 → 2\)/,
  );
  await page.keyboard.press('Escape');
  await page.locator('[data-testid="help-overlay"]').waitFor({ state: 'detached' });
  await pressAndAdvance(page, 'Enter', pairId);
  const db = labelled.db;
  assert.deepEqual(db.prepare('SELECT label FROM judgment').all(), [{ label: 3 }]);
  assert.deepEqual(db.prepare('SELECT aspect, answer FROM aspect_judgment ORDER BY aspect').all(), [
    { aspect: 'a1', answer: 1 },
    { aspect: 'a2', answer: 2 },
    { aspect: 'topical', answer: 1 },
  ]);
});

test('a guidelines file that went missing is said in the help overlay, not left loading', {
  timeout: 60_000,
}, async () => {
  const labelled = await study({ ...simpleStudy(1, 1), guidelines: '# Rules\n' });
  rmSync(join(labelled.folder, 'guidelines.md'));
  const session = await labelled.session('ivan');
  const view = await openLabelView(() => session);
  await shownPair(view.page);
  await view.page.keyboard.press('?');
  const error = view.page.locator('[data-testid="guidelines-error"]');
  await error.waitFor();
  assert.match(String(await error.textContent()), /guidelines\.md/);
});

test('label/refresh (a judge ran meanwhile): the pair on screen shows its new suggestion, the note being typed stays', {
  timeout: 60_000,
}, async () => {
  const labelled = await study(simpleStudy(1, 2));
  const session = await labelled.session('kim');
  const view = await openLabelView(() => session);
  const { pairId } = await shownPair(view.page);
  await view.page.keyboard.press('n');
  await view.page.keyboard.type('half-written note');
  const db = labelled.db;
  const judge = db.prepare("INSERT INTO annotator (name, kind) VALUES ('llm:m@12345678', 'llm')").run().lastInsertRowid;
  db.prepare(
    "INSERT INTO suggestion (pair_id, annotator_id, label, rationale, created_at) VALUES (?, ?, 2, 'judged meanwhile', '2026-01-01T00:00:00.000Z')",
  ).run(pairId, judge);
  view.host.postEvent('label/refresh', {});
  await view.page.locator('[data-testid="suggestion"]', { hasText: 'judged meanwhile' }).waitFor();
  assert.equal(await view.page.locator('[data-testid="note"]').inputValue(), 'half-written note');
  assert.equal((await shownPair(view.page)).pairId, pairId);
});

test('in a blind study the orders that would reveal others are offered disabled; the adjudicator has them', {
  timeout: 60_000,
}, async () => {
  const labelled = await study({ ...simpleStudy(1, 2), extra: '  annotators lea max\n  adjudicator ada\n  blind' });
  const disabledOrders = async (annotator: string): Promise<string[]> => {
    const session = await labelled.session(annotator);
    const view = await openLabelView(() => session);
    await shownPair(view.page);
    return view.page
      .locator('[data-testid="queue-order"] option:disabled')
      .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
  };
  assert.deepEqual(await disabledOrders('lea'), ['confidence', 'disagreement']);
  assert.deepEqual(await disabledOrders('ada'), []);
});

test('every control follows the theme, dark and light: Previous/Next chunk, Back, the queue order, Unlabelled only, the note', {
  timeout: 60_000,
}, async () => {
  const labelled = await study({
    queries: [{ qid: 'q1', text: 'tides' }],
    documents: [1, 2, 3, 4].map((n) => ({ docid: `a#${n}`, parent: 'a', text: `Tides, chunk ${n} of a.` })),
    ranking: { q1: ['a#2'] },
  });
  const session = await labelled.session('alice');
  const view = await openLabelView(() => session);
  await view.page.getByRole('button', { name: 'Next chunk' }).click();
  await view.page.getByRole('button', { name: 'Back to a#2' }).waitFor();
  const nextChunk = view.page.getByRole('button', { name: 'Next chunk' });
  for (const theme of [darkModern, lightModern]) {
    await applyTheme(view.page, theme);
    assert.deepEqual(await offTheme(view.page, theme), [], theme.kind);
    assert.deepEqual(
      await nextChunk.evaluate((e) => [getComputedStyle(e).backgroundColor, getComputedStyle(e).color]),
      [
        rgb(theme.colours['--vscode-button-secondaryBackground']!),
        rgb(theme.colours['--vscode-button-secondaryForeground']!),
      ],
      theme.kind,
    );
    const checkbox = view.page.locator('[data-testid="unlabelled-only"]');
    assert.equal(
      await checkbox.evaluate((e) => getComputedStyle(e).backgroundColor),
      rgb(theme.colours['--vscode-checkbox-background']!),
    );
  }
  assert.deepEqual(view.errors, []);
});
