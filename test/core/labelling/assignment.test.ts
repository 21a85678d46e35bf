// Assignment of pairs to a study's annotators on real SQLite files: round-robin by the (r·k + j) mod n rule,
// balanced, the same on every database, and incremental — a deeper pool assigns only its new pairs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assignPairs } from '../../../core/labelling/assignment.ts';
import { type LabellingStudy, labellingStudy, plainStudy } from './labellingStudy.ts';

const when = new Date('2026-03-01T10:00:00.000Z');

/** pair id → its annotators' names, in pair-id order. */
function assignments(study: LabellingStudy): Map<number, string[]> {
  const rows = study.db
    .prepare(
      `SELECT s.pair_id AS pairId, a.name FROM assignment AS s JOIN annotator AS a ON a.id = s.annotator_id
       ORDER BY s.pair_id, a.name`,
    )
    .all() as { pairId: number; name: string }[];
  const byPair = new Map<number, string[]>();
  for (const { pairId, name } of rows) byPair.set(pairId, [...(byPair.get(pairId) ?? []), name]);
  return byPair;
}

function pairIds(study: LabellingStudy): number[] {
  return study.db.prepare('SELECT id FROM pair ORDER BY id').pluck().all() as number[];
}

test('overlap 2 of 3: pair r goes to annotators 2r mod 3 and 2r + 1 mod 3, in the listed order', async () => {
  const study = await labellingStudy(plainStudy(2, 3));
  const assigned = await assignPairs(study.store, study.studyId, ['alice', 'bob', 'carol'], 2, when);
  assert.equal(assigned, 6);
  const ids = pairIds(study);
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
    [...assignments(study)],
    ids.map((id, r) => [id, expected[r]]),
  );
  assert.deepEqual(study.db.prepare('SELECT DISTINCT assigned_at FROM assignment').pluck().all(), [when.toISOString()]);
  await study.close();
});

test('balanced: 100 pairs, overlap 2 of 3 gives each annotator 66 or 67 pairs, never one annotator twice', async () => {
  const study = await labellingStudy(plainStudy(10, 10));
  await assignPairs(study.store, study.studyId, ['a', 'b', 'c'], 2, when);
  const counts = new Map<string, number>();
  for (const names of assignments(study).values()) {
    assert.equal(new Set(names).size, 2);
    for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  assert.deepEqual([...counts.values()].sort(), [66, 67, 67]);
  await study.close();
});

test('deterministic: two databases with the same pairs get the same assignment', async () => {
  const first = await labellingStudy(plainStudy(4, 5));
  const second = await labellingStudy(plainStudy(4, 5));
  for (const study of [first, second]) await assignPairs(study.store, study.studyId, ['x', 'y', 'z', 'w'], 3, when);
  const named = (study: LabellingStudy) =>
    study.db
      .prepare(
        `SELECT p.qid, p.docid, a.name FROM assignment AS s JOIN pair AS p ON p.id = s.pair_id
         JOIN annotator AS a ON a.id = s.annotator_id ORDER BY p.qid, p.docid, a.name`,
      )
      .all();
  assert.equal(named(first).length, 60);
  assert.deepEqual(named(first), named(second));
  await first.close();
  await second.close();
});

test('no overlap: everyone gets every pair; an overlap above the number of annotators is clamped', async () => {
  const study = await labellingStudy(plainStudy(1, 4));
  await assignPairs(study.store, study.studyId, ['a', 'b'], 5, when);
  for (const names of assignments(study).values()) assert.deepEqual(names, ['a', 'b']);
  assert.equal(assignments(study).size, 4);
  const other = await labellingStudy(plainStudy(1, 4));
  await assignPairs(other.store, other.studyId, ['a', 'b'], undefined, when);
  assert.deepEqual([...assignments(other).values()], [...assignments(study).values()]);
  await study.close();
  await other.close();
});

test('a study without annotators assigns nothing; a nonsense overlap is an error', async () => {
  const study = await labellingStudy(plainStudy(1, 4));
  assert.equal(await assignPairs(study.store, study.studyId, [], 2, when), 0);
  assert.equal(study.db.prepare('SELECT count(*) FROM assignment').pluck().get(), 0);
  await assert.rejects(() => assignPairs(study.store, study.studyId, ['a'], 0, when), /overlap .* found 0/);
  await assert.rejects(() => assignPairs(study.store, study.studyId, ['a', 'a'], 1, when), /each annotator once/);
  await study.close();
});

test('incremental: a deeper pool assigns only its new pairs, from r = 0, and moves no earlier assignment', async () => {
  const study = await labellingStudy(plainStudy(2, 4));
  const annotators = ['alice', 'bob', 'carol'];
  await assignPairs(study.store, study.studyId, annotators, 1, when);
  const before = assignments(study);
  assert.equal(await assignPairs(study.store, study.studyId, annotators, 1, when), 0, 'nothing new: nothing assigned');
  // Deeper: two more documents per query.
  await study.pool({ q1: ['d1-1', 'd1-2', 'd1-3', 'd1-4', 'n1-5', 'n1-6'], q2: ['n2-5', 'n2-6'] }, 'deeper.trec');
  const newPairs = pairIds(study).filter((id) => !before.has(id));
  assert.equal(newPairs.length, 4);
  assert.equal(await assignPairs(study.store, study.studyId, annotators, 1, new Date()), 4);
  const after = assignments(study);
  for (const [pairId, names] of before) assert.deepEqual(after.get(pairId), names, `pair ${pairId} kept`);
  assert.deepEqual(
    newPairs.map((id) => after.get(id)),
    [['alice'], ['bob'], ['carol'], ['alice']],
  );
  await study.close();
});
