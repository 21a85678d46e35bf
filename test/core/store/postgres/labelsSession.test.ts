// LabelSession (core/labelling/labelSession.ts) over both adapters: scenarios of test/core/labelling/labelSession.test.ts
// — the same study synced, imported and pooled through the port, the same calls, the same assertions — run on a
// SQLite file and on a PostgreSQL database; plus two stores on one PostgreSQL record, as two machines would be.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LabelSession } from '../../../../core/labelling/labelSession.ts';
import { storeKinds } from '../../../storeKinds.ts';
import { plainStudy } from '../../labelling/labellingStudy.ts';
import { kindStudy } from './labelsFixture.ts';

/** A clock that stays on one millisecond unless moved: commits within one millisecond must still be ordered. */
function frozenClock(at = '2026-05-01T12:00:00.000Z') {
  let now = Date.parse(at);
  const clock = () => new Date(now);
  clock.advance = (ms: number) => {
    now += ms;
  };
  return clock;
}

/** Labels the pair at `position` (of the session's current queue). */
async function labelAt(session: LabelSession, position: number, label: number, extra: Record<string, unknown> = {}) {
  const version = session.state().queue.version;
  const pair = (await session.pairAt(position, version, false))!;
  return session.commit({ position, pairId: pair.pairId, label, queueVersion: version, ...extra });
}

