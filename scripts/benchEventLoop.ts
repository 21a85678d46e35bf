// Does the editor freeze? The extension host is one thread: while it runs a query, no keystroke, hover or view
// update of any extension is served. This bench measures the longest time the calling thread's event loop is blocked
// while the two heaviest store operations run — opening a Label view on a study of a million pairs (assignment,
// queue, progress) and computing the Agreement view (every label read, then a 1,000-sample bootstrap) — once with
// the store in the calling thread (what the extension host did before the storage port) and once with the store in
// a worker thread (core/worker/, what it does now). Same study, same run, same machine.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { agreementDashboard } from '../core/agreement/agreementDashboard.ts';
import type { ImportedRecord } from '../core/importers/types.ts';
import { LabelSession } from '../core/labelling/labelSession.ts';
import { SqliteStudyStore } from '../core/store/sqlite/sqliteStudyStore.ts';
import { locateNativeBinding } from '../core/store/sqliteDatabase.ts';
import { studyDatabasePath } from '../core/store/studyDatabase.ts';
import type { StudyStore } from '../core/store/studyStore.ts';
import { openWorkerStudyStore } from '../core/worker/workerStudyStore.ts';
import { buildLargeStudy } from '../test/core/labelling/largeStudy.ts';

export interface EventLoopRow {
  name: string;
  seconds: number;
  /** The longest stretch the event loop could not run a 1 ms timer, minus that millisecond. */
  longestBlockMs: number;
}

/** Runs `work` while a 1 ms timer keeps asking for the thread; returns its time and the longest block seen. */
async function measureBlocking(name: string, work: () => Promise<unknown>): Promise<EventLoopRow> {
  let longest = 0;
  let last = performance.now();
  let running = true;
  const tick = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    if (running) setTimeout(tick, 1);
  };
  setTimeout(tick, 1);
  const started = performance.now();
  await work();
  const seconds = (performance.now() - started) / 1000;
  // One more tick, so a block at the very end is seen too.
  await new Promise((resolve) => setTimeout(resolve, 5));
  running = false;
  return { name, seconds, longestBlockMs: Math.max(0, longest - 1) };
}

/** A second person's labels on the pairs the study's first annotator labelled, so the agreement has work to do. */
async function* secondAnnotatorLabels(queries: number, perQuery: number, every: number): AsyncIterable<ImportedRecord> {
  // Same rule as buildLargeStudy's `judgedEvery` counts pairs: here every `every`-th (query, rank), which overlaps
  // its labels on a regular share of the pairs; labels differ on some, agree on most.
  for (let q = 0; q < queries; q++) {
    for (let r = 1; r <= perQuery; r++) {
      const n = q * perQuery + r - 1;
      if (n % every !== 0) continue;
      const docid = `d${String(n).padStart(7, '0')}`;
      yield {
        kind: 'judgment',
        qid: `q${q}`,
        docid,
        label: n % 5 === 0 ? 2 : n % 3,
        annotator: 'carol',
        at: { file: 'bench', line: n + 1 },
      } as ImportedRecord;
    }
  }
}

export async function benchEventLoop(dataDir: string, root: string): Promise<EventLoopRow[]> {
  const folder = join(dataDir, 'event-loop-1m');
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  const nativeDir = join(root, 'dist', 'native');
  const nativeBinding = locateNativeBinding(nativeDir);
  const workerScript = join(root, 'dist', 'studyWorker.cjs');
  const queries = 10_000;
  const perQuery = 100;
  const large = await buildLargeStudy({
    folder,
    nativeDir,
    queries,
    perQuery,
    judgedEvery: 7,
    judgedBy: 'bob',
    suggestedEvery: 3,
  });
  await large.store.close();
  const file = studyDatabasePath(large.studyFile);
  {
    const store = await SqliteStudyStore.open(file, { nativeBinding });
    await store.imports.importRecords('large', secondAnnotatorLabels(queries, perQuery, 7), {
      file: 'bench',
      target: 'judgments',
      format: 'label file',
    });
    await store.close();
  }
  const openLabelView = async (store: StudyStore, annotator: string) => {
    await store.studies.sync({ studies: [large.study], reviews: [] } as never);
    await LabelSession.open(store, { studyFile: large.studyFile, study: large.study, annotator });
  };
  const rows: EventLoopRow[] = [];
  try {
    const inProcess = await SqliteStudyStore.open(file, { nativeBinding });
    const worker = await openWorkerStudyStore(file, { nativeBinding, workerScript });
    try {
      const studyId = await inProcess.studies.studyId('large');
      rows.push(
        await measureBlocking('open Label view, store in this thread', () => openLabelView(inProcess, 'alice')),
      );
      rows.push(await measureBlocking('open Label view, store in a worker', () => openLabelView(worker, 'dave')));
      const options = { bootstrap: 1000, seed: 7 };
      rows.push(
        await measureBlocking('Agreement view, store in this thread', () =>
          agreementDashboard(inProcess, studyId, large.study, options),
        ),
      );
      rows.push(
        await measureBlocking('Agreement view, store in a worker', () =>
          worker.jobs.agreementDashboard({ studyId, study: large.study, options }),
        ),
      );
    } finally {
      await worker.close();
      await inProcess.close();
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  return rows;
}

if (import.meta.main) {
  const root = join(import.meta.dirname, '..');
  for (const row of await benchEventLoop(join(root, 'bench-data'), root)) {
    console.log(
      `${row.name.padEnd(44)} ${row.seconds.toFixed(3).padStart(7)} s  longest block ${row.longestBlockMs.toFixed(1)} ms`,
    );
  }
}
