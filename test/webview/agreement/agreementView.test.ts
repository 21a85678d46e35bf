// The Agreement view's bundle in real headless Chromium, served by the real HostChannel with the extension's own
// handlers (extension/panels/agreementHandlers.ts) over a real SQLite study whose labels were stored through
// LabelSessions (people) and as an LLM judge's imported judgments. What is asserted is what a study lead sees and
// what the Label view would be handed: the statistics core computes (checked against summariseAgreement here),
// the targets met or missed, the queries by disagreement, and exactly the pairs an adjudication queue holds.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import {
  type AdjudicationSelection,
  agreementDashboard,
  annotatorConfusion,
} from '../../../core/agreement/agreementDashboard.ts';
import { summariseAgreement } from '../../../core/agreement/agreementSummary.ts';
import { targetVerdictText } from '../../../core/agreement/agreementTarget.ts';
import { binarise } from '../../../core/agreement/reliabilityData.ts';
import { readStudyLabels } from '../../../core/agreement/studyLabels.ts';
import type { LabelSession } from '../../../core/labelling/labelSession.ts';
import {
  type AgreementRequestKind,
  type AgreementSource,
  adjudicationTitle,
  agreementRequestHandlers,
  bootstrapSamples,
} from '../../../extension/panels/agreementHandlers.ts';
import { fixed, percent } from '../../../webview/agreement/agreementFormat.ts';
import { repoRoot } from '../../helpers.ts';
import { launchChromium } from '../chromium.ts';
import { createLabelStudy, type LabelStudy, simpleStudy } from '../label/labelStudy.ts';
import { applyTheme, darkModern, lightModern, offTheme } from '../themeControls.ts';
import {
  type CountingServer,
  type OpenWebview,
  openWebview,
  startWebviewServer,
  webviewDistDir,
} from '../webviewHost.ts';

const screenshotDir = join(repoRoot, 'test-output', 'screenshots');
const judge = 'llm:gpt-test@abc123';

let browser: Browser;
let server: CountingServer;
const cleanups: (() => Promise<void> | void)[] = [];

before(async () => {
  assert.ok(
    existsSync(join(webviewDistDir, 'agreement.js')),
    'dist/webview/agreement.js is missing: build it first (`npm run build`; `npm test` does)',
  );
  browser = await launchChromium();
  server = await startWebviewServer();
  mkdirSync(screenshotDir, { recursive: true });
});

after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await browser?.close();
  await server?.close();
});

/** A study labelled through LabelSessions; its record (`store`) is what the handlers read. */
type Labelled = LabelStudy;

async function study(options: Parameters<typeof createLabelStudy>[0]): Promise<Labelled> {
  const created = await createLabelStudy(options);
  cleanups.push(() => created.close());
  return created;
}

/** Labels every pair of the annotator's queue that `label` gives a label for, through the Label view's session. */
async function labelWith(
  opening: LabelSession | Promise<LabelSession>,
  label: (qid: string, docid: string) => number | undefined,
): Promise<void> {
  const session = await opening;
  const { queue } = session.state();
  for (let position = 0; position < queue.length; position++) {
    const version = session.state().queue.version;
    const pair = (await session.pairAt(position, version, false))!;
    const value = label(pair.query.qid, pair.document!.docid);
    if (value !== undefined) {
      await session.commit({ position, pairId: pair.pairId, label: value, queueVersion: version });
    }
  }
}

/** `d3-4` → the pair's index in a simpleStudy (queries of 5 documents): 2 × 5 + 3 = 13. */
const indexOf = (docid: string): number => {
  const [, q, d] = /^d(\d+)-(\d+)$/.exec(docid)!;
  return (Number(q) - 1) * 5 + Number(d) - 1;
};

const aliceLabel = (k: number): number => k % 3;
/** bob disagrees with alice on four pairs of q3 and one of q1; carol (q1 and q2 only) on two; the judge on a few. */
const bobLabel = (k: number): number => ([10, 11, 12, 13, 0].includes(k) ? (aliceLabel(k) + 1) % 3 : aliceLabel(k));
const carolLabel = (k: number): number | undefined =>
  k >= 10 ? undefined : [1, 5].includes(k) ? (aliceLabel(k) + 2) % 3 : aliceLabel(k);
const judgeLabel = (k: number): number => (k % 4 === 0 ? (aliceLabel(k) + 1) % 3 : aliceLabel(k));

/**
 * Four queries of five documents; alice, bob and carol label through LabelSessions, an LLM judge's labels are
 * imported judgments. α (ordinal)'s interval lies above its target 0.2 (met); the mean κ's reaches below its
 * target 0.95 (not yet).
 */
