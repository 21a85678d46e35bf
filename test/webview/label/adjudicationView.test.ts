// The Label view as an adjudication queue, in headless Chromium over a real SQLite study: the adjudicator sees the
// queue's title, every annotator's label and note, a label key without a reason is held (nothing stored) until the
// reason is written, Ctrl+Enter stores it as an 'adjudicated' judgment with the reason, and "Back to my queue"
// returns to the adjudicator's own queue.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { adjudicationPairIds } from '../../../core/agreement/agreementDashboard.ts';
import { readStudyLabels } from '../../../core/agreement/studyLabels.ts';
import type { LabelSession } from '../../../core/labelling/labelSession.ts';
import { labelRequestHandlers } from '../../../extension/panels/labelHandlers.ts';
import { launchChromium } from '../chromium.ts';
import { type CountingServer, openWebview, startWebviewServer, webviewDistDir } from '../webviewHost.ts';
import { createLabelStudy, simpleStudy } from './labelStudy.ts';

let browser: Browser;
let server: CountingServer;

before(async () => {
  assert.ok(existsSync(join(webviewDistDir, 'label.js')), 'dist/webview/label.js is missing: run `npm run build`');
  browser = await launchChromium();
  server = await startWebviewServer();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** Stores `label` for the pair `pairId` through the annotator's own queue. */
async function labelPair(session: LabelSession, pairId: number, label: number, note?: string): Promise<void> {
  const { queue } = session.state();
  for (let position = 0; position < queue.length; position++) {
    if ((await session.pairAt(position, queue.version, false))!.pairId === pairId) {
      await session.commit({ position, pairId, label, queueVersion: queue.version, ...(note && { note }) });
      return;
    }
  }
  throw new Error(`pair ${pairId} is not in the queue of ${session.annotator}`);
}

test('the adjudicator works through the disagreements: labels and notes shown, a reason required, stored as adjudicated', async () => {
  const study = await createLabelStudy({
    ...simpleStudy(2, 3),
    extra: '  annotators ann ben\n  adjudicator judy',
  });
  const db = study.db;
  const studyId = study.studyId;
  const pairId = (qid: string, docid: string) =>
    db
      .prepare('SELECT id FROM pair WHERE study_id = ? AND qid = ? AND docid = ?')
      .pluck()
      .get(studyId, qid, docid) as number;
  const ann = await study.session('ann');
  const ben = await study.session('ben');
  await labelPair(ann, pairId('q1', 'd1-1'), 2);
  await labelPair(ben, pairId('q1', 'd1-1'), 2);
  await labelPair(ann, pairId('q1', 'd1-2'), 0, 'the panel in this passage is thermal, not photovoltaic');
  await labelPair(ben, pairId('q1', 'd1-2'), 2);
  await labelPair(ann, pairId('q2', 'd2-1'), 1);
  await labelPair(ben, pairId('q2', 'd2-1'), 0);

  const pairs = await adjudicationPairIds(
    study.store,
    studyId,
    (await readStudyLabels(study.store, studyId, [0, 1, 2])).data,
    { kind: 'pair', a: 'ann', b: 'ben' },
  );
  assert.deepEqual(pairs, [pairId('q1', 'd1-2'), pairId('q2', 'd2-1')]);

  let judy = await study.session('judy');
  const view = await openWebview(browser, server, {
    name: 'label',
    handlers: labelRequestHandlers(() => judy),
    viewport: { width: 1100, height: 760 },
  });
  try {
    const { page } = view;
    await page.locator('[data-testid="pair"]').waitFor();
    // The Agreement view's click: the host turns the session into the adjudication queue and resets the view.
    judy = await study.session('judy');
    view.host.postEvent('label/reset', { state: await judy.adjudicate(pairs, 'ann ↔ ben: 2 disagreements') });
    const banner = page.locator('[data-testid="adjudication"]');
    await banner.waitFor();
    assert.match(await banner.innerText(), /Adjudicating ann ↔ ben: 2 disagreements — 2 pairs/);
    await page.waitForFunction(
      (id) => document.querySelector('[data-testid="pair"]')?.getAttribute('data-pair-id') === String(id),
      pairs[0],
    );
    const body = await page.locator('body').innerText();
    assert.match(body, /the panel in this passage is thermal, not photovoltaic/, "ann's note is shown");
    assert.match(body, /Reason \(required\)/);

    // A label key with no reason: held, nothing stored, the caret in the reason box.
    await page.keyboard.press('1');
    await page.locator('[data-testid="pending-label"]').waitFor();
    assert.match(await page.locator('[data-testid="error"]').innerText(), /needs a reason/);
    const count = () =>
      db.prepare("SELECT count(*) FROM judgment WHERE source = 'adjudicated'").pluck().get() as number;
    assert.equal(count(), 0);
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'note');
    await page.keyboard.type('the second paragraph gives the efficiency of a PV panel');
    await page.keyboard.press('Control+Enter');
    await page.waitForFunction(
      (id) => document.querySelector('[data-testid="pair"]')?.getAttribute('data-pair-id') === String(id),
      pairs[1],
    );
    assert.deepEqual(
      db
        .prepare(
          `SELECT a.name, j.label, j.source, j.rationale, p.qid, p.docid FROM judgment AS j
           JOIN annotator AS a ON a.id = j.annotator_id JOIN pair AS p ON p.id = j.pair_id
           WHERE j.source = 'adjudicated'`,
        )
        .all(),
      [
        {
          name: 'judy',
          label: 1,
          source: 'adjudicated',
          rationale: 'the second paragraph gives the efficiency of a PV panel',
          qid: 'q1',
          docid: 'd1-2',
        },
      ],
    );

    // Back to the own queue: every pair of the study (the adjudicator's queue), no banner.
    await page.locator('[data-testid="leave-adjudication"]').click();
    await banner.waitFor({ state: 'detached' });
    await page.waitForFunction(() =>
      /pair 1 of 6/.test(document.querySelector('[data-testid="position"]')?.textContent ?? ''),
    );
    assert.deepEqual(view.errors, []);
    assert.deepEqual(await view.cspViolations(), []);
  } finally {
    await view.close();
    await study.close();
  }
});
