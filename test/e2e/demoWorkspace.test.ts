// End to end on the demo workspace, as a user meets the product: the packaged .vsix in code-server, driven in
// Chromium. Broken files show their problems; the Studies view lists the demo's studies; opening a study imports it
// and opens the Label view, where five key presses store five judgments (read back from the SQLite file), the status
// bar keeping up with each at once, and the progress survives closing and reopening the view; the LLM judge, run
// against an OpenAI-compatible server on 127.0.0.1, fills in suggestions the view shows and joins the Studies view;
// the Agreement view compares alice with bob (imported) and the judge, and its cell opens their disagreements for the
// adjudicator; the Evaluate view compares the demo's two runs; the Review view opens from the Studies view; exporting
// qrels writes a file `qrels-studio eval` accepts. Commands run from a study's view use its study without asking;
// asked, they offer only studies without errors.
// Screenshots of each step go to test-output/e2e/ (the README's copies are in media/screenshots/).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Frame, Page } from 'playwright-core';
import { locateNativeBinding } from '../../core/store/sqliteDatabase.ts';
import { startOpenAiServer } from '../core/judge/openAiServer.ts';
import { cliLauncher, nativeDir, repoRoot } from '../helpers.ts';
import { runFromPalette, workbenchTest } from './codeServer.ts';

const shots = join(repoRoot, 'test-output', 'e2e');

async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: join(shots, `${name}.png`) });
}

/** Opens a workspace file by Quick Open, and waits for a piece of its text. */
async function quickOpen(page: Page, path: string, text: string): Promise<void> {
  await page.keyboard.press('Control+P');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible' });
  await input.fill(path);
  await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: path.split('/').at(-1)! }).waitFor();
  await page.keyboard.press('Enter');
  await page.locator('.editor-instance .view-lines', { hasText: text }).waitFor({ timeout: 15_000 });
}

/** The frame of a webview's page holding `[data-testid=testId]` (webviews live in nested iframes). */
async function webviewFrame(page: Page, testId: string, timeoutMs = 45_000): Promise<Frame> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    for (const frame of page.frames()) {
      if (
        await frame
          .locator(`[data-testid="${testId}"]`)
          .count()
          .catch(() => 0)
      )
        return frame;
    }
    if (Date.now() > deadline) throw new Error(`no webview with ${testId} appeared`);
    await page.waitForTimeout(250);
  }
}

/** The frame of the Label view's page. */
const labelFrame = (page: Page, timeoutMs = 45_000): Promise<Frame> => webviewFrame(page, 'label-view', timeoutMs);

/** The relevance study's database, read-only (the extension keeps writing to it). */
function openStudyDb(folder: string): Database.Database {
  const file = join(folder, 'relevance', '.qrels-studio', 'solar.sqlite');
  return new Database(file, { readonly: true, nativeBinding: locateNativeBinding(nativeDir) });
}

function judgments(folder: string): { qid: string; docid: string; label: number; annotator: string }[] {
  const db = openStudyDb(folder);
  try {
    return db
      .prepare(
        `SELECT p.qid, p.docid, j.label, a.name AS annotator FROM current_judgment AS j
         JOIN pair AS p ON p.id = j.pair_id JOIN annotator AS a ON a.id = j.annotator_id ORDER BY j.created_at`,
      )
      .all() as { qid: string; docid: string; label: number; annotator: string }[];
  } finally {
    db.close();
  }
}