async function agreementStudy(): Promise<Labelled> {
  const labelled = await study({
    ...simpleStudy(4, 5),
    extra: [
      '  annotators alice bob carol',
      '  adjudicator dana',
      '  agreement krippendorff ordinal target 0.2',
      '  agreement cohen nominal target 0.95',
    ].join('\n'),
  });
  await labelWith(labelled.session('alice'), (_q, d) => aliceLabel(indexOf(d)));
  await labelWith(labelled.session('bob'), (_q, d) => bobLabel(indexOf(d)));
  await labelWith(labelled.session('carol'), (_q, d) => carolLabel(indexOf(d)));
  for (let k = 0; k < 20; k++) {
    const docid = `d${Math.floor(k / 5) + 1}-${(k % 5) + 1}`;
    await labelled.store.labels.addJudgment({
      study: 'dev',
      qid: `q${Math.floor(k / 5) + 1}`,
      docid,
      annotator: judge,
      label: judgeLabel(k),
      source: 'imported',
    });
  }
  return labelled;
}

interface AdjudicationCall {
  selection: AdjudicationSelection;
  pairIds: number[];
  title: string;
}

interface AgreementView extends OpenWebview<AgreementRequestKind> {
  /** What the adjudication hook was called with. */
  calls: AdjudicationCall[];
}

async function openAgreementView(
  source: () => AgreementSource | Promise<AgreementSource>,
  options: { onAdjudicate?: (call: AdjudicationCall) => void; viewport?: { width: number; height: number } } = {},
): Promise<AgreementView> {
  const calls: AdjudicationCall[] = [];
  const handlers = agreementRequestHandlers(source, {
    bootstrap: 200,
    onAdjudicate: async (selection, pairIds, title) => {
      calls.push({ selection, pairIds, title });
      options.onAdjudicate?.({ selection, pairIds, title });
    },
  });
  const view = await openWebview(browser, server, {
    name: 'agreement',
    handlers,
    viewport: options.viewport ?? { width: 1280, height: 1000 },
  });
  cleanups.push(() => view.close());
  await view.page.locator('[data-testid="agreement-view"]').waitFor();
  return Object.assign(view, { calls });
}

const sourceOf = (labelled: Labelled, study = labelled.study): (() => Promise<AgreementSource>) => {
  return async () => ({ store: labelled.store, studyId: await labelled.store.studies.studyId(study.name), study });
};

/** The heat-map cell of two annotators (row a, column b). */
const cell = (page: Page, a: string, b: string) =>
  page.locator(`[data-testid="heat-cell"][data-a="${a}"][data-b="${b}"]`);

/** The page's text has no NaN, Infinity or "undefined" printed as a value. */
async function assertNoBrokenNumbers(page: Page): Promise<void> {
  const text = await page.evaluate(() => document.body.innerText);
  assert.doesNotMatch(text, /NaN|Infinity|\bnull\b/);
  // "undefined" appears only as "undefined because …" or "(undefined value)".
  for (const match of text.matchAll(/undefined(?! because| value| at every point)/g)) {
    assert.fail(`"undefined" printed as a value: …${text.slice(Math.max(0, match.index - 40), match.index + 40)}…`);
  }
}

/** The pairs on which two annotators' current labels differ, straight from the record's current labels. */
async function disagreeingPairs(labelled: Labelled, a: string, b: string): Promise<number[]> {
  const labels = await labelled.store.exports.currentLabels('dev');
  const of = (name: string) =>
    new Map(labels.filter((l) => l.annotator === name).map((l) => [`${l.qid}\u0000${l.docid}`, l.label]));
  const [x, y] = [of(a), of(b)];
  const differ = [...x].filter(([key, label]) => y.has(key) && y.get(key) !== label).map(([key]) => key);
  const ids = await labelled.store.agreement.pairIds(
    await labelled.store.studies.studyId('dev'),
    differ.map((key) => key.split('\u0000') as [string, string]),
  );
  return ids.sort((i, j) => i - j);
}

