// Many annotators labelling one PostgreSQL study at once, each in a process of its own (the worker of labellerRace.ts,
// which the bench runs too): every process assigns at the same instant (`annotators … overlap 2`, nobody assigned
// before), reads its queue and commits a label for each pair of it, some twice, as fast as it can, printing each label
// the store confirmed. Then: no pair assigned to more than 2 annotators (each to exactly 2), every confirmed label
// in the record exactly once with its label and time, and nothing in the record that nobody confirmed. A second case
// has two windows of one annotator commit the same pairs at the same time: distinct stamps, none lost.
// Sizes are parameters, small by default (about 15 s): QRELS_STUDIO_PG_ANNOTATORS (4), QRELS_STUDIO_PG_LABELS (labels
// per annotator, 60), QRELS_STUDIO_PG_EXTRA_PAIRS (20000 unlabelled pairs that make an assignment long enough for the
// processes to collide). The scale, about 50 s here:
//   QRELS_STUDIO_PG_ANNOTATORS=8 QRELS_STUDIO_PG_LABELS=2000 node --test test/core/store/postgres/concurrentLabelling.test.ts
// The annotators are recorded before the race: a new name's insert makes the other transactions wait for the first
// one's commit, which would hide a missing assignment lock (without the lock, both cases below fail).
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import type pg from 'pg';
import { PostgresLabels } from '../../../../core/store/postgres/postgresLabels.ts';
import { labellingStudy, plainStudy } from '../../labelling/labellingStudy.ts';
import {
  addAnnotators,
  addPairs,
  latencyPercentile,
  raceCounts,
  raceStudy,
  runLabeller,
  runRace,
} from './labellerRace.ts';
import { labelsContext, labelsPool, postgresCopy } from './labelsFixture.ts';

const pools: pg.Pool[] = [];
after(async () => {
  for (const pool of pools) await pool.end();
});

const annotatorCount = Number(process.env.QRELS_STUDIO_PG_ANNOTATORS ?? 4);
const labelsEach = Number(process.env.QRELS_STUDIO_PG_LABELS ?? 60);
/** Pairs added beyond the labelled ones, so that an assignment takes long enough for the processes to collide. */
const extraPairs = Number(process.env.QRELS_STUDIO_PG_EXTRA_PAIRS ?? 20000);

test(`${annotatorCount} annotator processes label one study at once with overlap 2: none lost, none doubled, no pair given to more than 2`, async () => {
  const race = await raceStudy(annotatorCount, labelsEach, extraPairs);
  pools.push(race.pool);
  const { annotators } = race;
  const run = await runRace(race, labelsEach);
  const { results } = run;
  const copy = race;
  const q = async <T>(sql: string) => (await copy.pool.query(sql)).rows as T[];
  const totalPairs = (await q<{ n: number }>('SELECT count(*)::integer AS n FROM pair'))[0]!.n;
  // Assignment: every pair handed out once, to exactly 2 annotators, by whichever process came first.
  assert.equal(
    results.reduce((sum, r) => sum + r.assigned, 0),
    totalPairs,
    'the pairs were assigned once in all',
  );
  const perPair = await q<{ pair_id: number; n: number }>(
    'SELECT pair_id, count(*)::integer AS n FROM assignment GROUP BY pair_id',
  );
  assert.equal(perPair.length, totalPairs, 'every pair is assigned');
  assert.deepEqual(
    perPair.filter((row) => row.n !== 2),
    [],
    'no pair is assigned to more (or fewer) than 2 annotators',
  );
  // Labels: every confirmed one there exactly once, as confirmed; nothing else.
  const stored = await q<{ id: number; pair_id: number; annotator: string; label: number; created_at: string }>(
    `SELECT j.id, j.pair_id, a.name AS annotator, j.label, j.created_at
       FROM judgment AS j JOIN annotator AS a ON a.id = j.annotator_id ORDER BY j.id`,
  );
  const byId = new Map(stored.map((row) => [row.id, row]));
  let confirmedCount = 0;
  for (const [i, { confirmed }] of results.entries()) {
    assert.equal(confirmed.length, labelsEach, `${annotators[i]} confirmed every label it made`);
    for (const { ms: _, ...label } of confirmed) {
      confirmedCount++;
      assert.deepEqual(byId.get(label.judgmentId), {
        id: label.judgmentId,
        pair_id: label.pairId,
        annotator: annotators[i],
        label: label.label,
        created_at: label.createdAt,
      });
    }
  }
  assert.equal(stored.length, confirmedCount, 'no label stored that nobody confirmed, none twice');
  // Labelled only what was assigned to them.
  const outside = await q(
    `SELECT j.id FROM judgment AS j
       WHERE NOT EXISTS (SELECT 1 FROM assignment AS s WHERE s.pair_id = j.pair_id AND s.annotator_id = j.annotator_id)`,
  );
  assert.deepEqual(outside, []);
  // The shared counts (the bench prints them) agree.
  assert.deepEqual(await raceCounts(race, run), {
    confirmed: confirmedCount,
    lost: 0,
    duplicate: 0,
    unconfirmed: 0,
    misassigned: 0,
  });
  const latencies = results.flatMap((r) => r.confirmed.map((c) => c.ms));
  const percentile = (p: number) => latencyPercentile(latencies, p).toFixed(1);
  console.log(
    `${annotatorCount} processes × ${labelsEach} labels, ${totalPairs} pairs: ${confirmedCount} labels in ${run.elapsedMs} ms ` +
      `(start included); commit latency p50 ${percentile(0.5)} ms, p95 ${percentile(0.95)} ms`,
  );
});

