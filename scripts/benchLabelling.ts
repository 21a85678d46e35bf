// The Label view on a study of 1,000,000 pairs, in headless Chromium with the real host end (HostChannel + the
// extension's label handlers over a LabelSession on the study's store, the storage port's SQLite adapter opened with
// SqliteStudyStore.open on a real file): key press → label committed → next pair
// painted, over 200 labels, against the same view moving to the next pair with `j` (a repaint with no label write)
// in the same run, interleaved so both see the same machine.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { LabelSession } from '../core/labelling/labelSession.ts';
import { SqliteStudyStore } from '../core/store/sqlite/sqliteStudyStore.ts';
import { locateNativeBinding } from '../core/store/sqliteDatabase.ts';
import { studyDatabasePath } from '../core/store/studyDatabase.ts';
import { labelRequestHandlers } from '../extension/panels/labelHandlers.ts';
import { buildLargeStudy } from '../test/core/labelling/largeStudy.ts';
import { launchChromium } from '../test/webview/chromium.ts';
import { openWebview, startWebviewServer } from '../test/webview/webviewHost.ts';

export interface LabellingBench {
  pairs: number;
  buildSeconds: number;
  openSeconds: number;
  labelMs: number[];
  moveMs: number[];
}

/** One key press measured in the page: from dispatch to the frame that paints a different pair, all saved. */
function measureInPage(key: string): Promise<number> {
  const pairOf = () => document.querySelector('[data-testid="pair"]')?.getAttribute('data-pair-id') ?? 'end';
  const settled = (before: string): boolean =>
    pairOf() !== before && !(document.querySelector('[data-testid="status"]')?.textContent ?? '').startsWith('Saving');
  return new Promise((resolve) => {
    const before = pairOf();
    const started = performance.now();
    const done = (): void => {
      observer.disconnect();
      // The rAF callback runs in the frame that paints the change.
      requestAnimationFrame(() => resolve(performance.now() - started));
    };
    const observer = new MutationObserver(() => {
      if (settled(before)) done();
    });
    observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    document.dispatchEvent(
      new KeyboardEvent('keydown', { key, code: key === 'j' ? 'KeyJ' : `Digit${key}`, bubbles: true }),
    );
  });
}

export async function benchLabelling(dataDir: string, nativeDir: string, labels = 200): Promise<LabellingBench> {
  const folder = join(dataDir, 'label-1m');
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  let started = performance.now();
  // 10,000 queries × 100 pooled documents; a colleague's labels on every 7th pair and LLM suggestions on every 3rd.
  const large = await buildLargeStudy({
    folder,
    nativeDir,
    queries: 10_000,
    perQuery: 100,
    judgedEvery: 7,
    judgedBy: 'bob',
    suggestedEvery: 3,
  });
  await large.store.close();
  const buildSeconds = (performance.now() - started) / 1000;
  // The record through the port, as the CLI opens it (the extension opens the same adapter in a worker thread).
  const store = await SqliteStudyStore.open(studyDatabasePath(large.studyFile), {
    nativeBinding: locateNativeBinding(nativeDir),
  });
  started = performance.now();
  const session = await LabelSession.open(store, {
    studyFile: large.studyFile,
    study: large.study,
    annotator: 'alice',
  });
  const openSeconds = (performance.now() - started) / 1000;

  const browser = await launchChromium();
  const server = await startWebviewServer();
  try {
    const view = await openWebview(browser, server, {
      name: 'label',
      handlers: labelRequestHandlers(() => session),
      viewport: { width: 1100, height: 760 },
    });
    await view.page.locator('[data-testid="pair"]').waitFor();
    const labelMs: number[] = [];
    const moveMs: number[] = [];
    // Warm-up (JIT, statement caches, the first prefetches), not counted.
    for (let i = 0; i < 20; i++) {
      await view.page.evaluate(measureInPage, String(i % 3));
      await view.page.evaluate(measureInPage, 'j');
    }
    for (let i = 0; i < labels; i++) {
      labelMs.push(await view.page.evaluate(measureInPage, String(i % 3)));
      moveMs.push(await view.page.evaluate(measureInPage, 'j'));
    }
    if (view.errors.length > 0) throw new Error(`the Label view reported errors: ${view.errors.join('; ')}`);
    // Every label went to a pair of its own (each key press moves on): as many pairs labelled by alice, as the record
    // counts them.
    const { judged: stored } = await store.labels.labelProgress({
      studyId: large.studyId,
      annotatorId: await store.studies.ensureAnnotator('alice', 'human'),
      assignedOnly: false,
    });
    if (stored !== labels + 20) throw new Error(`expected ${labels + 20} pairs labelled by alice, found ${stored}`);
    await view.close();
    return { pairs: large.pairs, buildSeconds, openSeconds, labelMs, moveMs };
  } finally {
    await browser.close();
    await server.close();
    await store.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
