// The Evaluate view's bundle in real headless Chromium, served by the real HostChannel with the extension's own
// handlers (extension/panels/evaluateHandlers.ts) over a real SQLite study with two pooled runs and labels stored
// through a LabelSession. Asserted: the runs × measures table (values worked by hand), sorting, the breakdown by
// instruction type, the comparison (paired tests as core computes them, per-query differences as bars and rows),
// another label source, and no NaN, no CSP violation. And without a browser: the handlers compare the runs of the
// report the view shows, not of labels stored since.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import type { LabelSession } from '../../../core/labelling/labelSession.ts';
import { defaultIrsOptions } from '../../../core/metrics/instruction/instructionMeasure.ts';
import { instructionResponsiveness } from '../../../core/metrics/instruction/irs.ts';
import { compareStudyRuns, evaluateStudyRuns } from '../../../core/metrics/studyEvaluation.ts';
import { type EvaluateSource, evaluateRequestHandlers } from '../../../extension/panels/evaluateHandlers.ts';
import { repoRoot } from '../../helpers.ts';
import { launchChromium } from '../chromium.ts';
import { createLabelStudy, simpleStudy } from '../label/labelStudy.ts';
import { type CountingServer, openWebview, startWebviewServer, webviewDistDir } from '../webviewHost.ts';

const screenshotDir = join(repoRoot, 'test-output', 'screenshots');
let browser: Browser;
let server: CountingServer;