workbenchTest(
  'the demo workspace: problems, the Studies view, five labels by keyboard kept across reopening, qrels export',
  {
    copyFrom: join(repoRoot, 'demo'),
    open: { file: 'README.md', text: 'Qrels Studio demo workspace' },
    timeoutMs: 240_000,
  },
  async ({ page, folder }, t) => {
    const chooseStudy = page.locator('.quick-input-widget', { hasText: 'choose a study' });
    // 1. Broken files: their diagnostics reach the Problems panel.
    await quickOpen(page, 'broken/broken.qrels', 'pv-review#3');
    await quickOpen(page, 'broken/typo.assess', 'typos');
    await runFromPalette(page, '>View: Focus Problems', 'View: Focus Problems');
    const problems = page.locator('.markers-panel .monaco-list-row');
    await problems.filter({ hasText: 'duplicate-pair' }).waitFor({ timeout: 45_000 });
    await problems.filter({ hasText: 'unknown-keyword' }).waitFor({ timeout: 45_000 });
    await problems.filter({ hasText: 'non-integer-label' }).waitFor();
    await shot(page, '1-problems');

    // 2. The Studies view lists the demo's studies and its review (nothing imported yet).
    await page.locator('.activitybar .action-item a[aria-label^="Qrels Studio"]').click();
    const tree = page.locator('.pane-body .monaco-list-row');
    for (const study of ['energy-dev', 'energy-conditions', 'wqt-markdown', 'wqt-html', 'generated-instructions']) {
      await tree.filter({ hasText: study }).first().waitFor({ timeout: 30_000 });
    }
    assert.match((await tree.filter({ hasText: 'generated-instructions' }).first().textContent()) ?? '', /review/);
    assert.match((await tree.filter({ hasText: 'energy-dev' }).first().textContent()) ?? '', /not imported/);
    await shot(page, '2-studies');

    // 3. Open the relevance study: first open imports it, then the Label view shows its first pair.
    await tree.filter({ hasText: 'energy-dev' }).first().click();
    let frame = await labelFrame(page);
    await frame.locator('[data-testid="pair"]').waitFor({ timeout: 45_000 });
    assert.equal(await frame.locator('[data-testid="annotator"]').textContent(), 'alice');
    assert.match((await frame.locator('[data-testid="progress"]').textContent()) ?? '', /^0 \/ 19 judged$/);
    await frame.locator('[data-testid="query-text"]').click(); // focus inside the webview: keys go to it
    // The status bar shows each label as the Label view does (the commit's event, not a recount seconds later).
    const statusBar = page.locator('.statusbar-item', { hasText: 'judged by you' });
    await statusBar.filter({ hasText: '0 / 19 judged by you' }).waitFor({ timeout: 15_000 });
    const pressed = ['2', '1', '0', '2', '1'];
    const lags: number[] = [];
    for (const [i, key] of pressed.entries()) {
      const before = await frame.locator('[data-testid="pair"]').getAttribute('data-pair-id');
      const judged = `${i + 1} / 19 judged`;
      const shownAt = (locator: ReturnType<Page['locator']>) =>
        locator.waitFor({ timeout: 10_000 }).then(() => Date.now());
      const [viewAt, barAt] = await Promise.all([
        page.keyboard
          .press(key)
          .then(() => shownAt(frame.locator('[data-testid="progress"]').filter({ hasText: judged }))),
        shownAt(statusBar.filter({ hasText: `${judged} by you` })),
      ]);
      lags.push(barAt - viewAt);
      await frame.locator(`[data-testid="pair"]:not([data-pair-id="${before}"])`).waitFor({ timeout: 10_000 });
    }
    t.diagnostic(`status bar after the Label view, per label: ${lags.join(', ')} ms`);
    assert.ok(Math.max(...lags) < 500, `the status bar lags the Label view: ${lags.join(', ')} ms`);
    await frame.locator('[data-testid="progress"]').filter({ hasText: '5 / 19 judged' }).waitFor();
    await shot(page, '3-label');
    const stored = judgments(folder).filter((j) => j.annotator === 'alice');
    assert.deepEqual(
      stored.map((j) => j.label),
      pressed.map(Number),
      'five judgments, in the order labelled',
    );
    assert.equal(
      judgments(folder).filter((j) => j.annotator === 'bob').length,
      15,
      "bob's labels, imported from labels/bob.qrels on first open",
    );
    t.diagnostic(`stored: ${stored.map((j) => `${j.qid}/${j.docid}=${j.label}`).join(', ')}`);

    // Reopening shows the progress kept and the place the annotator left.
    await runFromPalette(page, '>View: Close All Editors', 'View: Close All Editors');
    await page.waitForTimeout(500);
    // Whose numbers the Studies view shows, said: anyone's (people's) and the annotator's own.
    await tree
      .filter({ hasText: 'energy-dev' })
      .filter({ hasText: /\d+ \/ 19 judged by people · 5 \/ 19 by you/ })
      .first()
      .waitFor({ timeout: 15_000 });
    await tree.filter({ hasText: 'energy-dev' }).first().click();
    frame = await labelFrame(page);
    await frame.locator('[data-testid="progress"]').filter({ hasText: '5 / 19 judged' }).waitFor({ timeout: 30_000 });
    await frame.locator('[data-testid="position"]').filter({ hasText: 'pair 6 of 19' }).waitFor();
    await shot(page, '3-label-reopened');

    // 4. The LLM judge against an OpenAI-compatible server on 127.0.0.1: approved once, its suggestions fill in.
    const llm = await startOpenAiServer({
      respond: ({ index }) => ({
        content: JSON.stringify({ rationale: `The passage is about the query (call ${index}).`, label: index % 3 }),
        usage: { prompt_tokens: 120, completion_tokens: 20, total_tokens: 140 },
      }),
    });
    try {
      const studyPath = join(folder, 'relevance', 'solar.assess');
      writeFileSync(studyPath, readFileSync(studyPath, 'utf8').replace('http://127.0.0.1:8000/v1', llm.baseURL));
      await page.waitForTimeout(1000); // the extension re-syncs the changed study file
      // Run from the open Label view: its study, without asking which.
      await runFromPalette(page, '>Qrels Studio: Run LLM judge', 'Qrels Studio: Run LLM judge');
      // The first call to an endpoint is asked once.
      const dialog = page.locator('.monaco-dialog-box', { hasText: llm.baseURL });
      await dialog.waitFor({ timeout: 15_000 });
      assert.equal(await chooseStudy.isVisible(), false, 'no "choose a study" from the Label view');
      await shot(page, '4-judge-approval');
      await dialog.locator('.monaco-button', { hasText: 'Allow' }).click();
      await page
        .locator('.notification-toast', { hasText: /19 suggestions over 19 pairs/ })
        .waitFor({ timeout: 60_000 });
      assert.equal(llm.requests(), 19, 'one call per pair');
      const suggestions = openStudyDb(folder)
        .prepare(
          "SELECT count(*) FROM suggestion AS s JOIN annotator AS a ON a.id = s.annotator_id WHERE a.name LIKE 'llm:gpt-4.1-mini@%'",
        )
        .pluck()
        .get();
      assert.equal(suggestions, 19);
      // The open Label view (not blind) shows the judge's suggestion with its rationale.
      frame = await labelFrame(page);
      await frame.locator('[data-testid="suggestion"]').first().waitFor({ timeout: 30_000 });
      assert.match(
        (await frame.locator('[data-testid="suggestion"]').first().textContent()) ?? '',
        /The passage is about/,
      );
      await shot(page, '4-judge-suggestions');
      // The Studies view lists the judge under the study, with the pairs it suggested a label for.
      const study = tree.filter({ hasText: 'energy-dev' }).first();
      if ((await study.getAttribute('aria-expanded')) !== 'true') await study.locator('.monaco-tl-twistie').click();
      await tree
        .filter({ hasText: /llm:gpt-4\.1-mini@\S+ — 19 \/ 19/ })
        .first()
        .waitFor({ timeout: 15_000 });
    } finally {
      await llm.close();
    }

    // 5. The Agreement view: alice ↔ bob over the five pairs both labelled, and the judge beside them; clicking their
    // cell opens the two disagreements as an adjudication queue for carol, the study's adjudicator.
    await runFromPalette(page, '>Qrels Studio: Show agreement', 'Qrels Studio: Show agreement');
    const agreement = await webviewFrame(page, 'agreement-view');
    assert.equal(await chooseStudy.isVisible(), false, 'no "choose a study" from the Label view');
    const cell = agreement.locator('[data-testid="heat-cell"][data-a="alice"][data-b="bob"]');
    await cell.waitFor({ timeout: 30_000 });
    assert.equal(await cell.getAttribute('data-shared'), '5');
    assert.equal(await cell.getAttribute('data-disagreements'), '2');
    assert.ok(
      (await agreement.locator('[data-testid="heat-cell"][data-a="alice"][data-b^="llm:gpt-4.1-mini"]').count()) > 0,
      'the judge is in the matrix',
    );
    assert.match(
      await agreement.locator('[data-testid="headline"]').first().innerText(),
      /Krippendorff's α \(ordinal\)/,
    );
    assert.doesNotMatch(await agreement.locator('body').innerText(), /NaN/);
    await shot(page, '5-agreement');
    await cell.locator('button').click();
    const switchDialog = page.locator('.monaco-dialog-box', { hasText: 'carol' });
    await switchDialog.waitFor({ timeout: 15_000 });
    await switchDialog.locator('.monaco-button', { hasText: 'Adjudicate as carol' }).click();
    frame = await labelFrame(page);
    const banner = frame.locator('[data-testid="adjudication"]');
    await banner.waitFor({ timeout: 30_000 });
    assert.match(await banner.innerText(), /alice ↔ bob: 2 disagreements/);
    await frame.locator('[data-testid="query-text"]').click();
    await page.keyboard.press('1');
    await frame.locator('[data-testid="pending-label"]').waitFor();
    await page.keyboard.type('partly answers the query');
    await page.keyboard.press('Control+Enter');
    await frame.locator('[data-testid="position"]').filter({ hasText: 'pair 2 of 2' }).waitFor({ timeout: 10_000 });
    await shot(page, '5-adjudicate');
    const adjudicated = openStudyDb(folder)
      .prepare(
        `SELECT a.name, j.label, j.rationale FROM judgment AS j JOIN annotator AS a ON a.id = j.annotator_id
         WHERE j.source = 'adjudicated'`,
      )
      .all();
    assert.deepEqual(adjudicated, [{ name: 'carol', label: 1, rationale: 'partly answers the query' }]);

    // The Evaluate view: the study's two pooled runs against its labels, compared.
    await runFromPalette(page, '>Qrels Studio: Evaluate runs', 'Qrels Studio: Evaluate runs');
    const evaluate = await webviewFrame(page, 'evaluate-view');
    assert.equal(await chooseStudy.isVisible(), false, 'no "choose a study" from the Label view');
    await evaluate.locator('[data-testid="run-row"]').first().waitFor({ timeout: 30_000 });
    assert.deepEqual(
      await evaluate
        .locator('[data-testid="run-row"]')
        .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-run'))),
      ['runs/bm25.run', 'runs/dense.run'],
    );
    assert.match(
      await evaluate.locator('[data-testid="run-row"][data-run="runs/bm25.run"] td[data-measure="map"]').innerText(),
      /^\d\.\d{4}$/,
    );
    await evaluate.locator('[data-testid="test-row"][data-measure="map"]').waitFor({ timeout: 15_000 });
    assert.doesNotMatch(await evaluate.locator('body').innerText(), /NaN/);
    await shot(page, '5-evaluate');

    // The Review view on the demo's generated instructions (carol, the review's adjudicator, after the switch above),
    // opened from the Studies view.
    await tree.filter({ hasText: 'generated-instructions' }).first().click();
    const reviewView = await webviewFrame(page, 'review-view');
    await reviewView.locator('[data-testid="item"][data-item-id="i1"]').waitFor({ timeout: 30_000 });
    assert.match(await reviewView.locator('[data-testid="item"]').innerText(), /C2 · Exclusive topic/);
    assert.equal(await reviewView.locator('[data-testid="rubric"] tbody tr').count(), 6);
    // Its query's text, and the checks against its labelled tables (the demo's instruction-tables.qrels).
    assert.match(await reviewView.locator('[data-testid="parent"]').innerText(), /medal tables of the summer olympics/);
    assert.match(
      await reviewView.locator('[data-testid="finding"][data-check="table-count"]').innerText(),
      /1 compliant \(at least 3\) and 2 violating \(at least 3\) tables/,
    );
    await shot(page, '5-review');

    // 6. Export qrels: the study's declared export, which `qrels-studio eval` accepts with one of its runs.
    await runFromPalette(page, '>Qrels Studio: Export qrels', 'Qrels Studio: Export qrels');
    // From the Review view (no study's view) the command asks which study: only those without errors.
    await chooseStudy.waitFor({ timeout: 10_000 });
    const offered = await page
      .locator('.quick-input-list .monaco-list-row')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('aria-label') ?? r.textContent ?? ''));
    assert.equal(offered.length, 4, offered.join(' | '));
    assert.ok(!offered.some((o) => o.includes('typos')), `broken/typo.assess has errors: ${offered.join(' | ')}`);
    await page.locator('.quick-input-widget input').fill('energy-dev');
    await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: 'energy-dev' }).waitFor();
    await page.keyboard.press('Enter');
    const qrels = join(folder, 'relevance', 'qrels', 'energy-dev.qrels');
    const deadline = Date.now() + 20_000;
    while (!existsSync(qrels) && Date.now() < deadline) await page.waitForTimeout(200);
    assert.ok(existsSync(qrels), `${qrels} was not written`);
    const lines = readFileSync(qrels, 'utf8').trim().split('\n');
    // The majority of alice's five and bob's fifteen labels: every pair either labelled (adjudicated labels do not
    // vote).
    assert.equal(lines.length, 15, lines.join('\n'));
    await shot(page, '6-export');
    const evaluated = spawnSync(
      process.execPath,
      [cliLauncher, 'eval', qrels, join(folder, 'relevance', 'runs', 'bm25.run'), '-c'],
      { encoding: 'utf8' },
    );
    assert.equal(evaluated.status, 0, evaluated.stderr);
    assert.match(evaluated.stdout, /^map\s+all\s+\d/m);

    // The Getting Started walkthrough is there, with its five steps.
    await runFromPalette(page, '>Welcome: Open Walkthrough', 'Welcome: Open Walkthrough');
    await page.locator('.quick-input-widget input').fill('Qrels Studio');
    await page
      .locator('.quick-input-list .monaco-list-row.focused', { hasText: 'Get started with Qrels Studio' })
      .waitFor();
    await page.keyboard.press('Enter');
    const walkthrough = page.locator('.gettingStartedContainer');
    await walkthrough
      .locator('.getting-started-step', { hasText: 'Label five pairs by keyboard' })
      .waitFor({ timeout: 15_000 });
    assert.equal(await walkthrough.locator('.getting-started-step').count(), 5);
    await shot(page, '7-walkthrough');
  },
);
