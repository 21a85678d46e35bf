// The Label view's commit when the study's record cannot take it (issue 21 item 6), at the controller level: the real
// LabelController (webview/label/labelController.ts) over the real host end and label handlers, a LabelSession over a
// real store — PostgreSQL on a cluster of this file's own (its server is stopped and started again; never the run's
// shared cluster), and SQLite in a worker thread as the extension runs it, a second connection holding the write lock.
// What is checked: the label decision has one commit id, sent again unchanged on every attempt until the host confirms
// it; meanwhile the controller says it cannot save (never saved), stays on the pair and refuses to move on; once
// stored it says saved and goes on, and the record holds the label once under that id. A commit unanswered for a while
// is said as not saved yet, and not sent again while it is on its way. A refusal that is not the record's (the queue
// changed) is shown as it is, not retried.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { LabelSession } from '../../../core/labelling/labelSession.ts';
import { RecordUnreachableError } from '../../../core/store/postgres/postgresContext.ts';
import { openDatabase } from '../../../core/store/sqliteDatabase.ts';
import type { StudyStore } from '../../../core/store/studyStore.ts';
import { openWorkerStudyStore } from '../../../core/worker/workerStudyStore.ts';
import { labelRequestHandlers, retryReason } from '../../../extension/panels/labelHandlers.ts';
import { commitRetryDelay } from '../../../webview/label/labelController.ts';
import { nativeBinding, plainStudy } from '../../core/labelling/labellingStudy.ts';
import { kindStudy } from '../../core/store/postgres/labelsFixture.ts';
import { repoRoot, scratchDir } from '../../helpers.ts';
import { type Cluster, clusterVariable, startCluster } from '../../pg/pgCluster.ts';
import { controllerHost } from './controllerHost.ts';

let cluster: Cluster;

before(async () => {
  cluster = await startCluster();
  process.on('exit', () => cluster.stop());
  // kindStudy's databases (testDatabase()) are made in this file's own cluster.
  process.env[clusterVariable] = JSON.stringify({ host: cluster.host, port: cluster.port, user: cluster.user });
});

after(() => cluster.stop());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Fast retries: the test waits for the recovery, not for the backoff. */
const retryDelay = () => 100;

test('the backoff: 0.25 s doubling, at most 4 s', () => {
  assert.deepEqual([1, 2, 3, 4, 5, 6, 20].map(commitRetryDelay), [250, 500, 1000, 2000, 4000, 4000, 4000]);
});

test('what the host retries: the record unreachable (also as the cause of a StoreError) or busy; nothing else', () => {
  const unreachable = new RecordUnreachableError(
    'postgres:x',
    Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }),
  );
  assert.equal(retryReason(unreachable), 'unreachable');
  assert.equal(retryReason(new Error('the label was saved, but …', { cause: unreachable })), 'unreachable');
  assert.equal(retryReason(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' })), 'busy');
  assert.equal(retryReason(Object.assign(new Error('locked'), { code: 'SQLITE_BUSY_SNAPSHOT' })), 'busy');
  assert.equal(retryReason(new Error('expected a label on the scale')), undefined);
  assert.equal(retryReason(Object.assign(new Error('x'), { code: 'SQLITE_CONSTRAINT' })), undefined);
});

