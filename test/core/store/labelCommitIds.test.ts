// A label commit sent again with the same id (its reply was lost: the connection dropped after COMMIT reached the
// server) is stored once: the labels port answers with the judgment the first one stored, and LabelSession counts it
// once — on both adapters. A store whose labels port commits and then loses the reply (a wrapper of the real store:
// the write is done, the caller is told it failed) checks the session's side: a lost commit retried is stored and
// counted once, a lost undo retried does not undo one label more.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { StoreError } from '../../../core/store/studyDatabase.ts';
import type { StudyStore } from '../../../core/store/studyStore.ts';
import { storeKinds } from '../../storeKinds.ts';
import { plainStudy } from '../labelling/labellingStudy.ts';
import { kindStudy } from './postgres/labelsFixture.ts';

for (const kind of storeKinds) {
  test(`commitLabel with an id already stored returns the stored judgment and writes nothing (${kind})`, async () => {
    const s = await kindStudy(kind, plainStudy(1, 2));
    const session = await s.session('alice');
    const pair = (await session.pairAt(0, 1, false))!;
    const annotatorId = ((await s.rows("SELECT id FROM annotator WHERE name = 'alice'")) as { id: number }[])[0]!.id;
    const clientId = randomUUID();
    const commit = {
      studyId: s.studyId,
      pairId: pair.pairId,
      annotatorId,
      label: 1,
      source: 'manual' as const,
      note: null,
      shownLabel: null,
      conditions: [],
      aspects: [],
      at: '2026-05-01T12:00:00.000Z',
      clientId,
    };
    const first = await s.store.labels.commitLabel(commit);
    assert.equal(first.labelledBefore, false);
    // Sent again later, with another label even: the first one stands.
    const again = await s.store.labels.commitLabel({ ...commit, label: 2, at: '2026-05-01T12:00:05.000Z' });
    assert.deepEqual(again, first);
    assert.deepEqual(await s.rows('SELECT label, created_at, client_id FROM judgment'), [
      { label: 1, created_at: '2026-05-01T12:00:00.000Z', client_id: clientId },
    ]);
    // A relabel with a new id is a new judgment, labelled before; sent again it still says so.
    const relabel = { ...commit, label: 0, at: '2026-05-01T12:00:10.000Z', clientId: randomUUID() };
    const second = await s.store.labels.commitLabel(relabel);
    assert.equal(second.labelledBefore, true);
    assert.deepEqual(await s.store.labels.commitLabel(relabel), second);
    assert.equal((await s.rows('SELECT id FROM judgment')).length, 2);
    // Without an id, nothing is looked up: every commit is a judgment.
    const { clientId: _, ...plain } = commit;
    await s.store.labels.commitLabel(plain);
    await s.store.labels.commitLabel(plain);
    assert.equal((await s.rows('SELECT id FROM judgment WHERE client_id IS NULL')).length, 2);
    await s.store.close();
  });

  test(`LabelSession: a commit retried with its commitId is stored and counted once (${kind})`, async () => {
    const s = await kindStudy(kind, plainStudy(1, 3));
    const session = await s.session('alice');
    const pair = (await session.pairAt(0, 1, false))!;
    const commitId = randomUUID();
    const commit = { position: 0, pairId: pair.pairId, label: 2, queueVersion: 1, commitId };
    const first = await session.commit(commit);
    const retried = await session.commit(commit);
    assert.deepEqual(retried.progress, { assigned: 3, judged: 1 });
    assert.deepEqual(first.pair.mine, retried.pair.mine);
    assert.deepEqual(await s.rows('SELECT label, client_id FROM judgment'), [{ label: 2, client_id: commitId }]);
    await assert.rejects(session.commit({ ...commit, commitId: 42 as unknown as string }), /commit id/);
    await s.store.close();
  });

  test(`LabelSession over a store that loses replies: commit and undo retried, each done once (${kind})`, async () => {
    const s = await kindStudy(kind, plainStudy(1, 3));
    let loseNext = false;
    const labels = s.store.labels;
    const lossyLabels = new Proxy(labels, {
      get(target, key) {
        const value = Reflect.get(target, key) as unknown;
        if (typeof value !== 'function') return value;
        if (key !== 'commitLabel' && key !== 'retractLabel') return value.bind(target);
        return async (...args: unknown[]) => {
          const result = await value.apply(target, args);
          if (loseNext) {
            loseNext = false;
            throw new StoreError('the connection was lost while the change was being committed: it may be saved');
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
    const pairs = [(await session.pairAt(0, 1, false))!.pairId, (await session.pairAt(1, 1, false))!.pairId];
    await session.commit({ position: 0, pairId: pairs[0]!, label: 1, queueVersion: 1 });
    const commit = { position: 1, pairId: pairs[1]!, label: 2, queueVersion: 1, commitId: randomUUID() };
    loseNext = true;
    await assert.rejects(session.commit(commit), /may be saved/);
    assert.equal(session.state().position, 1, 'not moved on');
    assert.deepEqual((await session.commit(commit)).progress, { assigned: 3, judged: 2 });
    assert.equal((await s.rows('SELECT id FROM judgment')).length, 2);
    // The undo of the second label loses its reply; undone again, it is done — the first label stays.
    loseNext = true;
    await assert.rejects(session.undo(), /may be saved/);
    const undone = (await session.undo())!;
    assert.equal(undone.pair.pairId, pairs[1]);
    assert.equal(undone.pair.mine, undefined);
    assert.deepEqual(undone.progress, { assigned: 3, judged: 1 });
    assert.deepEqual(await s.rows('SELECT pair_id, label FROM current_judgment'), [{ pair_id: pairs[0], label: 1 }]);
    await s.store.close();
  });
}
