// End to end, the Batch API from VS Code: the packaged .vsix in code-server on the demo workspace whose relevance
// study's judge says `mode batch`, against the Files and Batch APIs on 127.0.0.1 (test/core/judge/openAiBatchServer.ts)
// through the real `openai` SDK. "Run LLM judge" asks how (batch first, as the judge block says), asks once to call
// the endpoint, and creates the batch (no chat request) — its notification's Cancel, pressed while the upload is
// held, leaves that batch created and recorded and says the submit was cancelled; judging online meanwhile asks
// nothing and says the open batch holds the votes; once the batch completes at the server, "Batch status" records it
// (its message's "Show each batch" opens the output with the batch's line): the suggestions are in the study's
// database, and the Agreement view's Judges section shows the judge against the people (bob's imported labels) with
// its gate.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Frame, Page } from 'playwright-core';
import { locateNativeBinding } from '../../core/store/sqliteDatabase.ts';
import { startOpenAiBatchServer } from '../core/judge/openAiBatchServer.ts';
import { nativeDir, repoRoot } from '../helpers.ts';
import { runFromPalette, workbenchTest } from './codeServer.ts';

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

function suggestionCount(folder: string): number {
  const db = new Database(join(folder, 'relevance', '.qrels-studio', 'solar.sqlite'), {
    readonly: true,
    nativeBinding: locateNativeBinding(nativeDir),
  });
  try {
    return db
      .prepare(
        "SELECT count(*) FROM suggestion AS s JOIN annotator AS a ON a.id = s.annotator_id WHERE a.name LIKE 'llm:gpt-4.1-mini@%' AND s.label IS NOT NULL",
      )
      .pluck()
      .get() as number;
  } finally {
    db.close();
  }
}

/** Runs "Run LLM judge" from the palette and picks `action` in its QuickPick by keyboard, once it is focused. */
async function judgeWith(page: Page, action: string): Promise<void> {
  await runFromPalette(page, '>Qrels Studio: Run LLM judge', 'Qrels Studio: Run LLM judge');
  const pick = page.locator('.quick-input-widget', { hasText: 'Judge with the Batch API' });
  await pick.locator('.monaco-list-row.focused', { hasText: 'Judge with the Batch API' }).waitFor({ timeout: 30_000 });
  // By the row's title alone: a row's detail may name another action ("Batch status" records them).
  const wanted = pick.locator('.monaco-list-row.focused .label-name').filter({ hasText: new RegExp(`^${action}$`) });
  for (let presses = 0; presses < 6 && (await wanted.count()) === 0; presses++) {
    await page.keyboard.press('ArrowDown');
    await page.waitForTimeout(200);
  }
  await wanted.waitFor({ timeout: 5_000 });
  await page.keyboard.press('Enter');
  await pick.waitFor({ state: 'hidden', timeout: 10_000 });
}