before(async () => {
  assert.ok(
    existsSync(join(webviewDistDir, 'evaluate.js')),
    'dist/webview/evaluate.js is missing: run `npm run build`',
  );
  browser = await launchChromium();
  server = await startWebviewServer();
  mkdirSync(screenshotDir, { recursive: true });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** Labels the pair (qid, docid) through the Label view's session. */
async function labelPair(
  opening: LabelSession | Promise<LabelSession>,
  [qid, docid]: [string, string],
  label: number,
): Promise<void> {
  const session = await opening;
  const { queue } = session.state();
  for (let position = 0; position < queue.length; position++) {
    const pair = (await session.pairAt(position, queue.version, false))!;
    if (pair.query.qid === qid && pair.document?.docid === docid) {
      await session.commit({ position, pairId: pair.pairId, label, queueVersion: queue.version });
      return;
    }
  }
  throw new Error(`pair ${qid} ${docid} is not in the queue`);
}

/** Three queries (types C1, C1, S2), bm25 ranking d1 … d4, dense the reverse; d2 and d4 relevant (q3: d3 too). */
async function evaluatedStudy() {
  const base = simpleStudy(3, 4);
  base.queries.forEach((q, i) => {
    q.type = i < 2 ? 'C1' : 'S2';
  });
  let dense = '';
  for (let q = 1; q <= 3; q++) {
    for (let d = 4; d >= 1; d--) dense += `q${q} Q0 d${q}-${d} ${5 - d} ${d}.0 dense\n`;
  }
  const study = await createLabelStudy({ ...base, files: { 'dense.run': dense }, extra: '  pool "dense.run" depth 4' });
  const store = study.store;
  const studyId = await store.studies.studyId('dev');
  const alice = await study.session('alice');
  for (let q = 1; q <= 3; q++) {
    const labels = [0, 1, q === 3 ? 1 : 0, 2];
    for (const [i, label] of labels.entries()) await labelPair(alice, [`q${q}`, `d${q}-${i + 1}`], label);
  }
  const source: EvaluateSource = { store, studyId, study: study.study, folder: study.folder };
  return { study, source };
}

test('runs × measures, sorting, breakdown by type, and two runs compared', { timeout: 60_000 }, async () => {
  const { study, source } = await evaluatedStudy();
  const view = await openWebview(browser, server, {
    name: 'evaluate',
    handlers: evaluateRequestHandlers(() => source, { seed: 1 }),
    viewport: { width: 1100, height: 1000 },
  });
  try {
    const { page } = view;
    await page.locator('[data-testid="runs-table"]').waitFor();
    // AP by hand: bm25 (d1 d2 d3 d4), relevant d2 d4: (1/2 + 2/4) / 2 = 0.5; q3 (d2 d3 d4): (1/2 + 2/3 + 3/4) / 3
    // = 0.6389 → MAP 0.5463. dense (d4 d3 d2 d1): (1 + 2/3) / 2 = 0.8333 twice, q3 1 → MAP 0.8889.
    const mapOf = (run: string) =>
      page.locator(`[data-testid="run-row"][data-run="${run}"] td[data-measure="map"]`).innerText();
    assert.equal(await mapOf('bm25.run'), '0.5463');
    assert.equal(await mapOf('dense.run'), '0.8889');
    const order = () =>
      page.locator('[data-testid="run-row"]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-run')));
    assert.deepEqual(await order(), ['bm25.run', 'dense.run'], 'the study file’s order');
    await page.locator('[data-testid="sort-map"]').click();
    assert.deepEqual(await order(), ['dense.run', 'bm25.run'], 'sorted by MAP, best first');
    await page.locator('[data-testid="sort-map"]').click();
    assert.deepEqual(await order(), ['bm25.run', 'dense.run'], 'again: worst first');
    assert.equal(await page.locator('[data-testid="sort-map"]').innerText(), 'map ▲');

    // One run's queries, worst first.
    await page.locator('[data-testid="run-row"][data-run="bm25.run"] [data-testid="drill"]').click();
    const drilled = await page
      .locator('[data-testid="run-query-row"]')
      .evaluateAll((rows) => rows.map((r) => [...r.children].map((c) => c.textContent)));
    assert.deepEqual(drilled, [
      ['q1', 'C1', '', '0.5000'],
      ['q2', 'C1', '', '0.5000'],
      ['q3', 'S2', '', '0.6389'],
    ]);
    await page.locator('[data-testid="run-row"][data-run="bm25.run"] [data-testid="drill"]').click();
    await page.locator('[data-testid="run-queries"]').waitFor({ state: 'detached' });

    // Breakdown by instruction type (macro means of MAP).
    const breakdown = await page
      .locator('[data-testid="breakdown-row"]')
      .evaluateAll((rows) => rows.map((r) => [...r.children].map((c) => c.textContent)));
    assert.deepEqual(breakdown, [
      ['type C1', '2', '0.5000', '0.8333'],
      ['type S2', '1', '0.6389', '1.0000'],
    ]);

    // Comparison of dense (B) against bm25 (A): the numbers core computes.
    const report = await evaluateStudyRuns(
      source.store,
      source.studyId,
      source.study,
      source.folder,
      'adjudicated-else-majority',
    );
    const expected = compareStudyRuns(report, 'bm25.run', 'dense.run', { seed: 1 });
    await page.locator('[data-testid="test-row"][data-measure="map"]').waitFor();
    const mapRow = await page.locator('[data-testid="test-row"][data-measure="map"] td').allInnerTexts();
    assert.equal(mapRow[0], `+${expected.tests.map!.meanDifference.toFixed(4)}`);
    assert.match(mapRow[1]!, new RegExp(`^${expected.tests.map!.randomisationP!.toFixed(4)}`));
    assert.equal(mapRow[2], expected.tests.map!.tTestP!.toFixed(4));
    assert.equal(mapRow[3], '3');
    assert.equal(await page.locator('[data-testid="delta-bar"]').count(), 3);
    const queries = await page
      .locator('[data-testid="query-row"]')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-qid')));
    assert.deepEqual(
      queries,
      expected.deltas.map!.map((d) => d.qid),
      'largest difference first',
    );
    assert.equal(queries[0], 'q3');

    // A baseline: IRS and p-MRR of dense against bm25 (labels 2 compliant, 1 violating), as core computes them.
    await page.locator('[data-testid="baseline"]').selectOption('bm25.run');
    await page.locator('[data-testid="sort-irs"]').waitFor();
    const ranks = (order: number[], q: number) => order.map((d) => ({ docid: `d${q}-${d}`, score: 0 }));
    const irsByQuery = [1, 2, 3].map((q) =>
      instructionResponsiveness(
        ranks([4, 3, 2, 1], q),
        ranks([1, 2, 3, 4], q),
        [`d${q}-4`],
        q === 3 ? [`d${q}-2`, `d${q}-3`] : [`d${q}-2`],
        defaultIrsOptions,
      ),
    );
    const sum = irsByQuery.reduce((s, v) => s + v, 0);
    const irsOf = (run: string) =>
      page.locator(`[data-testid="run-row"][data-run="${run}"] td[data-measure="irs"]`).innerText();
    assert.equal(await irsOf('dense.run'), (sum / 3).toFixed(4));
    assert.equal(await irsOf('bm25.run'), '—', 'the baseline has no IRS against itself');
    assert.ok(Number(await irsOf('dense.run')) > 0);
    // The breakdown of IRS: means over the queries that have it; none for the baseline (not 0).
    await page.locator('[data-testid="sort-irs"]').click();
    const irsBreakdown = await page
      .locator('[data-testid="breakdown-row"]')
      .evaluateAll((rows) => rows.map((r) => [...r.children].map((c) => c.textContent)));
    assert.deepEqual(irsBreakdown, [
      ['type C1', '2', '—', ((irsByQuery[0]! + irsByQuery[1]!) / 2).toFixed(4)],
      ['type S2', '1', '—', irsByQuery[2]!.toFixed(4)],
    ]);
    assert.deepEqual(await order(), ['dense.run', 'bm25.run'], 'a run without the measure sorts last');
    await page.locator('[data-testid="baseline"]').selectOption('');
    await page.locator('[data-testid="sort-irs"]').waitFor({ state: 'detached' });

    // Another label source: one with no labels says so.
    await page.locator('[data-testid="source"]').selectOption('adjudicated');
    await page.locator('[data-testid="empty"]').waitFor();
    assert.match(await page.locator('[data-testid="empty"]').innerText(), /No labels from adjudicated yet/);
    await page.locator('[data-testid="source"]').selectOption('annotator:alice');
    await page.locator('[data-testid="runs-table"]').waitFor();
    assert.equal(await mapOf('dense.run'), '0.8889');

    assert.doesNotMatch(await page.locator('body').innerText(), /NaN/);
    assert.deepEqual(view.errors, []);
    assert.deepEqual(await view.cspViolations(), []);
    await page.screenshot({ path: join(screenshotDir, 'evaluate.png'), fullPage: true });
  } finally {
    await view.close();
    await study.close();
  }
});