test(`${annotatorCount * 2} pools assign one study at the same instant: each pair to exactly 2 annotators`, async () => {
  const annotators = Array.from({ length: annotatorCount }, (_, i) => `a${i + 1}`);
  const study = await labellingStudy({
    ...plainStudy(1, 4),
    extra: `  annotators ${annotators.join(' ')} overlap 2`,
  });
  const copy = await postgresCopy(study.db);
  pools.push(copy.pool);
  await study.close();
  await addPairs(copy.pool, study.studyId, extraPairs);
  await addAnnotators(copy.pool, annotators);
  const racers = Array.from({ length: annotatorCount * 2 }, () => labelsPool({ ...copy.config, max: 1 }));
  pools.push(...racers);
  // Every pool connected first, then every assignment sent in the same tick.
  await Promise.all(racers.map(async (pool) => (await pool.connect()).release()));
  const at = new Date().toISOString();
  const assigned = await Promise.all(
    racers.map((pool) => new PostgresLabels(labelsContext(pool)).assignPairs(study.studyId, annotators, 2, at)),
  );
  const total = 4 + extraPairs;
  assert.equal(
    assigned.reduce((sum, n) => sum + n, 0),
    total,
  );
  assert.deepEqual(
    (
      await copy.pool.query(
        'SELECT count(*)::integer AS n FROM (SELECT pair_id FROM assignment GROUP BY pair_id HAVING count(*) = 2) AS t',
      )
    ).rows,
    [{ n: total }],
  );
  assert.deepEqual((await copy.pool.query('SELECT count(*)::integer AS n FROM assignment')).rows, [{ n: 2 * total }]);
});

test('two windows of one annotator commit the same pairs at the same time: every label kept, stamps distinct', async () => {
  const study = await labellingStudy({ ...plainStudy(2, 5), extra: '  annotators alice bob overlap 1' });
  const copy = await postgresCopy(study.db);
  pools.push(copy.pool);
  await study.close();
  const task = {
    config: copy.config,
    studyId: study.studyId,
    annotators: ['alice', 'bob'],
    annotator: 'alice',
    overlap: 1,
    labels: 30,
    startAt: Date.now() + 1500,
  };
  const [one, two] = await Promise.all([runLabeller(task), runLabeller(task)]);
  assert.equal(one!.assigned + two!.assigned, 10);
  const stored = (
    await copy.pool.query<{ id: number; pair_id: number; created_at: string; label: number }>(
      'SELECT id, pair_id, created_at, label FROM judgment ORDER BY id',
    )
  ).rows;
  const confirmed = [...one!.confirmed, ...two!.confirmed].sort((a, b) => a.judgmentId - b.judgmentId);
  assert.equal(confirmed.length, 60);
  assert.deepEqual(
    stored,
    confirmed.map((c) => ({ id: c.judgmentId, pair_id: c.pairId, created_at: c.createdAt, label: c.label })),
  );
  const keys = new Set(stored.map((row) => `${row.pair_id} ${row.created_at}`));
  assert.equal(keys.size, stored.length, 'one annotator never has two judgments of a pair at one time');
});
