// Many annotators labelling one PostgreSQL study at once, each in a process of its own: the worker (this file, run as
// a child with `labeller <json>`) and what runs it, shared by the concurrency test (concurrentLabelling.test.ts) and
// the bench (scripts/benchPostgres.ts). Every process assigns at the same instant (`annotators … overlap k`), reads
// its queue and commits a label for each pair of it, some twice, as fast as it can, printing each label the store
// confirmed with how long its commit took. `raceStudy` builds the study (a copy of a SQLite labelling fixture in a
// fresh database of the run's cluster) and `raceCounts` counts what went wrong in the record after a race.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type pg from 'pg';
import { PostgresLabels } from '../../../../core/store/postgres/postgresLabels.ts';
import { labellingStudy, plainStudy } from '../../labelling/labellingStudy.ts';
import { labelsContext, labelsPool, postgresCopy } from './labelsFixture.ts';

export interface LabellerTask {
  config: pg.ClientConfig;
  studyId: number;
  annotators: string[];
  annotator: string;
  overlap: number;
  /** How many labels to commit at most (the queue's pairs in order, then again from the start). */
  labels: number;
  /** When to start assigning (ms since the epoch): every process starts at the same instant. */
  startAt: number;
}

export interface Confirmed {
  pairId: number;
  label: number;
  judgmentId: number;
  createdAt: string;
  /** How long the commit took, ms. */
  ms: number;
}

/** The child: assigns, reads its queue, labels; one JSON line per confirmed label, then `done <assigned>`. */
async function labeller(task: LabellerTask): Promise<void> {
  const pool = labelsPool({ ...task.config, max: 2 });
  const labels = new PostgresLabels(labelsContext(pool, `labeller-${process.pid}`));
  try {
    const client = await pool.connect(); // connected before the start, so that the start is the same for all
    client.release();
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, task.startAt - Date.now())));
    const assigned = await labels.assignPairs(task.studyId, task.annotators, task.overlap, new Date().toISOString());
    const annotatorId = (await pool.query<{ id: number }>('SELECT id FROM annotator WHERE name = $1', [task.annotator]))
      .rows[0]!.id;
    const queue = await labels.labelQueue(
      { studyId: task.studyId, annotatorId, assignedOnly: true, unlabelledOnly: false },
      'query',
    );
    const lines: string[] = [];
    for (let i = 0; i < task.labels && queue.length > 0; i++) {
      const pairId = queue[i % queue.length]!;
      const label = (i * 7 + annotatorId) % 3;
      const sent = performance.now();
      const stored = await labels.commitLabel({
        studyId: task.studyId,
        pairId,
        annotatorId,
        label,
        source: 'manual',
        note: null,
        shownLabel: null,
        conditions: [],
        aspects: [],
        at: new Date().toISOString(),
        cursor: {
          studyId: task.studyId,
          annotatorId,
          order: 'query',
          unlabelledOnly: false,
          pairId,
          at: new Date().toISOString(),
        },
      });
      const confirmed: Confirmed = {
        pairId,
        label,
        judgmentId: stored.judgmentId,
        createdAt: stored.createdAt,
        ms: performance.now() - sent,
      };
      lines.push(JSON.stringify(confirmed));
    }
    process.stdout.write(`${lines.join('\n')}\ndone ${assigned}\n`);
  } finally {
    await pool.end();
  }
}

if (process.argv[2] === 'labeller' && process.argv[1] === import.meta.filename) {
  await labeller(JSON.parse(process.argv[3]!) as LabellerTask);
}

/** Runs one labeller process; resolves with what it confirmed and how many pairs its assignment handed out. */
export function runLabeller(task: LabellerTask): Promise<{ confirmed: Confirmed[]; assigned: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [import.meta.filename, 'labeller', JSON.stringify(task)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.stderr.on('data', (chunk) => {
      err += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`labeller ${task.annotator} exited ${code}: ${err}`));
      const lines = out.trim().split('\n');
      const done = lines.pop() ?? '';
      assert.match(done, /^done \d+$/, `labeller ${task.annotator}: ${out.slice(-300)} ${err}`);
      resolve({
        confirmed: lines.filter((l) => l !== '').map((l) => JSON.parse(l) as Confirmed),
        assigned: Number(done.slice(5)),
      });
    });
  });
}

/**
 * Records the annotators before the race, as a study someone has labelled before has them: a new name's insert
 * would make the others wait for the first transaction's commit, and hide a missing lock.
 */
export async function addAnnotators(pool: pg.Pool, names: string[]): Promise<void> {
  await pool.query("INSERT INTO annotator (name, kind) SELECT name, 'human' FROM unnest($1::text[]) AS name", [names]);
}