test('the server stops while the annotator labels: cannot save, the same commit sent again until the server is back, then saved once', {
  timeout: 120_000,
}, async () => {
  const s = await kindStudy('postgres', plainStudy(1, 4));
  try {
    const session = await s.session('alice');
    const host = await controllerHost(
      labelRequestHandlers(() => session),
      { retryDelay },
    );
    const { controller } = host;
    const first = controller.snapshot().pair!;
    assert.equal(first.position, 0);
    cluster.stopServer('immediate');
    let restarted = false;
    try {
      void controller.commit(1);
      const waiting = await host.until((snap) => snap.unsaved !== undefined, 20_000, 'cannot save');
      assert.equal(waiting.unsaved!.reason, 'unreachable');
      assert.equal(waiting.unsaved!.label, 1);
      assert.equal(waiting.unsaved!.pairId, first.pairId);
      assert.match(waiting.unsaved!.message, /could not be reached|was lost/);
      assert.equal(waiting.busy, true);
      assert.equal(waiting.status, undefined, 'never said saved');
      // Keys that would move on do not: next, another label, undo.
      controller.move(1);
      void controller.commit(2);
      void controller.undo();
      // The answers being retried are the ones on screen.
      controller.setNote('changed my mind');
      await host.until((snap) => snap.unsaved!.attempts >= 3, 20_000, 'three attempts');
      const still = controller.snapshot();
      assert.equal(still.pair!.pairId, first.pairId, 'still on the pair');
      assert.equal(still.position, 0);
      assert.equal(still.draft.note, '');
      assert.equal(host.sent('label/undo').length, 0);
      const attempts = host.sent('label/commit');
      assert.ok(attempts.length >= 3);
      assert.equal(new Set(attempts.map((c) => c.commitId)).size, 1, 'one commit id for the decision');
      assert.match(attempts[0]!.commitId!, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      assert.ok(attempts.every((c) => c.label === 1 && c.pairId === first.pairId));
      cluster.startServer();
      restarted = true;
      const saved = await host.until((snap) => !snap.busy && snap.unsaved === undefined, 30_000, 'saved');
      assert.match(saved.status ?? '', /^Saved 1 · Relevant for q1 \/ d1-1/);
      assert.equal(saved.error, undefined);
      assert.equal(saved.position, 1, 'carried on to the next pair');
      assert.equal(saved.state!.progress.judged, 1);
      const rows = (await s.rows('SELECT pair_id, label, client_id FROM judgment')) as {
        pair_id: number;
        label: number;
        client_id: string;
      }[];
      assert.deepEqual(rows, [{ pair_id: first.pairId, label: 1, client_id: attempts[0]!.commitId }]);
      // And labelling goes on as usual.
      await controller.commit(0);
      assert.equal(controller.snapshot().position, 2);
      assert.equal(((await s.rows('SELECT id FROM judgment')) as unknown[]).length, 2);
      assert.equal(new Set(host.sent('label/commit').map((c) => c.commitId)).size, 2, 'a new id for a new decision');
    } finally {
      if (!restarted) cluster.startServer();
    }
  } finally {
    await s.store.close();
  }
});

test('a commit stored whose reply was lost: sent again with its id, stored and counted once, the view moves on once', {
  timeout: 60_000,
}, async () => {
  const s = await kindStudy('postgres', plainStudy(1, 3));
  try {
    // The store commits, then its connection drops before the answer (the adapter's "may be saved"): once.
    let lost = 0;
    const labels = s.store.labels;
    const lossyLabels = new Proxy(labels, {
      get(target, key) {
        const value = Reflect.get(target, key) as unknown;
        if (typeof value !== 'function') return value;
        if (key !== 'commitLabel') return value.bind(target);
        return async (...args: unknown[]) => {
          const result = await value.apply(target, args);
          if (lost++ === 0) {
            throw new RecordUnreachableError('postgres:test', new Error('Connection terminated unexpectedly'), true);
          }
          return result;
        };
      },
    });
    const store = new Proxy(s.store, {
      get(target, key) {
        if (key === 'labels') return lossyLabels;
        const value = Reflect.get(target, key) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    }) as StudyStore;
    const session = await s.session('alice', undefined, store);
    const host = await controllerHost(
      labelRequestHandlers(() => session),
      { retryDelay },
    );
    await host.controller.commit(2);
    const snap = host.controller.snapshot();
    assert.equal(snap.unsaved, undefined);
    assert.equal(snap.position, 1);
    assert.equal(snap.state!.progress.judged, 1, 'counted once');
    const sent = host.sent('label/commit');
    assert.equal(sent.length, 2);
    assert.equal(sent[0]!.commitId, sent[1]!.commitId);
    const rows = (await s.rows('SELECT label, client_id FROM judgment')) as { label: number; client_id: string }[];
    assert.deepEqual(rows, [{ label: 2, client_id: sent[0]!.commitId }], 'stored once');
  } finally {
    await s.store.close();
  }
});

test('a commit the host does not answer for a while: not saved yet, said at once, nothing sent again while it is on its way', {
  timeout: 60_000,
}, async () => {
  const s = await kindStudy('postgres', plainStudy(1, 2));
  try {
    const session = await s.session('alice');
    const handlers = labelRequestHandlers(() => session);
    let answer: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    const host = await controllerHost(
      {
        ...handlers,
        // A connection that hangs (a network cut with no reset): the answer comes when the test says.
        'label/commit': async (commit) => {
          await answered;
          return handlers['label/commit'](commit);
        },
      },
      { retryDelay, unansweredAfter: 100 },
    );
    void host.controller.commit(1);
    const waiting = await host.until((snap) => snap.unsaved !== undefined, 5000, 'not saved yet');
    assert.equal(waiting.unsaved!.reason, 'no-answer');
    assert.equal(waiting.status, undefined);
    assert.equal(waiting.busy, true);
    host.controller.move(1);
    await sleep(400);
    assert.equal(host.controller.snapshot().position, 0);
    assert.equal(host.sent('label/commit').length, 1, 'nothing sent again while the attempt is on its way');
    answer();
    const saved = await host.until((snap) => !snap.busy, 10_000, 'saved');
    assert.equal(saved.unsaved, undefined);
    assert.match(saved.status ?? '', /^Saved 1/);
    assert.equal(saved.position, 1);
    assert.equal(((await s.rows('SELECT id FROM judgment')) as unknown[]).length, 1);
  } finally {
    await s.store.close();
  }
});

test('the label is stored but the next pair cannot be read: saved, the pair asked for again until it comes, then shown', {
  timeout: 60_000,
}, async () => {
  const s = await kindStudy('postgres', plainStudy(1, 3));
  try {
    const session = await s.session('alice');
    const handlers = labelRequestHandlers(() => session);
    let down = true;
    let refused = 0;
    const host = await controllerHost(
      {
        ...handlers,
        // The pairs after the first cannot be read (the prefetch fails too) until the record is back.
        'label/pairAt': (params) => {
          if (down && params.position >= 1) {
            refused++;
            return Promise.reject(
              Object.assign(new Error('postgres:x could not be reached'), { retry: 'unreachable' }),
            );
          }
          return handlers['label/pairAt'](params);
        },
      },
      { retryDelay },
    );
    void host.controller.commit(2);
    const waiting = await host.until((snap) => snap.unloaded !== undefined, 10_000, 'cannot show the pair');
    assert.equal(waiting.unloaded!.reason, 'unreachable');
    assert.equal(waiting.unsaved, undefined, 'the label is saved');
    assert.match(waiting.status ?? '', /^Saved 2/);
    assert.equal(waiting.position, 0);
    assert.equal(waiting.busy, true, 'no label for the pair before while the next one is on its way');
    await host.until((snap) => snap.unloaded!.attempts >= 3, 10_000, 'asked again');
    down = false;
    const shown = await host.until((snap) => !snap.busy, 10_000, 'the next pair');
    assert.equal(shown.position, 1);
    assert.equal(shown.pair!.position, 1);
    assert.equal(shown.unloaded, undefined);
    assert.equal(shown.error, undefined);
    assert.ok(refused >= 3);
    assert.equal(host.sent('label/commit').length, 1);
    assert.equal(((await s.rows('SELECT id FROM judgment')) as unknown[]).length, 1);
  } finally {
    await s.store.close();
  }
});

test('a refusal that is not the record’s is shown as it is and not sent again', { timeout: 60_000 }, async () => {
  const s = await kindStudy('postgres', plainStudy(1, 2));
  try {
    let session: LabelSession = await s.session('alice');
    const host = await controllerHost(
      labelRequestHandlers(() => session),
      { retryDelay },
    );
    // The queue this view shows is no longer the session's (another session answers now): a StoreError to act on.
    session = await s.session('alice');
    await session.setQueue({ order: 'rank', unlabelledOnly: false });
    await host.controller.commit(1);
    await sleep(300);
    const snap = host.controller.snapshot();
    assert.equal(host.sent('label/commit').length, 1, 'not retried');
    assert.equal(snap.unsaved, undefined);
    assert.equal(snap.busy, false);
    assert.match(snap.error ?? '', /queue/);
    assert.equal(snap.status, undefined);
    assert.equal(snap.position, 0);
    assert.deepEqual(await s.rows('SELECT id FROM judgment'), []);
  } finally {
    await s.store.close();
  }
});

test('SQLite busy, the store in a worker as the extension runs it (another connection holds the write lock): never saved before it is stored, the same commit sent again', {
  timeout: 60_000,
}, async () => {
  const folder = scratchDir('qrels-studio-label-busy-');
  const s = await kindStudy('sqlite', plainStudy(1, 3), folder);
  await s.store.close();
  const file = join(folder, 's.sqlite');
  const worker = await openWorkerStudyStore(file, {
    nativeBinding,
    workerScript: join(repoRoot, 'core', 'worker', 'studyWorker.ts'),
  });
  const other = openDatabase(file, { nativeBinding });
  try {
    const session = await s.session('alice', undefined, worker);
    const host = await controllerHost(
      labelRequestHandlers(() => session),
      { retryDelay: () => 300 },
    );
    other.exec('BEGIN IMMEDIATE');
    let locked = true;
    try {
      void host.controller.commit(1);
      // The store waits out its busy timeout (5 s: the view says meanwhile that it has no answer), then refuses.
      const unanswered = await host.until((snap) => snap.unsaved !== undefined, 30_000, 'not saved yet');
      assert.equal(unanswered.unsaved!.reason, 'no-answer');
      assert.equal(unanswered.status, undefined, 'never said saved');
      const waiting = await host.until((snap) => snap.unsaved?.reason !== 'no-answer', 30_000, 'cannot save');
      other.exec('ROLLBACK');
      locked = false;
      assert.equal(waiting.unsaved!.reason, 'busy');
      assert.equal(waiting.status, undefined, 'never said saved');
      assert.equal(waiting.position, 0);
    } finally {
      if (locked) other.exec('ROLLBACK');
    }
    const saved = await host.until((snap) => !snap.busy && snap.unsaved === undefined, 30_000, 'saved');
    assert.match(saved.status ?? '', /^Saved 1/);
    assert.equal(saved.position, 1);
    const sent = host.sent('label/commit');
    assert.ok(sent.length >= 2);
    assert.equal(new Set(sent.map((c) => c.commitId)).size, 1);
    const rows = (await s.rows('SELECT label, client_id FROM judgment')) as { label: number; client_id: string }[];
    assert.deepEqual(rows, [{ label: 1, client_id: sent[0]!.commitId }]);
  } finally {
    other.close();
    await worker.close();
  }
});