workbenchTest(
  'the Batch API from VS Code: Run LLM judge creates the batch, Batch status records it, the Judges section shows it',
  {
    copyFrom: join(repoRoot, 'demo'),
    open: { file: 'README.md', text: 'Qrels Studio demo workspace' },
    timeoutMs: 240_000,
  },
  async ({ page, folder }) => {
    const llm = await startOpenAiBatchServer({
      progress: 'manual',
      respondLine: ({ line }) => ({
        content: JSON.stringify({ rationale: `The passage answers it (line ${line}).`, label: line % 3 }),
        usage: { prompt_tokens: 120, completion_tokens: 20 },
      }),
    });
    try {
      const studyPath = join(folder, 'relevance', 'solar.assess');
      writeFileSync(
        studyPath,
        readFileSync(studyPath, 'utf8').replace(
          'judge "gpt-4.1-mini" { endpoint "http://127.0.0.1:8000/v1"  temperature 0 }',
          `judge "gpt-4.1-mini" { endpoint "${llm.baseURL}"  temperature 0  mode batch  accept when kappa >= 0.6 }`,
        ),
      );
      assert.match(readFileSync(studyPath, 'utf8'), /mode batch/);
      // Open the study (its first open imports it), so the judge runs from its Label view without asking which.
      await page.locator('.activitybar .action-item a[aria-label^="Qrels Studio"]').click();
      const tree = page.locator('.pane-body .monaco-list-row');
      await tree.filter({ hasText: 'energy-dev' }).first().click();
      const label = await webviewFrame(page, 'label-view');
      await label.locator('[data-testid="pair"]').waitFor({ timeout: 45_000 });

      // 1. Batch first, as the judge block says; the endpoint is approved once; the batch is created.
      await runFromPalette(page, '>Qrels Studio: Run LLM judge', 'Qrels Studio: Run LLM judge');
      const pick = page.locator('.quick-input-widget', { hasText: 'Judge with the Batch API' });
      await pick.waitFor({ timeout: 30_000 });
      // A row's first label-name is its title (its detail line is one too).
      const rows = await pick
        .locator('.monaco-list-row')
        .evaluateAll((items) => items.map((item) => item.querySelector('.label-name')?.textContent ?? ''));
      assert.deepEqual(
        rows.map((r) => r.trim()),
        ['Judge with the Batch API (half price, within 24 h)', 'Judge online', 'Batch status', 'Cancel open batches'],
      );
      // The upload waits at the server until the submit's notification has been cancelled: the batch being
      // uploaded is finished and recorded all the same, and the message says the submit was cancelled.
      const upload = llm.hold('files.create');
      await page.keyboard.press('Enter');
      const dialog = page.locator('.monaco-dialog-box', { hasText: llm.baseURL });
      await dialog.waitFor({ timeout: 15_000 });
      await dialog.locator('.monaco-button', { hasText: 'Allow' }).click();
      await upload.arrived;
      const submitting = page.locator('.notification-toast', { hasText: 'writing and uploading the batches' });
      await submitting.locator('.monaco-button', { hasText: 'Cancel' }).click({ timeout: 30_000 });
      upload.release();
      await page
        .locator('.notification-toast', { hasText: /cancelled — 1 batch created before the cancel with 19 requests/ })
        .waitFor({ timeout: 60_000 });
      assert.equal(llm.routeCounts().get('batches.create'), 1);
      assert.equal(llm.requests(), 0, 'no chat request');
      assert.equal(suggestionCount(folder), 0);

      // 1b. Online while the batch is open: nothing is asked, and the summary says why and what to run.
      await judgeWith(page, 'Judge online');
      await page
        .locator('.notification-toast', { hasText: /19 votes left out: open batches hold them — run "Batch status"/ })
        .waitFor({ timeout: 60_000 });
      assert.equal(llm.requests(), 0, 'the votes the batch holds are not asked online');

      // 2. The batch completes at the server; "Batch status" records it.
      const [batch] = llm.batches();
      assert.equal(await llm.finish(batch!.id), 'completed');
      await judgeWith(page, 'Batch status');
      const status = page.locator('.notification-toast', { hasText: /1 batch, 0 open/ });
      await status.waitFor({ timeout: 60_000 });
      assert.equal(suggestionCount(folder), 19);
      // Each batch's line is one click away: the output channel, shown from the message.
      // (Monaco renders spaces as no-break spaces: \W between the words.)
      const batchLines = page.locator('.part.panel .view-lines', {
        hasText: /completed\W+19\Wof\W19\Wdone\W+recorded/,
      });
      assert.equal(await batchLines.count(), 0, 'the output is not shown before the click');
      await status.locator('.monaco-button', { hasText: 'Show each batch' }).click();
      await batchLines.waitFor({ timeout: 15_000 });

      // 3. The Agreement view's Judges section: the judge against bob's imported labels, with its gate.
      await runFromPalette(page, '>Qrels Studio: Show agreement', 'Qrels Studio: Show agreement');
      const agreement = await webviewFrame(page, 'judges');
      const card = agreement.locator('[data-testid="judge"]');
      await card.first().waitFor({ timeout: 45_000 });
      assert.match(String(await card.first().getAttribute('data-judge')), /^llm:gpt-4\.1-mini@/);
      assert.match(String(await card.first().getAttribute('data-gate')), /^(passed|failed)$/);
      assert.match(await agreement.locator('[data-testid="judge-gate"]').first().innerText(), /kappa >= 0\.6/);
      assert.doesNotMatch(await agreement.locator('[data-testid="judges"]').innerText(), /NaN/);
    } finally {
      await llm.close();
    }
  },
);