/** Adds `count` pairs of a query the study does not have (last in every queue) straight into the record. */
export async function addPairs(pool: pg.Pool, studyId: number, count: number): Promise<void> {
  await pool.query(
    `INSERT INTO pair (study_id, qid, docid)
     SELECT $1, 'zz-extra', 'extra-' || i FROM generate_series(1, $2::integer) AS i`,
    [studyId, count],
  );
}

export interface RaceStudy {
  pool: pg.Pool;
  config: pg.ClientConfig;
  studyId: number;
  annotators: string[];
}

/**
 * A study for `annotatorCount` annotators with overlap 2, in a fresh database of the run's cluster: enough pairs that
 * each annotator's share (2/n of them) holds about `labelsEach` (some pairs are labelled twice), `extraPairs` more
 * unlabelled ones (an assignment long enough for the processes to collide), the annotators recorded. End `pool`.
 */
export async function raceStudy(annotatorCount: number, labelsEach: number, extraPairs: number): Promise<RaceStudy> {
  const annotators = Array.from({ length: annotatorCount }, (_, i) => `a${i + 1}`);
  const pairs = Math.max(4, Math.ceil((labelsEach * annotatorCount) / 2 / 1.25));
  const perQuery = 10;
  const study = await labellingStudy({
    ...plainStudy(Math.ceil(pairs / perQuery), perQuery),
    extra: `  annotators ${annotators.join(' ')} overlap 2`,
  });
  const copy = await postgresCopy(study.db);
  await study.close();
  await addPairs(copy.pool, study.studyId, extraPairs);
  await addAnnotators(copy.pool, annotators);
  return { pool: copy.pool, config: copy.config, studyId: study.studyId, annotators };
}

export interface RaceResult {
  results: { confirmed: Confirmed[]; assigned: number }[];
  /** From the start of the processes to the last one's end (the 1.5 s wait for the common start included). */
  elapsedMs: number;
}

/** Every annotator of `race` in a process of its own, each committing `labelsEach` labels, all starting together. */
export async function runRace(race: RaceStudy, labelsEach: number): Promise<RaceResult> {
  const startAt = Date.now() + 1500;
  const started = Date.now();
  const results = await Promise.all(
    race.annotators.map((annotator) =>
      runLabeller({
        config: race.config,
        studyId: race.studyId,
        annotators: race.annotators,
        annotator,
        overlap: 2,
        labels: labelsEach,
        startAt,
      }),
    ),
  );
  return { results, elapsedMs: Date.now() - started };
}

export interface RaceCounts {
  /** Labels confirmed to a process. */
  confirmed: number;
  /** Confirmed labels the record does not hold as confirmed (pair, annotator, label, time). */
  lost: number;
  /** Judgment ids confirmed twice. */
  duplicate: number;
  /** Judgments in the record that nobody confirmed. */
  unconfirmed: number;
  /** Pairs not assigned to exactly 2 annotators. */
  misassigned: number;
}

/** What the record holds after `race`, against what the processes confirmed. */
export async function raceCounts(race: RaceStudy, { results }: RaceResult): Promise<RaceCounts> {
  const stored = (
    await race.pool.query<{ id: number; pair_id: number; annotator: string; label: number; created_at: string }>(
      `SELECT j.id, j.pair_id, a.name AS annotator, j.label, j.created_at
       FROM judgment AS j JOIN annotator AS a ON a.id = j.annotator_id`,
    )
  ).rows;
  const byId = new Map(stored.map((row) => [row.id, row]));
  const seen = new Set<number>();
  const counts: RaceCounts = { confirmed: 0, lost: 0, duplicate: 0, unconfirmed: 0, misassigned: 0 };
  for (const [i, { confirmed }] of results.entries()) {
    for (const label of confirmed) {
      counts.confirmed++;
      if (seen.has(label.judgmentId)) counts.duplicate++;
      seen.add(label.judgmentId);
      const row = byId.get(label.judgmentId);
      if (
        row === undefined ||
        row.pair_id !== label.pairId ||
        row.annotator !== race.annotators[i] ||
        row.label !== label.label ||
        row.created_at !== label.createdAt
      ) {
        counts.lost++;
      }
    }
  }
  counts.unconfirmed = stored.filter((row) => !seen.has(row.id)).length;
  counts.misassigned = (
    await race.pool.query<{ n: number }>(
      `SELECT count(*)::integer AS n FROM pair AS p
       WHERE p.study_id = $1 AND (SELECT count(*) FROM assignment AS s WHERE s.pair_id = p.id) <> 2`,
      [race.studyId],
    )
  ).rows[0]!.n;
  return counts;
}

/** The p-th percentile (0–1) of `values`, ms. */
export function latencyPercentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
}
