// A label commit sent again with the same id (its reply was lost: the connection dropped after COMMIT reached the
// server) is stored once: the labels port answers with the judgment the first one stored, and LabelSession counts it
// once — on both adapters.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
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
}
