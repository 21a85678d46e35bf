// Assignment of pairs to a study's annotators on real stores of each kind: round-robin by the (r·k + j) mod n rule,
// balanced, the same on every database, and incremental — a deeper pool assigns only its new pairs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assignPairs } from '../../../core/labelling/assignment.ts';
import { storeKinds } from '../../storeKinds.ts';
import { type LabellingStudy, labellingStudy, plainStudy } from './labellingStudy.ts';

const when = new Date('2026-03-01T10:00:00.000Z');

/** pair id → its annotators' names, in pair-id order. */
async function assignments(study: LabellingStudy): Promise<Map<number, string[]>> {
  const rows = (await study.rows(
    `SELECT s.pair_id AS "pairId", a.name FROM assignment AS s JOIN annotator AS a ON a.id = s.annotator_id
     ORDER BY s.pair_id, a.name`,
  )) as { pairId: number; name: string }[];
  const byPair = new Map<number, string[]>();
  for (const { pairId, name } of rows) byPair.set(pairId, [...(byPair.get(pairId) ?? []), name]);
  return byPair;
}

async function pairIds(study: LabellingStudy): Promise<number[]> {
  return (await study.rows('SELECT id FROM pair ORDER BY id')).map((row) => row.id as number);
}

for (const kind of storeKinds)
  test(`overlap 2 of 3: pair r goes to annotators 2r mod 3 and 2r + 1 mod 3, in the listed order (${kind})`, async () => {
    const study = await labellingStudy(plainStudy(2, 3), kind);
    const assigned = await assignPairs(study.store, study.studyId, ['alice', 'bob', 'carol'], 2, when);
    assert.equal(assigned, 6);
    const ids = await pairIds(study);
    // r = 0: alice, bob; r = 1: carol, alice; r = 2: bob, carol; and again.
    const expected = [
      ['alice', 'bob'],
      ['alice', 'carol'],
      ['bob', 'carol'],
      ['alice', 'bob'],
      ['alice', 'carol'],
      ['bob', 'carol'],
    ];
    assert.deepEqual(
      [...(await assignments(study))],
      ids.map((id, r) => [id, expected[r]]),
    );
    assert.deepEqual(
      (await study.rows('SELECT DISTINCT assigned_at FROM assignment')).map((row) => row.assigned_at),
      [when.toISOString()],
    );
    await study.close();
  });

for (const kind of storeKinds)
  test(`balanced: 100 pairs, overlap 2 of 3 gives each annotator 66 or 67 pairs, never one annotator twice (${kind})`, async () => {
    const study = await labellingStudy(plainStudy(10, 10), kind);
    await assignPairs(study.store, study.studyId, ['a', 'b', 'c'], 2, when);
    const counts = new Map<string, number>();
    for (const names of (await assignments(study)).values()) {
      assert.equal(new Set(names).size, 2);
      for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
    }
    assert.deepEqual([...counts.values()].sort(), [66, 67, 67]);
    await study.close();
  });

for (const kind of storeKinds)
  test(`deterministic: two databases with the same pairs get the same assignment (${kind})`, async () => {
    const first = await labellingStudy(plainStudy(4, 5), kind);
    const second = await labellingStudy(plainStudy(4, 5), kind);
    for (const study of [first, second]) await assignPairs(study.store, study.studyId, ['x', 'y', 'z', 'w'], 3, when);
    const named = (study: LabellingStudy) =>
      study.rows(
        `SELECT p.qid, p.docid, a.name FROM assignment AS s JOIN pair AS p ON p.id = s.pair_id
       JOIN annotator AS a ON a.id = s.annotator_id ORDER BY p.qid, p.docid, a.name`,
      );
    assert.equal((await named(first)).length, 60);
    assert.deepEqual(await named(first), await named(second));
    await first.close();
    await second.close();
  });

for (const kind of storeKinds)
  test(`no overlap: everyone gets every pair; an overlap above the number of annotators is clamped (${kind})`, async () => {
    const study = await labellingStudy(plainStudy(1, 4), kind);
    await assignPairs(study.store, study.studyId, ['a', 'b'], 5, when);
    for (const names of (await assignments(study)).values()) assert.deepEqual(names, ['a', 'b']);
    assert.equal((await assignments(study)).size, 4);
    const other = await labellingStudy(plainStudy(1, 4), kind);
    await assignPairs(other.store, other.studyId, ['a', 'b'], undefined, when);
    assert.deepEqual([...(await assignments(other)).values()], [...(await assignments(study)).values()]);
    await study.close();
    await other.close();
  });

for (const kind of storeKinds)
  test(`a study without annotators assigns nothing; a nonsense overlap is an error (${kind})`, async () => {
    const study = await labellingStudy(plainStudy(1, 4), kind);
    assert.equal(await assignPairs(study.store, study.studyId, [], 2, when), 0);
    assert.equal(await study.value('SELECT count(*) FROM assignment'), 0);
    await assert.rejects(() => assignPairs(study.store, study.studyId, ['a'], 0, when), /overlap .* found 0/);
    await assert.rejects(() => assignPairs(study.store, study.studyId, ['a', 'a'], 1, when), /each annotator once/);
    await study.close();
  });

for (const kind of storeKinds)
  test(`incremental: a deeper pool assigns only its new pairs, from r = 0, and moves no earlier assignment (${kind})`, async () => {
    const study = await labellingStudy(plainStudy(2, 4), kind);
    const annotators = ['alice', 'bob', 'carol'];
    await assignPairs(study.store, study.studyId, annotators, 1, when);
    const before = await assignments(study);
    assert.equal(
      await assignPairs(study.store, study.studyId, annotators, 1, when),
      0,
      'nothing new: nothing assigned',
    );
    // Deeper: two more documents per query.
    await study.pool({ q1: ['d1-1', 'd1-2', 'd1-3', 'd1-4', 'n1-5', 'n1-6'], q2: ['n2-5', 'n2-6'] }, 'deeper.trec');
    const newPairs = (await pairIds(study)).filter((id) => !before.has(id));
    assert.equal(newPairs.length, 4);
    assert.equal(await assignPairs(study.store, study.studyId, annotators, 1, new Date()), 4);
    const after = await assignments(study);
    for (const [pairId, names] of before) assert.deepEqual(after.get(pairId), names, `pair ${pairId} kept`);
    assert.deepEqual(
      newPairs.map((id) => after.get(id)),
      [['alice'], ['bob'], ['carol'], ['alice']],
    );
    await study.close();
  });
