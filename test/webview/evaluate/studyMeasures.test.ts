// A study that picks its measures (`measures map "rbp@0.5"`): the Evaluate view's table has exactly those columns —
// rbp@0.5 with its residual — with the values worked by hand, in real headless Chromium over the extension's own
// handlers and a real SQLite study with labels stored through a LabelSession. And a gdeval measure on query ids
// gdeval cannot read (q1: it takes topic numbers) is gdeval's positioned error, not other numbers.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import type { LabelSession } from '../../../core/labelling/labelSession.ts';
import { evaluateStudyRuns } from '../../../core/metrics/studyEvaluation.ts';
import { type EvaluateSource, evaluateRequestHandlers } from '../../../extension/panels/evaluateHandlers.ts';
import { launchChromium } from '../chromium.ts';
import { createLabelStudy, simpleStudy } from '../label/labelStudy.ts';
import { type CountingServer, openWebview, startWebviewServer, webviewDistDir } from '../webviewHost.ts';

let browser: Browser;
let server: CountingServer;

before(async () => {
  assert.ok(
    existsSync(join(webviewDistDir, 'evaluate.js')),
    'dist/webview/evaluate.js is missing: run `npm run build`',
  );
  browser = await launchChromium();
  server = await startWebviewServer();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

async function labelPair(session: LabelSession, [qid, docid]: [string, string], label: number): Promise<void> {
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

/**
 * bm25 ranks d1 … d4 of three queries; labels 0 1 0 2 (q3: 0 1 1 2). By hand:
 * - rbp@0.5 (rbp_eval: relevant at grade ≥ 1): q1, q2 ½·(½ + ⅛) = 0.3125, q3 ½·(½ + ¼ + ⅛) = 0.4375 → 0.3542; the
 *   residual is what lies below rank 4, 0.5⁴ = 0.0625, for each query;
 * - map: q1, q2 (½ + 2/4)/2 = 0.5, q3 (½ + ⅔ + ¾)/3 = 0.6389 → 0.5463.
 */
async function studyWithMeasures(measures = 'map "rbp@0.5"') {
  const study = await createLabelStudy({ ...simpleStudy(3, 4), extra: `  measures ${measures}` });
  const alice = await study.session('alice');
  for (let q = 1; q <= 3; q++) {
    const labels = [0, 1, q === 3 ? 1 : 0, 2];
    for (const [i, label] of labels.entries()) await labelPair(alice, [`q${q}`, `d${q}-${i + 1}`], label);
  }
  const studyId = await study.store.studies.studyId('dev');
  const source: EvaluateSource = { store: study.store, studyId, study: study.study, folder: study.folder };
  return { study, source };
}

test("the study's measures: the report's columns and values, rbp with its residual", async () => {
  const { study, source } = await studyWithMeasures();
  try {
    assert.deepEqual(study.study.measures, ['map', 'rbp@0.5']);
    const report = await evaluateStudyRuns(
      source.store,
      source.studyId,
      source.study,
      source.folder,
      'annotator:alice',
    );
    assert.deepEqual(report.measures, ['map', 'rbp@0.5', 'rbp_residual@0.5']);
    const bm25 = report.runs[0]!;
    assert.equal(bm25.all.map!.toFixed(4), '0.5463');
    assert.equal(bm25.all['rbp@0.5']!.toFixed(4), '0.3542');
    assert.equal(bm25.all['rbp_residual@0.5'], 0.0625);
    assert.equal(bm25.perQuery.q3!['rbp@0.5'], 0.4375);
  } finally {
    await study.close();
  }
});

test("err@10 on query ids that are not topic numbers: gdeval's own positioned error", async () => {
  const { study, source } = await studyWithMeasures('map "err@10"');
  try {
    await assert.rejects(
      evaluateStudyRuns(source.store, source.studyId, source.study, source.folder, 'annotator:alice'),
      /labels\.qrels:1:1: .*expected a topic number .*found 'q1'/,
    );
  } finally {
    await study.close();
  }
});

test('the Evaluate view shows the chosen measures as columns, values as the report has them', {
  timeout: 60_000,
}, async () => {
  const { study, source } = await studyWithMeasures();
  const view = await openWebview(browser, server, {
    name: 'evaluate',
    handlers: evaluateRequestHandlers(() => source, { seed: 1 }),
    viewport: { width: 1100, height: 900 },
  });
  try {
    const { page } = view;
    await page.locator('[data-testid="source"]').selectOption('annotator:alice');
    await page.locator('[data-testid="runs-table"]').waitFor();
    const headers = await page.locator('[data-testid="runs-table"] thead th').allInnerTexts();
    assert.deepEqual(
      headers.map((h) => h.trim()),
      ['run', 'map', 'rbp@0.5', 'rbp_residual@0.5'],
    );
    const cell = (measure: string) =>
      page.locator(`[data-testid="run-row"][data-run="bm25.run"] td[data-measure="${measure}"]`).innerText();
    assert.equal(await cell('map'), '0.5463');
    assert.equal(await cell('rbp@0.5'), '0.3542');
    assert.equal(await cell('rbp_residual@0.5'), '0.0625');
    // One run's queries by a named measure, worst first.
    await page.locator('[data-testid="sort-rbp@0.5"]').click();
    await page.locator('[data-testid="run-row"][data-run="bm25.run"] [data-testid="drill"]').click();
    const drilled = await page
      .locator('[data-testid="run-query-row"]')
      .evaluateAll((rows) => rows.map((r) => [r.children[0]!.textContent, r.lastElementChild!.textContent]));
    assert.ok(drilled.length === 3, JSON.stringify(drilled));
    assert.doesNotMatch(await page.locator('body').innerText(), /NaN/);
    assert.deepEqual(view.errors, []);
    assert.deepEqual(await view.cspViolations(), []);
  } finally {
    await view.close();
    await study.close();
  }
});
