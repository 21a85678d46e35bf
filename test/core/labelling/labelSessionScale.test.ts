// A labelling session on a study of a million pairs (largeStudy.ts: 10,000 queries × 100 pooled documents, three
// annotators with overlap 2, another annotator's labels on every 10th pair, suggestions on every 7th): the
// assignment, the queue positions in each order, progress and the cursor are checked against what the
// (r·k + j) mod n rule and the data's shape say they must be. Timings are printed (diagnostics), not asserted.
// The same test runs on PostgreSQL with `postgresQueries` queries (the positions looked at scale with the size).
import assert from 'node:assert/strict';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { LabelSession } from '../../../core/labelling/labelSession.ts';
import { nativeDir, scratchDir } from '../../helpers.ts';
import { type StoreKind, storeKinds } from '../../storeKinds.ts';
import { buildLargeStudy } from './largeStudy.ts';

const sqliteQueries = 10_000;
const postgresQueries = Number(process.env.QRELS_STUDIO_PG_SCALE_QUERIES ?? 1_000);
const perQuery = 100;
const annotators = ['alice', 'bob', 'carol'];
const overlap = 2;
const folder = scratchDir('qrels-studio-large-');
after(() => rmSync(folder, { recursive: true, force: true }));

function scaleTest(kind: StoreKind, queries: number) {
  /** Pair ids are 1… in insertion order, rank by rank across queries: pair (q, rank) is (rank - 1)·queries + q + 1. */
  const pairOf = (q: number, rank: number) => (rank - 1) * queries + q + 1;
  /** Every pair is unassigned when the first session opens: pair id p is the r = p - 1-th. */
  const assignedTo = (pairId: number, annotator: number) =>
    Array.from({ length: overlap }, (_, j) => ((pairId - 1) * overlap + j) % annotators.length).includes(annotator);

  /** The expected queue of annotator `a` in query order: query by query (import order), each by rank. */
  function queryOrderQueue(a: number): number[] {
    const queue: number[] = [];
    for (let q = 0; q < queries; q++) {
      for (let rank = 1; rank <= perQuery; rank++) if (assignedTo(pairOf(q, rank), a)) queue.push(pairOf(q, rank));
    }
    return queue;
  }

  async function timed<T>(run: () => T | Promise<T>): Promise<{ value: T; ms: number }> {
    const start = performance.now();
    const value = await run();
    return { value, ms: performance.now() - start };
  }

  const size =
    queries * perQuery === 1_000_000 ? 'a million pairs' : `${(queries * perQuery).toLocaleString('en')} pairs`;
  test(`${size}: assignment, queue positions, progress, commit, undo and the cursor are right (${kind})`, async (t) => {
    const build = await timed(async () =>
      buildLargeStudy({
        kind,
        folder: mkdirSync(join(folder, kind), { recursive: true })!,
        nativeDir,
        queries,
        perQuery,
        extra: `  annotators ${annotators.join(' ')}  overlap ${overlap}`,
        judgedEvery: 10,
        judgedBy: 'bob',
        suggestedEvery: 7,
      }),
    );
    const { store, study, studyFile, pairs, countRows } = build.value;
    assert.equal(pairs, queries * perQuery);
    t.diagnostic(`build ${size} study: ${build.ms.toFixed(0)} ms`);

    const open = (annotator: string) => LabelSession.open(store, { studyFile, study, annotator });
    const opened = await timed(async () => open('alice'));
    const alice = opened.value;
    t.diagnostic(`open (assign ${size} × ${overlap}, queue, progress): ${opened.ms.toFixed(0)} ms`);
    assert.equal(await countRows('assignment'), pairs * overlap);

    const expected = queryOrderQueue(0);
    const state = alice.state();
    assert.deepEqual(state.progress, { assigned: expected.length, judged: 0 });
    assert.equal(state.queue.length, expected.length);
    const version = state.queue.version;
    for (const position of [0, 1, 2, 12_345, Math.floor(pairs / 3), expected.length - 1]) {
      const pair = (await alice.pairAt(position, version, false))!;
      assert.equal(pair.pairId, expected[position], `position ${position}`);
      const q = Math.floor((pair.pairId - 1) % queries);
      assert.equal(pair.query.qid, `q${q}`);
      assert.equal(pair.bestRank, Math.floor((pair.pairId - 1) / queries) + 1);
      assert.equal(pair.document?.docid, `d${String(q * perQuery + pair.bestRank! - 1).padStart(8, '0')}`);
    }
    assert.equal(await alice.pairAt(expected.length, version, false), null);

    // Per-label costs: showing pairs, and committing labels (each its own transaction).
    const shown = 2_000;
    const showing = await timed(async () => {
      for (let i = 0; i < shown; i++) await alice.pairAt(pairs / 10 + i, version, i % 2 === 0);
    });
    t.diagnostic(`pairAt: ${((showing.ms / shown) * 1000).toFixed(0)} µs per pair`);
    const labelled = 1_000;
    const start = (pairs / 10) * 4;
    const committing = await timed(async () => {
      for (let i = 0; i < labelled; i++) {
        await alice.commit({ position: start + i, pairId: expected[start + i]!, label: i % 3, queueVersion: version });
      }
    });
    t.diagnostic(`commit: ${((committing.ms / labelled) * 1000).toFixed(0)} µs per label`);
    assert.deepEqual(alice.state().progress, { assigned: expected.length, judged: labelled });
    assert.equal(alice.state().position, start + labelled);
    const undoing = await timed(async () => (await alice.undo())!);
    t.diagnostic(`undo: ${(undoing.ms * 1000).toFixed(0)} µs`);
    assert.equal(undoing.value.pair.position, start + labelled - 1);
    assert.deepEqual(undoing.value.progress, { assigned: expected.length, judged: labelled - 1 });
    assert.equal(undoing.value.pair.mine, undefined);

    // Unlabelled only: the labelled pairs drop out; the annotator stays on the pair they were at.
    const filtering = await timed(async () => await alice.setQueue({ order: 'query', unlabelledOnly: true }));
    t.diagnostic(`setQueue query, unlabelled only: ${filtering.ms.toFixed(0)} ms`);
    const filtered = filtering.value;
    assert.equal(filtered.queue.length, expected.length - (labelled - 1));
    assert.equal(filtered.position, start);
    assert.equal(
      (await alice.pairAt(filtered.position, filtered.queue.version, true))!.pairId,
      expected[start + labelled - 1],
    );

    // Reopened: back on that pair, in that queue, with the same progress (counted again).
    const reopened = await timed(async () => open('alice'));
    t.diagnostic(`open again (nothing to assign): ${reopened.ms.toFixed(0)} ms`);
    const back = reopened.value.state();
    assert.deepEqual(back.queue, { order: 'query', unlabelledOnly: true, version: 1, length: filtered.queue.length });
    assert.equal(back.position, start);
    assert.deepEqual(back.progress, { assigned: expected.length, judged: labelled - 1 });

    // bob's progress counts his labels (every 10th pair) among his assignment only.
    const bobAssigned = queryOrderQueue(1);
    const bobJudged = bobAssigned.filter((pairId) => (pairId - 1) % 10 === 0).length;
    assert.deepEqual((await open('bob')).state().progress, { assigned: bobAssigned.length, judged: bobJudged });

    // By rank: rank 1 of every query first (query order among them).
    const byRank = await timed(async () => await alice.setQueue({ order: 'rank', unlabelledOnly: false }));
    t.diagnostic(`setQueue rank: ${byRank.ms.toFixed(0)} ms`);
    const rankFirst = expected.filter((pairId) => pairId <= queries);
    assert.equal((await alice.pairAt(0, byRank.value.queue.version, false))!.pairId, rankFirst[0]);
    assert.equal((await alice.pairAt(rankFirst.length - 1, byRank.value.queue.version, false))!.bestRank, 1);
    assert.equal((await alice.pairAt(rankFirst.length, byRank.value.queue.version, false))!.bestRank, 2);

    // By confidence: the least confident suggestion (confidence (37·id mod 100) / 100 on every 7th pair) first.
    const byConfidence = await timed(async () => await alice.setQueue({ order: 'confidence', unlabelledOnly: false }));
    t.diagnostic(`setQueue confidence: ${byConfidence.ms.toFixed(0)} ms`);
    const position = new Map(expected.map((pairId, i) => [pairId, i]));
    const suggested = expected
      .filter((pairId) => (pairId - 1) % 7 === 0)
      .sort((a, b) => ((a * 37) % 100) - ((b * 37) % 100) || position.get(a)! - position.get(b)!);
    const confidenceVersion = byConfidence.value.queue.version;
    assert.equal((await alice.pairAt(0, confidenceVersion, false))!.pairId, suggested[0]);
    assert.equal((await alice.pairAt(suggested.length - 1, confidenceVersion, false))!.pairId, suggested.at(-1));
    assert.equal(
      (await alice.pairAt(suggested.length, confidenceVersion, false))!.suggestions.length,
      0,
      'then the unsuggested',
    );

    const byDisagreement = await timed(
      async () => await alice.setQueue({ order: 'disagreement', unlabelledOnly: false }),
    );
    t.diagnostic(`setQueue disagreement: ${byDisagreement.ms.toFixed(0)} ms`);
    const top = (await alice.pairAt(0, byDisagreement.value.queue.version, false))!;
    const labels = new Set([
      ...top.others.map((o) => o.label),
      ...top.suggestions.map((s) => s.label),
      ...(top.mine ? [top.mine.label] : []),
    ]);
    assert.ok(labels.size >= 2, `the first pair has labels that disagree (${[...labels].join(', ')})`);
    await store.close();
  });
}

for (const kind of storeKinds) scaleTest(kind, kind === 'sqlite' ? sqliteQueries : postgresQueries);