for (const kind of storeKinds) {
  test(`open: the state of a new session — the queue in query order at 0, nothing judged (${kind})`, async () => {
    const s = await kindStudy(kind, plainStudy(2, 3));
    const state = (await s.session('alice')).state();
    assert.deepEqual(state.queue, { order: 'query', unlabelledOnly: false, version: 1, length: 6 });
    assert.deepEqual(state.progress, { assigned: 6, judged: 0 });
    assert.equal(state.position, 0);
    assert.deepEqual(await s.rows("SELECT kind FROM annotator WHERE name = 'alice'"), [{ kind: 'human' }]);
    await s.store.close();
  });

  test(`commits of one pair within one millisecond stay distinct and ordered; the latest is current (${kind})`, async () => {
    const s = await kindStudy(kind, plainStudy(1, 2));
    const session = await s.session('alice', frozenClock());
    for (const label of [0, 2, 1]) await labelAt(session, 0, label);
    assert.deepEqual(await s.rows('SELECT label, created_at FROM judgment ORDER BY id'), [
      { label: 0, created_at: '2026-05-01T12:00:00.000Z' },
      { label: 2, created_at: '2026-05-01T12:00:00.001Z' },
      { label: 1, created_at: '2026-05-01T12:00:00.002Z' },
    ]);
    assert.deepEqual(await s.rows('SELECT label FROM current_judgment'), [{ label: 1 }]);
    assert.deepEqual(session.state().progress, { assigned: 2, judged: 1 }, 'relabelling does not count twice');
    await s.store.close();
  });

  test(`undo walks back this session: previous labels are current again (${kind})`, async () => {
    const s = await kindStudy(kind, plainStudy(1, 3));
    const clock = frozenClock();
    const session = await s.session('alice', clock);
    const p0 = (await session.pairAt(0, 1, false))!;
    const p1 = (await session.pairAt(1, 1, false))!;
    await labelAt(session, 0, 2);
    clock.advance(1000);
    await labelAt(session, 1, 1);
    clock.advance(1000);
    await labelAt(session, 0, 0);
    assert.deepEqual(session.state().progress, { assigned: 3, judged: 2 });
    const first = (await session.undo())!;
    assert.equal(first.pair.pairId, p0.pairId);
    assert.equal(first.pair.position, 0);
    assert.equal(first.pair.mine?.label, 2, 'the earlier label of the pair is current again');
    assert.deepEqual(first.progress, { assigned: 3, judged: 2 });
    const second = (await session.undo())!;
    assert.equal(second.pair.pairId, p1.pairId);
    assert.equal(second.pair.mine, undefined);
    assert.deepEqual(second.progress, { assigned: 3, judged: 1 });
    assert.equal((await session.undo())!.pair.mine, undefined);
    assert.equal(await session.undo(), null, 'nothing left to undo');
    assert.equal(session.state().progress.judged, 0);
    assert.equal((await s.rows('SELECT * FROM judgment')).length, 3, 'the history stays in the record');
    assert.equal((await s.rows('SELECT * FROM judgment_retraction')).length, 3);
    await labelAt(session, 0, 1);
    assert.deepEqual(await s.rows('SELECT label FROM current_judgment'), [{ label: 1 }]);
    assert.equal(session.state().progress.judged, 1);
    await s.store.close();
  });

  test(`a new session on the reopened record is back where the annotator was: order, filter and pair (${kind})`, async () => {
    const s = await kindStudy(kind, plainStudy(3, 3));
    let session = await s.session('dana');
    await labelAt(session, 0, 1);
    await labelAt(session, 1, 1);
    await session.setQueue({ order: 'rank', unlabelledOnly: true });
    const where = (await session.pairAt(4, 2, true))!;
    await s.store.close();
    const reopened = await s.open();
    session = await s.session('dana', undefined, reopened);
    const state = session.state();
    assert.deepEqual(state.queue, { order: 'rank', unlabelledOnly: true, version: 1, length: 7 });
    assert.deepEqual(state.progress, { assigned: 9, judged: 2 });
    assert.equal((await session.pairAt(state.position, 1, false))!.pairId, where.pairId);
    assert.equal(state.position, 4);
    const erin = await s.session('erin', undefined, reopened);
    assert.deepEqual([erin.state().queue.order, erin.state().position], ['query', 0]);
    await reopened.close();
  });

  test(`two annotators label one record through two stores, each seeing the other; overlap holds (${kind})`, async () => {
    const s = await kindStudy(kind, { ...plainStudy(2, 3), extra: '  annotators alice bob carol overlap 2' });
    const second = await s.open();
    // Both sessions open (and assign) at the same time, from two stores.
    const [alice, bob] = await Promise.all([s.session('alice'), s.session('bob', undefined, second)]);
    assert.deepEqual(alice.state().progress, { assigned: 4, judged: 0 });
    assert.deepEqual(bob.state().progress, { assigned: 4, judged: 0 });
    for (let position = 0; position < 4; position++) {
      await labelAt(alice, position, 2);
      await labelAt(bob, position, position % 3);
    }
    assert.deepEqual(alice.state().progress, { assigned: 4, judged: 4 });
    assert.deepEqual(bob.state().progress, { assigned: 4, judged: 4 });
    const both = await s.rows(
      `SELECT p.qid, p.docid, count(*) AS n FROM assignment AS s JOIN pair AS p ON p.id = s.pair_id
       GROUP BY p.qid, p.docid HAVING count(*) <> 2`,
    );
    assert.deepEqual(both, [], 'every pair assigned to exactly 2');
    const counts = await s.rows(
      `SELECT a.name, CAST(count(*) AS integer) AS n FROM current_judgment AS j JOIN annotator AS a ON a.id = j.annotator_id
       GROUP BY a.name ORDER BY a.name`,
    );
    assert.deepEqual(counts, [
      { name: 'alice', n: 4 },
      { name: 'bob', n: 4 },
    ]);
    // What alice sees of a pair bob labelled too.
    const shared = await s.rows(
      `SELECT s1.pair_id FROM assignment AS s1 JOIN annotator AS a1 ON a1.id = s1.annotator_id AND a1.name = 'alice'
       JOIN assignment AS s2 ON s2.pair_id = s1.pair_id JOIN annotator AS a2 ON a2.id = s2.annotator_id AND a2.name = 'bob'`,
    );
    assert.ok(shared.length > 0);
    await second.close();
    await s.store.close();
  });
}