test('the comparison is of the report the view names, even after a newer report counts labels stored since', async () => {
  const { study, source } = await evaluatedStudy();
  try {
    const handlers = evaluateRequestHandlers(() => source, { seed: 1 });
    const request = { from: undefined, baseline: undefined };
    const shown = await handlers['evaluate/report'](request);
    const { reportId: _, ...shownReport } = shown;
    const before = compareStudyRuns(shownReport, 'bm25.run', 'dense.run', { seed: 1 });
    // alice finds q1's d1 highly relevant: bm25 ranks it first, so bm25's q1 improves.
    const alice = study.session('alice');
    await labelPair(alice, ['q1', 'd1-1'], 2);
    // The host evaluates the next report before the view asks for the comparison of the one it shows.
    const next = await handlers['evaluate/report'](request);
    assert.notEqual(next.reportId, shown.reportId);
    const { reportId: __, ...nextReport } = next;
    const after = compareStudyRuns(nextReport, 'bm25.run', 'dense.run', { seed: 1 });
    assert.notDeepEqual(after.deltas.map, before.deltas.map, 'the new label changes the numbers');
    const compare = (reportId: number) => handlers['evaluate/compare']({ reportId, a: 'bm25.run', b: 'dense.run' });
    assert.deepEqual(await compare(shown.reportId), { ...before, reportId: shown.reportId }, 'the report on screen');
    assert.deepEqual(await compare(next.reportId), { ...after, reportId: next.reportId });
    await assert.rejects(async () => compare(next.reportId + 1), /no longer current/, 'a report the host never made');
  } finally {
    await study.close();
  }
});

test('a comparison is shown only beside the report it was computed from, whatever order the replies come in', {
  timeout: 60_000,
}, async () => {
  const { study, source } = await evaluatedStudy();
  const real = evaluateRequestHandlers(() => source, { seed: 1 });
  // Comparisons are computed at once but their replies are held back while `holding`, to reorder them against
  // reports: the way a slow comparison lands after the next report in VS Code.
  let holding = false;
  const held: (() => void)[] = [];
  const handlers: typeof real = {
    ...real,
    'evaluate/compare': async (params) => {
      const value = await real['evaluate/compare'](params);
      if (holding) await new Promise<void>((release) => held.push(release));
      return value;
    },
  };
  const view = await openWebview(browser, server, { name: 'evaluate', handlers });
  try {
    const { page } = view;
    const mapOf = (run: string) =>
      page.locator(`[data-testid="run-row"][data-run="${run}"] td[data-measure="map"]`).innerText();
    const shownDifference = () => page.locator('[data-testid="test-row"][data-measure="map"] td').first().innerText();
    await page.locator('[data-testid="test-row"][data-measure="map"]').waitFor();
    const first = await evaluateStudyRuns(
      source.store,
      source.studyId,
      source.study,
      source.folder,
      'adjudicated-else-majority',
    );
    const signedMap = (report: typeof first) => {
      const d = compareStudyRuns(report, 'bm25.run', 'dense.run', { seed: 1 }).tests.map!.meanDifference;
      return `${d > 0 ? '+' : ''}${d.toFixed(4).replace(/^-/, '−')}`;
    };
    assert.equal(await shownDifference(), signedMap(first));

    // alice finds q1's d1 highly relevant (bm25 ranks it first): a new report, whose comparison is held back.
    holding = true;
    const alice = await study.session('alice');
    const pairOf = (docid: string): [string, string] => ['q1', docid];
    await labelPair(alice, pairOf('d1-1'), 2);
    const second = await evaluateStudyRuns(source.store, source.studyId, source.study, source.folder, first.from);
    const secondMap = second.runs.find((r) => r.run === 'bm25.run')!.all.map!.toFixed(4);
    assert.notEqual(signedMap(second), signedMap(first), 'the label changes the comparison');
    view.host.postEvent('evaluate/refresh', {});
    await page.waitForFunction(
      (expected) =>
        document.querySelector('[data-testid="run-row"][data-run="bm25.run"] td[data-measure="map"]')?.textContent ===
        expected,
      secondMap,
    );
    assert.equal(
      await page.locator('[data-testid="tests"]').count(),
      0,
      'no comparison beside the new table until its own arrives (the old one would contradict it)',
    );

    // Another label and report while the second comparison is still held; then the second comparison lands late.
    await labelPair(alice, pairOf('d1-2'), 0);
    const third = await evaluateStudyRuns(source.store, source.studyId, source.study, source.folder, first.from);
    const thirdMap = third.runs.find((r) => r.run === 'bm25.run')!.all.map!.toFixed(4);
    view.host.postEvent('evaluate/refresh', {});
    await page.waitForFunction(
      (expected) =>
        document.querySelector('[data-testid="run-row"][data-run="bm25.run"] td[data-measure="map"]')?.textContent ===
        expected,
      thirdMap,
    );
    while (held.length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    held.shift()!(); // the second report's comparison, after the third report
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 50))));
    assert.equal(await page.locator('[data-testid="tests"]').count(), 0, 'a comparison of an older report is dropped');
    holding = false;
    held.shift()!();
    await page.locator('[data-testid="test-row"][data-measure="map"]').waitFor();
    assert.equal(await shownDifference(), signedMap(third));
    assert.equal(await mapOf('bm25.run'), thirdMap);
    assert.deepEqual(view.errors, []);
  } finally {
    await view.close();
    await study.close();
  }
});