test('the heat map, headlines against their targets, confusion matrix, queries and trend of a real study', {
  timeout: 90_000,
}, async () => {
  const labelled = await agreementStudy();
  const studyId = await labelled.store.studies.studyId('dev');
  const data = (await readStudyLabels(labelled.store, studyId, [0, 1, 2])).data;
  const summary = summariseAgreement(data);
  const dashboard = await agreementDashboard(labelled.store, studyId, labelled.study, { bootstrap: 0 });
  const view = await openAgreementView(sourceOf(labelled));
  const { page } = view;

  // Rows and columns: people by name, then the LLM judge, after a heavier rule.
  assert.deepEqual(await page.locator('.heat-map .row-name').allInnerTexts(), [
    'alice',
    'bob',
    'carol',
    `${judge} LLM`,
  ]);
  assert.equal(await page.locator('.heat-map tr.kind-boundary-row .row-name').innerText(), `${judge} LLM`);
  // Every cell is the κ core computes for the pair, both ways round, with its shared units and disagreements.
  assert.equal(summary.cohen.length, 6);
  for (const pair of summary.cohen) {
    const shown = dashboard.pairs.find((p) => p.a === pair.a && p.b === pair.b)!;
    for (const [a, b] of [
      [pair.a, pair.b],
      [pair.b, pair.a],
    ] as const) {
      const c = cell(page, a, b);
      assert.equal(await c.innerText(), fixed(pair.unweighted), `${a} ↔ ${b}`);
      const title = String(await c.getAttribute('title'));
      assert.match(title, new RegExp(`${pair.n} shared units · ${shown.disagreements} disagreement`));
    }
  }
  assert.equal(await cell(page, 'alice', 'bob').getAttribute('data-disagreements'), '5');
  assert.equal(await cell(page, 'alice', 'carol').getAttribute('data-shared'), '10');
  // The selector shows the weighted κ (quadratic: the study names no weighting), α, percent agreement.
  await page.locator('[data-testid="heat-metric"]').selectOption('weightedKappa');
  await cell(page, 'alice', 'bob')
    .filter({ hasText: fixed(summary.cohen.find((p) => p.b === 'bob')!.quadratic) })
    .waitFor();
  for (const pair of summary.cohen) assert.equal(await cell(page, pair.a, pair.b).innerText(), fixed(pair.quadratic));
  await page.locator('[data-testid="heat-metric"]').selectOption('percent');
  for (const pair of summary.cohen) {
    assert.equal(await cell(page, pair.a, pair.b).innerText(), percent(pair.percent_agreement));
  }
  // Cells are shaded by value: the pair agreeing most is shaded more than the one agreeing least.
  await page.locator('[data-testid="heat-metric"]').selectOption('kappa');
  const heatOf = async (a: string, b: string) =>
    Number.parseFloat(await cell(page, a, b).evaluate((e) => (e as HTMLElement).style.getPropertyValue('--heat')));
  const ranked = [...summary.cohen].sort((x, y) => (y.unweighted ?? 0) - (x.unweighted ?? 0));
  assert.ok((await heatOf(ranked[0]!.a, ranked[0]!.b)) > (await heatOf(ranked.at(-1)!.a, ranked.at(-1)!.b)));

  // Headlines: α meets its target (green: its interval's lower bound clears it), the mean κ not yet (amber); each
  // with a 95 % interval (the view's, with the handlers' 200 resamples).
  const judged = await agreementDashboard(labelled.store, studyId, labelled.study, { bootstrap: 200 });
  const alpha = judged.headlines.find((h) => h.metric === 'krippendorff')!;
  const kappa = judged.headlines.find((h) => h.metric === 'cohen')!;
  assert.ok(alpha.interval![0] >= 0.2 && kappa.value! < 0.95, `the data: α ${alpha.interval}, κ ${kappa.value}`);
  const alphaCard = page.locator('[data-testid="headline"][data-metric="krippendorff"]');
  const kappaCard = page.locator('[data-testid="headline"][data-metric="cohen"]');
  assert.equal(await alphaCard.getAttribute('data-state'), 'met');
  assert.equal(await kappaCard.getAttribute('data-state'), 'not-yet');
  assert.equal(await alphaCard.locator('[data-testid="headline-value"]').innerText(), fixed(alpha.value));
  assert.equal(await kappaCard.locator('[data-testid="headline-value"]').innerText(), fixed(kappa.value));
  assert.match(
    await alphaCard.locator('[data-testid="headline-interval"]').innerText(),
    /^95 % CI \[\d\.\d{3}, \d\.\d{3}\]$/,
  );
  assert.equal(
    await alphaCard.locator('[data-testid="headline-target"]').innerText(),
    `✓ ${targetVerdictText(alpha.verdict!, (v) => fixed(v))}`,
  );
  assert.match(await alphaCard.locator('[data-testid="headline-target"]').innerText(), /target 0\.200: met \(n = 20, /);
  assert.equal(
    await kappaCard.locator('[data-testid="headline-target"]').innerText(),
    `… ${targetVerdictText(kappa.verdict!, (v) => fixed(v))}`,
  );
  assert.match(
    await kappaCard.locator('[data-testid="headline-target"]').innerText(),
    /target 0\.950: not yet \(n = 20, /,
  );
  const colour = (card: typeof alphaCard) =>
    card.locator('[data-testid="headline-target"]').evaluate((e) => getComputedStyle(e).color);
  assert.equal(await colour(alphaCard), 'rgb(115, 201, 145)', 'green: --vscode-testing-iconPassed');
  assert.equal(await colour(kappaCard), 'rgb(204, 167, 0)', 'amber: --vscode-editorWarning-foreground');
  // People with people, people with the LLM: the mean κ of each kind.
  for (const kind of ['human-human', 'human-llm'] as const) {
    const row = page.locator(`[data-testid="kind-mean"][data-kind="${kind}"] td`).first();
    assert.equal(await row.innerText(), fixed(summary.cohen_mean[kind]!.unweighted));
  }

  // The confusion matrix of a person and the LLM judge (the default pair), labelled with the scale's names.
  const confusion = page.locator('[data-testid="confusion"]');
  await confusion.waitFor();
  assert.equal(await confusion.getAttribute('data-a'), 'alice');
  assert.equal(await confusion.getAttribute('data-b'), judge);
  const expected = annotatorConfusion(data, 'alice', judge);
  const counts = async () =>
    (await page.locator('[data-testid="confusion-cell"]').allInnerTexts()).map((t) => Number(t.replace(/,/g, '')));
  assert.deepEqual(await counts(), expected.counts.flat());
  assert.deepEqual(await page.locator('[data-testid="confusion-row"]').allInnerTexts(), [
    '0 Not relevant',
    '1 Relevant',
    '2 Highly relevant',
  ]);
  // Any other two: bob (rows) against carol (columns).
  await page.locator('[data-testid="confusion-a"]').selectOption('bob');
  await page.locator('[data-testid="confusion-b"]').selectOption('carol');
  await page.locator('[data-testid="confusion"][data-a="bob"][data-b="carol"]').waitFor();
  assert.deepEqual(await counts(), annotatorConfusion(data, 'bob', 'carol').counts.flat());

  // Queries by disagreement: q3 (bob's four) first, as core sorts them.
  const qids = await page
    .locator('[data-testid="query-row"]')
    .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-qid')));
  assert.deepEqual(
    qids,
    dashboard.queries.map((q) => q.qid),
  );
  assert.equal(qids[0], 'q3');
  const disagreements = dashboard.queries.map((q) => q.disagreements);
  assert.deepEqual(
    disagreements,
    [...disagreements].sort((x, y) => y - x),
  );
  const q3 = page.locator('[data-testid="query-row"][data-qid="q3"] td');
  assert.deepEqual(await q3.allInnerTexts(), [
    '5',
    '4',
    percent(dashboard.queries[0]!.percent),
    fixed(dashboard.queries[0]!.alpha),
  ]);

  // The trend: a line through every defined point, the target dashed.
  const trend = page.locator('svg[data-testid="trend"]');
  await trend.waitFor();
  assert.equal(
    await trend.locator('[data-testid="trend-point"]').count(),
    dashboard.trend.filter((p) => p.value !== null).length,
  );
  assert.ok(dashboard.trend.length >= 10);
  assert.equal(await trend.locator('[data-testid="trend-target"] line').getAttribute('stroke-dasharray'), '6 4');
  assert.match(String(await trend.locator('path.trend-line').getAttribute('d')), /^M[\d.]+,[\d.]+(L[\d.]+,[\d.]+)+$/);

  assert.match(
    await page.locator('[data-testid="adjudicate-all"]').innerText(),
    new RegExp(`Adjudicate all ${dashboard.disagreements} disagreements`),
  );
  await assertNoBrokenNumbers(page);
  assert.deepEqual(await view.cspViolations(), []);
  assert.deepEqual(view.errors, []);
});

test('a cell, a query row (by keyboard) and "Adjudicate all" hand the adjudication hook exactly their disagreements', {
  timeout: 60_000,
}, async () => {
  const labelled = await agreementStudy();
  let refuse: string | undefined;
  const view = await openAgreementView(sourceOf(labelled), {
    onAdjudicate: () => {
      if (refuse) throw new Error(refuse);
    },
  });
  const { page } = view;
  const status = page.locator('[data-testid="adjudication-status"]');
  const adjudicateRequests = () =>
    view.received
      .filter((m) => (m as { kind: string }).kind === 'agreement/adjudicate')
      .map((m) => (m as { params: unknown }).params);

  // A heat-map cell: alice ↔ bob.
  await cell(page, 'alice', 'bob').locator('button').click();
  await status.filter({ hasText: 'Opened 5 disagreements of alice and bob' }).waitFor();
  assert.deepEqual(adjudicateRequests(), [{ kind: 'pair', a: 'alice', b: 'bob' }]);
  assert.equal(view.calls.length, 1);
  assert.deepEqual(view.calls[0]!.selection, { kind: 'pair', a: 'alice', b: 'bob' });
  assert.deepEqual(
    [...view.calls[0]!.pairIds].sort((x, y) => x - y),
    await disagreeingPairs(labelled, 'alice', 'bob'),
  );
  assert.equal(view.calls[0]!.title, 'alice ↔ bob: 5 disagreements');

  // A person against the LLM judge, from the judge's row, by keyboard.
  await cell(page, judge, 'carol').locator('button').focus();
  await page.keyboard.press('Enter');
  await status.filter({ hasText: `of ${judge} and carol` }).waitFor();
  assert.deepEqual(view.calls[1]!.selection, { kind: 'pair', a: judge, b: 'carol' });
  assert.deepEqual(
    [...view.calls[1]!.pairIds].sort((x, y) => x - y),
    await disagreeingPairs(labelled, judge, 'carol'),
  );

  // A query row, by keyboard: focus its button, Enter. q3's disagreements are among the people: bob's four.
  const q3 = page.locator('[data-testid="query-row"][data-qid="q3"] button');
  await q3.focus();
  await page.keyboard.press('Enter');
  await status.filter({ hasText: 'Opened 4 disagreements of query q3' }).waitFor();
  assert.deepEqual(view.calls[2]!.selection, { kind: 'query', qid: 'q3' });
  const q3Pairs = (
    await labelled.store.agreement.pairIds(
      await labelled.store.studies.studyId('dev'),
      ['d3-1', 'd3-2', 'd3-3', 'd3-4'].map((docid): [string, string] => ['q3', docid]),
    )
  ).sort((x, y) => x - y);
  assert.deepEqual(
    [...view.calls[2]!.pairIds].sort((x, y) => x - y),
    q3Pairs,
  );
  // A query without disagreements is not a button, and clicking its row asks nothing.
  await page.locator('[data-testid="query-row"][data-qid="q4"]').click();
  assert.equal(await page.locator('[data-testid="query-row"][data-qid="q4"] button').count(), 0);

  // Everything: the units where any two people differ (q1: bob and carol; q2: carol; q3: bob).
  await page.locator('[data-testid="adjudicate-all"]').click();
  await status.filter({ hasText: 'Opened all 7 disagreements' }).waitFor();
  assert.deepEqual(view.calls[3]!.selection, { kind: 'all' });
  assert.equal(view.calls[3]!.title, 'all 7 disagreements');
  const peopleDisagree = new Set([
    ...(await disagreeingPairs(labelled, 'alice', 'bob')),
    ...(await disagreeingPairs(labelled, 'alice', 'carol')),
    ...(await disagreeingPairs(labelled, 'bob', 'carol')),
  ]);
  assert.deepEqual(
    [...view.calls[3]!.pairIds].sort((x, y) => x - y),
    [...peopleDisagree].sort((x, y) => x - y),
  );
  assert.equal(view.calls.length, 4);

  // The host refuses (no adjudicator, the switch declined): the view says why, as an alert.
  refuse = "study 'dev' declares no adjudicator: add `adjudicator NAME` to its block to adjudicate its disagreements";
  await cell(page, 'bob', 'carol').locator('button').click();
  await page
    .locator('[data-testid="adjudication-status"][role="alert"]')
    .filter({ hasText: 'declares no adjudicator' })
    .waitFor();
  assert.deepEqual(view.errors, []);
});

test('binarised at a threshold: the report, the cells and the confusion matrix are of relevant / not relevant', {
  timeout: 60_000,
}, async () => {
  const labelled = await agreementStudy();
  const studyId = await labelled.store.studies.studyId('dev');
  const data = (await readStudyLabels(labelled.store, studyId, [0, 1, 2])).data;
  const binary = summariseAgreement(binarise(data, 2));
  const view = await openAgreementView(sourceOf(labelled));
  const { page } = view;
  await page.locator('[data-testid="threshold"]').selectOption('2');
  await page.locator('[data-testid="confusion-row"]').filter({ hasText: 'relevant (≥ 2)' }).first().waitFor();
  const reports = view.received.filter((m) => (m as { kind: string }).kind === 'agreement/report');
  assert.deepEqual((reports.at(-1) as { params: unknown }).params, { threshold: 2 });
  for (const pair of binary.cohen) assert.equal(await cell(page, pair.a, pair.b).innerText(), fixed(pair.unweighted));
  assert.deepEqual(await page.locator('[data-testid="confusion-row"]').allInnerTexts(), [
    '0 not relevant (< 2)',
    '1 relevant (≥ 2)',
  ]);
  // Adjudicating while binarised: only the pairs where alice and bob fall on different sides of 2.
  await cell(page, 'alice', 'bob').locator('button').click();
  await page.locator('[data-testid="adjudication-status"]').filter({ hasText: 'Opened' }).waitFor();
  const binaryDisagreements = [10, 11, 12, 13, 0].filter((k) => aliceLabel(k) >= 2 !== bobLabel(k) >= 2);
  assert.equal(view.calls[0]!.pairIds.length, binaryDisagreements.length);
  // Back to the labels as given.
  await page.locator('[data-testid="threshold"]').selectOption('');
  await page.locator('[data-testid="confusion-row"]').filter({ hasText: '2 Highly relevant' }).waitFor();
  assert.deepEqual(view.errors, []);
});

test('labels stored after the view opened appear on the refresh event', { timeout: 60_000 }, async () => {
  const labelled = await study({ ...simpleStudy(2, 3), extra: '  annotators erin fred' });
  await labelWith(labelled.session('erin'), (_q, d) => indexOf(d) % 3);
  const view = await openAgreementView(sourceOf(labelled));
  const { page } = view;
  await page.locator('[data-testid="single-annotator"]').waitFor();
  assert.match(await page.locator('[data-testid="single-annotator"]').innerText(), /Only erin has labelled/);
  await labelWith(labelled.session('fred'), (_q, d) => indexOf(d) % 3);
  view.host.postEvent('agreement/refresh', {});
  await cell(page, 'erin', 'fred').filter({ hasText: '1.000' }).waitFor();
  assert.equal(await page.locator('[data-testid="single-annotator"]').count(), 0);
  assert.deepEqual(view.errors, []);
});

test('a report the host cannot compute is an error shown in the view, and Try again asks again', {
  timeout: 60_000,
}, async () => {
  const labelled = await agreementStudy();
  let broken = true;
  const source = sourceOf(labelled);
  const calls: AdjudicationCall[] = [];
  const view = await openWebview(browser, server, {
    name: 'agreement',
    handlers: agreementRequestHandlers(
      () => {
        if (broken) throw new Error('dev.assess could not be opened (the notification says why)');
        return source();
      },
      {
        bootstrap: 0,
        onAdjudicate: async (selection, pairIds, title) => void calls.push({ selection, pairIds, title }),
      },
    ),
  });
  cleanups.push(() => view.close());
  await view.page.locator('[data-testid="error"]').filter({ hasText: 'dev.assess could not be opened' }).waitFor();
  broken = false;
  await view.page.locator('[data-testid="retry"]').click();
  await view.page.locator('[data-testid="heat-map"]').waitFor();
  assert.equal(await view.page.locator('[data-testid="error"]').count(), 0);
  assert.deepEqual(view.errors, []);
});

test('four units clearing the target by their point estimate are "not yet"; a judge on other units changes nothing', {
  timeout: 90_000,
}, async () => {
  // Two people on q1's four documents (three alike); q2's documents are left to an LLM judge, later.
  const labelled = await study({
    ...simpleStudy(2, 4),
    extra: '  annotators alice bob\n  agreement krippendorff ordinal target 0.67',
  });
  const people = [0, 1, 2, 2];
  await labelWith(labelled.session('alice'), (q, d) => (q === 'q1' ? people[Number(d.split('-')[1]) - 1] : undefined));
  await labelWith(labelled.session('bob'), (q, d) =>
    q === 'q1' ? [0, 1, 1, 2][Number(d.split('-')[1]) - 1] : undefined,
  );
  const studyId = await labelled.store.studies.studyId('dev');
  const source = sourceOf(labelled);
  const headlineOf = async () => {
    const view = await openAgreementView(source);
    const card = view.page.locator('[data-testid="headline"][data-metric="krippendorff"]');
    const shown = {
      state: await card.getAttribute('data-state'),
      value: await card.locator('[data-testid="headline-value"]').innerText(),
      interval: await card.locator('[data-testid="headline-interval"]').innerText(),
      target: await card.locator('[data-testid="headline-target"]').innerText(),
    };
    await view.close();
    return shown;
  };
  const [alpha] = (await agreementDashboard(labelled.store, studyId, labelled.study, { bootstrap: 200 })).headlines;
  assert.ok(alpha!.value! >= 0.67 && alpha!.interval![0] < 0.67, `the data: α ${alpha!.value} ${alpha!.interval}`);
  const before = await headlineOf();
  assert.equal(before.state, 'not-yet');
  assert.equal(before.value, fixed(alpha!.value));
  assert.equal(
    before.target,
    `… target 0.670: not yet (n = 4, 95 % interval [${fixed(alpha!.interval![0])}, ${fixed(alpha!.interval![1])}])`,
  );
  assert.doesNotMatch(before.target, /meets|✓/);

  // The judge labels q2's documents (none of them the people's) and one of q1's: the people's headline is unmoved.
  for (const docid of ['d2-1', 'd2-2', 'd2-3', 'd2-4', 'd1-1']) {
    await labelled.store.labels.addJudgment({
      study: 'dev',
      qid: docid.startsWith('d2') ? 'q2' : 'q1',
      docid,
      annotator: judge,
      label: 2,
      source: 'imported',
    });
  }
  const after = await headlineOf();
  assert.deepEqual(after, before);
});

test('degenerate studies: no labels, one annotator, one category, no shared pairs — "—" and why, never NaN', {
  timeout: 90_000,
}, async () => {
  const labelled = await study({
    ...simpleStudy(2, 3),
    extra: '  annotators gus hal ida\n  agreement krippendorff ordinal target 0.67\n  agreement cohen nominal',
  });
  const source = sourceOf(labelled);

  // No labels yet.
  let view = await openAgreementView(source);
  await view.page.locator('[data-testid="empty"]').waitFor();
  assert.match(await view.page.locator('[data-testid="empty"]').innerText(), /No labels yet/);
  await assertNoBrokenNumbers(view.page);
  await view.close();

  // One annotator: every statistic undefined, each saying why; the target is neither met nor missed.
  await labelWith(labelled.session('gus'), () => 1);
  view = await openAgreementView(source);
  const alpha = view.page.locator('[data-testid="headline"][data-metric="krippendorff"]');
  assert.equal(await alpha.getAttribute('data-state'), 'undefined');
  assert.equal(await alpha.locator('[data-testid="headline-value"]').innerText(), '—');
  assert.match(await alpha.locator('[data-testid="headline-reason"]').innerText(), /^undefined because .+/);
  assert.match(await alpha.locator('[data-testid="headline-target"]').innerText(), /target 0\.670: not known/);
  const kappa = view.page.locator('[data-testid="headline"][data-metric="cohen"]');
  assert.match(await kappa.locator('[data-testid="headline-reason"]').innerText(), /at least two annotators/);
  await view.page.locator('[data-testid="single-annotator"]').waitFor();
  await view.page.locator('[data-testid="trend-undefined"]').waitFor();
  await assertNoBrokenNumbers(view.page);
  await view.close();

  // Two annotators, one category: κ and α undefined because there is no variation.
  await labelWith(labelled.session('hal'), () => 1);
  view = await openAgreementView(source);
  const same = cell(view.page, 'gus', 'hal');
  assert.equal(await same.innerText(), '—');
  assert.match(String(await same.getAttribute('title')), /undefined because chance agreement is 1/);
  assert.match(
    await view.page
      .locator('[data-testid="headline"][data-metric="krippendorff"] [data-testid="headline-reason"]')
      .innerText(),
    /undefined because every pairable label is the same category/,
  );
  await view.page.locator('[data-testid="heat-metric"]').selectOption('percent');
  await cell(view.page, 'gus', 'hal').filter({ hasText: '100.0 %' }).waitFor();
  await assertNoBrokenNumbers(view.page);
  await view.close();

  // Two annotators who labelled no pair in common (another study: gus q1 only, ida q2 only).
  const apartStudy = await study({ ...simpleStudy(2, 3), extra: '  annotators gus ida' });
  await labelWith(apartStudy.session('gus'), (q, d) => (q === 'q1' ? indexOf(d) % 3 : undefined));
  await labelWith(apartStudy.session('ida'), (q, d) => (q === 'q2' ? indexOf(d) % 3 : undefined));
  view = await openAgreementView(sourceOf(apartStudy));
  const apart = cell(view.page, 'gus', 'ida');
  assert.equal(await apart.innerText(), '—');
  assert.equal(await apart.getAttribute('data-shared'), '0');
  assert.match(
    String(await apart.getAttribute('title')),
    /undefined because the two annotators labelled no unit in common/,
  );
  await assertNoBrokenNumbers(view.page);
  assert.deepEqual(await view.cspViolations(), []);
  assert.deepEqual(view.errors, []);
});

test('the handlers: no disagreement is zero pairs and no queue; titles say what the queue holds; bad input refused', async () => {
  const labelled = await agreementStudy();
  const calls: string[] = [];
  const handlers = agreementRequestHandlers(sourceOf(labelled), {
    bootstrap: 0,
    onAdjudicate: async (_selection, _ids, title) => {
      calls.push(title);
    },
  });
  assert.deepEqual(await handlers['agreement/adjudicate']({ kind: 'query', qid: 'q4' }), { pairs: 0 });
  assert.deepEqual(calls, [], 'the hook is not called for an empty queue');
  assert.deepEqual(await handlers['agreement/adjudicate']({ kind: 'query', qid: 'q2' }), { pairs: 1 });
  assert.deepEqual(calls, ['query q2: 1 disagreement']);
  await assert.rejects(
    Promise.resolve(handlers['agreement/adjudicate']({ kind: 'pair', a: 'alice', b: 'zoe' })),
    /no labels by 'zoe'/,
  );
  await assert.rejects(
    Promise.resolve(handlers['agreement/report']({ threshold: Number.NaN })),
    /expected the threshold to be a number/,
  );
  assert.equal(adjudicationTitle({ kind: 'all' }, 1200), 'all 1,200 disagreements');
  // Fewer bootstrap samples for big studies (the report is computed again after every pause in labelling).
  assert.deepEqual([bootstrapSamples(20), bootstrapSamples(200_000), bootstrapSamples(5_000_000)], [1000, 250, 200]);
});

test("the confusion matrix fits a 1,400 px wide window: TREC DL's four grades, five people and two LLM judges", {
  timeout: 90_000,
}, async () => {
  const people = ['alice', 'bob', 'carol', 'dmitri', 'emma'];
  const judges = ['llm:gpt-4.1-mini-2025-04-14@3f2a9c1b', 'llm:qwen2.5-72b-instruct@9e1d0c44'];
  const grades = ['Irrelevant', 'Related', 'Highly relevant', 'Perfectly relevant'];
  const labelled = await study({
    ...simpleStudy(12, 25),
    scaleLevels: grades.map((name, value) => `${value} "${name}" key "${value}"`),
    extra: `  annotators ${people.join(' ')}`,
  });
  // Everyone labels every pair; each person or judge shifts a different share of the grades by one.
  const grade = (k: number, who: number): number => (k * 7 + (k % (who + 3) === 0 ? 1 : 0)) % 4;
  for (const [who, person] of people.entries()) {
    await labelWith(labelled.session(person), (_q, d) => grade(indexOf25(d), who));
  }
  for (const [j, annotator] of judges.entries()) {
    for (let k = 0; k < 300; k++) {
      await labelled.store.labels.addJudgment({
        study: 'dev',
        qid: `q${Math.floor(k / 25) + 1}`,
        docid: `d${Math.floor(k / 25) + 1}-${(k % 25) + 1}`,
        annotator,
        label: grade(k, people.length + j),
        source: 'imported',
      });
    }
  }
  const view = await openAgreementView(sourceOf(labelled), { viewport: { width: 1400, height: 1000 } });
  const { page } = view;
  // The widest pair to show: a person's rows against the longest-named judge's columns.
  await page.locator('[data-testid="confusion"]').waitFor();
  await page.locator('[data-testid="confusion-a"]').selectOption(people[2]!);
  await page.locator('[data-testid="confusion-b"]').selectOption(judges[0]!);
  const confusion = page.locator(`[data-testid="confusion"][data-a="${people[2]}"][data-b="${judges[0]}"]`);
  await confusion.waitFor();
  // No horizontal scrolling, neither in the matrix's box nor of the page, in a 1,400 px wide window: the view alone,
  // beside VS Code's activity bar (48 px), and beside the activity bar and a side bar at its default 300 px.
  for (const width of [1400, 1352, 1052]) {
    await page.setViewportSize({ width, height: 1000 });
    const overflow = await confusion.evaluate((table) => {
      const box = table.closest('.table-scroll')!;
      const root = document.scrollingElement!;
      return {
        matrix: { scrollWidth: box.scrollWidth, clientWidth: box.clientWidth },
        page: { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth },
      };
    });
    const at = `at ${width} px: ${JSON.stringify(overflow)}`;
    assert.ok(overflow.matrix.scrollWidth <= overflow.matrix.clientWidth, `the matrix scrolls ${at}`);
    assert.ok(overflow.page.scrollWidth <= overflow.page.clientWidth, `the page scrolls ${at}`);
  }
  // Nothing lost: every grade by value and name, the rows in their text, the columns at least in their titles.
  assert.deepEqual(
    await page.locator('[data-testid="confusion-row"]').allInnerTexts(),
    grades.map((name, value) => `${value} ${name}`),
  );
  const columns = await page
    .locator('[data-testid="confusion-column"]')
    .evaluateAll((cells) => cells.map((c) => ({ text: (c as HTMLElement).innerText, title: c.getAttribute('title') })));
  assert.deepEqual(
    columns.map((c) => [c.text.split(/\s/)[0], `${c.text} ${c.title ?? ''}`.includes(grades[Number(c.text[0])]!)]),
    grades.map((_, value) => [String(value), true]),
  );
  const data = (await readStudyLabels(labelled.store, await labelled.store.studies.studyId('dev'), [0, 1, 2, 3])).data;
  assert.deepEqual(
    (await page.locator('[data-testid="confusion-cell"]').allInnerTexts()).map((t) => Number(t.replace(/,/g, ''))),
    annotatorConfusion(data, people[2]!, judges[0]!).counts.flat(),
  );
  // The pickers, the cells' buttons and the query links are in the theme's colours, dark and light.
  for (const theme of [darkModern, lightModern]) {
    await applyTheme(page, theme);
    assert.deepEqual(await offTheme(page, theme), [], theme.kind);
  }
  assert.deepEqual(view.errors, []);
});

/** `d3-4` → the pair's index in a simpleStudy of 25 documents a query: 2 × 25 + 3 = 53. */
const indexOf25 = (docid: string): number => {
  const [, q, d] = /^d(\d+)-(\d+)$/.exec(docid)!;
  return (Number(q) - 1) * 25 + Number(d) - 1;
};

/** VS Code's Light Modern colours, set the way VS Code sets them (on <html>, through the CSSOM). */
const lightTheme: Record<string, string> = {
  '--vscode-foreground': '#3b3b3b',
  '--vscode-descriptionForeground': '#717171',
  '--vscode-editor-background': '#ffffff',
  '--vscode-panel-border': '#e5e5e5',
  '--vscode-textLink-foreground': '#005fb8',
  '--vscode-input-background': '#ffffff',
  '--vscode-input-foreground': '#3b3b3b',
  '--vscode-input-border': '#cecece',
  '--vscode-testing-iconPassed': '#388a34',
  '--vscode-testing-iconFailed': '#e51400',
  '--vscode-charts-green': '#388a34',
  '--vscode-charts-red': '#e51400',
  '--vscode-charts-blue': '#1a85ff',
  '--vscode-charts-yellow': '#bf8803',
  '--vscode-inputValidation-errorBackground': '#f2dede',
  '--vscode-inputValidation-errorBorder': '#be1100',
  '--vscode-button-background': '#005fb8',
  '--vscode-button-foreground': '#ffffff',
  '--vscode-button-secondaryBackground': '#e5e5e5',
  '--vscode-button-secondaryForeground': '#3b3b3b',
};

test('screenshots of the Agreement view in a light and a dark theme', { timeout: 60_000 }, async () => {
  const labelled = await agreementStudy();
  const view = await openAgreementView(sourceOf(labelled), { viewport: { width: 1280, height: 920 } });
  const { page } = view;
  await page.locator('[data-testid="confusion"]').waitFor();
  await page.locator('svg[data-testid="trend"]').waitFor();
  await page.screenshot({ path: join(screenshotDir, 'agreement-dark.png'), fullPage: true });
  // VS Code's Light Modern, as themeControls.ts has it (every control's colours), with the view's own extras.
  await applyTheme(page, { ...lightModern, colours: { ...lightModern.colours, ...lightTheme } });
  await page.screenshot({ path: join(screenshotDir, 'agreement-light.png'), fullPage: true });
  assert.ok(existsSync(join(screenshotDir, 'agreement-dark.png')));
  assert.ok(existsSync(join(screenshotDir, 'agreement-light.png')));
  assert.deepEqual(await view.cspViolations(), []);
  assert.deepEqual(view.errors, []);
});