test('a reply to the page before a reload does not answer the reloaded page (request ids do not restart)', {
  timeout: 60_000,
}, async () => {
  const { study, source } = await evaluatedStudy();
  const real = evaluateRequestHandlers(() => source, { seed: 1 });
  const held: (() => void)[] = [];
  let holding = true;
  const handlers: typeof real = {
    ...real,
    'evaluate/compare': async (params) => {
      const value = await real['evaluate/compare'](params);
      if (holding) await new Promise<void>((release) => held.push(release));
      return value;
    },
  };
  const view = await openWebview(browser, server, { name: 'evaluate', handlers });
  try {
    const { page } = view;
    const compareRequests = () =>
      view.received.filter((m) => (m as { kind?: string }).kind === 'evaluate/compare').length;
    while (compareRequests() < 1) await new Promise((resolve) => setTimeout(resolve, 10));
    // VS Code re-creates a hidden webview's page; the host still answers what the old page asked.
    await page.reload();
    await page.locator('[data-testid="runs-table"]').waitFor();
    while (held.length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    holding = false;
    held.shift()!(); // the old page's comparison reaches the new page first
    held.shift()!();
    await page.locator('[data-testid="test-row"][data-measure="map"]').waitFor({ timeout: 10_000 });
    assert.deepEqual(view.errors, []);
  } finally {
    await view.close();
    await study.close();
  }
});

test("a study whose scale declares gains: the view's nDCG takes them, and its header says so", {
  timeout: 60_000,
}, async () => {
  // FollowTable: b violates (1, gain 0), a follows (2, gain 1), c is off-topic (0); the run ranks b, a, c.
  const study = await createLabelStudy({
    queries: [{ qid: 'q1', text: 'sales by region' }],
    documents: ['a', 'b', 'c'].map((docid) => ({ docid, text: `table ${docid}` })),
    ranking: { q1: ['b', 'a', 'c'] },
    scaleLevels: ['0 "Off-topic" key "0"', '1 "Violates" key "1" gain 0', '2 "Follows" key "2" gain 1'],
  });
  const store = study.store;
  const studyId = await store.studies.studyId('dev');
  const alice = await study.session('alice');
  for (const [docid, label] of [
    ['a', 2],
    ['b', 1],
    ['c', 0],
  ] as const) {
    await labelPair(alice, ['q1', docid], label);
  }
  const source: EvaluateSource = { store, studyId, study: study.study, folder: study.folder };
  const view = await openWebview(browser, server, {
    name: 'evaluate',
    handlers: evaluateRequestHandlers(() => source, { seed: 1 }),
  });
  try {
    const { page } = view;
    await page.locator('[data-testid="runs-table"]').waitFor();
    // Gains 0, 1, 0 in rank order: DCG = 1/log2 3, the ideal 1: 0.6309 (with gain = label it would be 0.8597).
    const ndcg = page.locator('[data-testid="run-row"][data-run="bm25.run"] td[data-measure="ndcg_cut_10"]');
    assert.equal(await ndcg.innerText(), '0.6309');
    assert.match(
      await page.locator('[data-testid="label-count"]').innerText(),
      /nDCG gains from the scale \(1→0, 2→1\)/,
    );
  } finally {
    await view.close();
    await study.close();
  }
});
