// The labelling port (core/store/port/labelsPort.ts) in both backends: one study built in SQLite and copied, ids and
// all, into PostgreSQL (labelsFixture.ts); the same script of calls — assignment with overlap, every queue order and
// scope, progress, commits with condition and aspect answers and a suggestion taken, two commits in one millisecond,
// undo (and undo again), cursors, the pair view, documents with their chunks, scope checks, addJudgment and its
// refusals — run against each adapter; every answer, and the rows written, must be the same.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import type { LabelsPort } from '../../../../core/store/port/labelsPort.ts';
import { scratchDir } from '../../../helpers.ts';
import { storeKinds } from '../../../storeKinds.ts';
import { type LabellingStudyOptions, labellingStudy } from '../../labelling/labellingStudy.ts';
import { kindStudy, postgresCopy } from './labelsFixture.ts';

const pools: { end(): Promise<void> }[] = [];
after(async () => {
  for (const pool of pools) await pool.end();
});

/** A study of 3 queries, chunked documents, a query-less pair, three annotators and a judge's suggestions. */
const sharedOptions: LabellingStudyOptions = {
  queries: [
    { qid: 'q2', text: 'second', instruction: '1) a 2) b' },
    { qid: 'q1', text: 'first', instruction: '1) c 2) d' },
    { qid: 'Q3', text: 'capital' },
  ],
  documents: [
    { docid: 'a', body: 'A' },
    { docid: 'B', body: 'b' },
    { docid: 'p#2', body: 'chunk 2', parent: 'p' },
    { docid: 'p#1', body: 'chunk 1', parent: 'p', title: 'P' },
    { docid: 'c', body: 'C' },
  ],
  ranking: { q1: ['a', 'B', 'p#2'], q2: ['p#1', 'a'], Q3: ['c', 'B', 'a', 'p#2'] },
  extra:
    '  annotators alice bob carol overlap 2\n  aspect topical "On topic?"\n  conditions from instruction\n' +
    '  adjudicator judy',
};

/** What the study holds beyond its files: a pair only an imported label names, a judge's suggestions. */
async function plant(
  labels: LabelsPort,
  exec: (sql: string, parameters?: unknown[]) => Promise<unknown[]>,
  pairId: (qid: string, docid: string) => number,
) {
  await labels.addJudgment({
    study: 's',
    qid: 'qx',
    docid: 'a',
    annotator: 'dave',
    label: 1,
    source: 'imported',
    createdAt: new Date('2026-01-01T00:00:00.000Z'),
  });
  const [judge] = (await exec("INSERT INTO annotator (name, kind) VALUES ('llm:m@1', 'llm') RETURNING id")) as {
    id: number;
  }[];
  await exec("INSERT INTO annotator (name, kind) VALUES ('gpt', 'llm')");
  const suggest = (
    qid: string,
    docid: string,
    label: number | null,
    why: string,
    at: string,
    confidence: number | null,
  ) =>
    exec(
      'INSERT INTO suggestion (pair_id, annotator_id, label, rationale, created_at, confidence) VALUES ($1, $2, $3, $4, $5, $6)',
      [pairId(qid, docid), judge!.id, label, why, at, confidence],
    );
  await suggest('q1', 'a', 2, 'old', '2026-01-01T00:00:00.000Z', 1);
  await suggest('q1', 'a', 1, 'new', '2026-01-02T00:00:00.000Z', 2 / 3);
  await suggest('q1', 'B', null, 'unparsed', '2026-01-02T00:00:00.000Z', null);
  await suggest('Q3', 'c', 0, 'no', '2026-01-02T00:00:00.000Z', 0.25);
}

/** What a call answered, or the message it was refused with (the record's location written as <record>). */
async function outcome(where: string, call: () => Promise<unknown>): Promise<unknown> {
  try {
    const value = await call();
    return value instanceof Int32Array ? { queue: [...value] } : (value ?? null);
  } catch (error) {
    return { refused: (error as Error).message.replaceAll(where, '<record>') };
  }
}

/** How a test reads a backend's rows: an annotator's id, and every row of a table in a stable order. */
interface Rows {
  annotatorId(name: string): Promise<number>;
  table(sql: string): Promise<unknown[]>;
}

/** The script: every method of the port, in an order that makes each answer depend on the writes before it. */
async function script(
  labels: LabelsPort,
  rows: Rows,
  where: string,
  studyId: number,
  pairId: (q: string, d: string) => number,
) {
  const log: [string, unknown][] = [];
  const step = async (name: string, call: () => Promise<unknown>) => {
    log.push([name, await outcome(where, call)]);
  };
  const at = (s: number) => new Date(Date.UTC(2026, 4, 1, 12, 0, s)).toISOString();
  await step('assign none', () => labels.assignPairs(studyId, [], 1, at(0)));
  await step('assign', () => labels.assignPairs(studyId, ['alice', 'bob', 'carol'], 2, at(0)));
  await step('assign again: nothing new', () => labels.assignPairs(studyId, ['alice', 'bob', 'carol'], 2, at(1)));
  await step('assign refused', () => labels.assignPairs(studyId, ['alice'], 2, at(1)));
  await step('a judge as an annotator', () => labels.assignPairs(studyId, ['bob', 'gpt'], 1, at(1)));
  await step('a judge as an annotator, and overlap refused', () =>
    labels.assignPairs(studyId, ['gpt', 'bob'], 3, at(1)),
  );
  await step('overlap not whole', () => labels.assignPairs(studyId, ['alice', 'bob'], 1.5, at(1)));
  await step('a judge labels as a person', () =>
    labels.addJudgment({ study: 's', qid: 'q1', docid: 'a', annotator: 'gpt', label: 0, source: 'manual' }),
  );
  await step('a judge labels as a judge', () =>
    labels.addJudgment({
      study: 's',
      qid: 'q1',
      docid: 'a',
      annotator: 'llm:m@1',
      label: 0,
      source: 'manual',
      createdAt: new Date(at(1)),
    }),
  );
  await step('assignment rows', () =>
    rows.table('SELECT pair_id, annotator_id, assigned_at FROM assignment ORDER BY pair_id, annotator_id'),
  );
  const alice = await rows.annotatorId('alice');
  const bob = await rows.annotatorId('bob');
  await step('judy labels', () =>
    labels.addJudgment({
      study: 's',
      qid: 'Q3',
      docid: 'c',
      annotator: 'judy',
      label: 2,
      source: 'adjudicated',
      createdAt: new Date(at(1)),
    }),
  );
  const judy = await rows.annotatorId('judy');
  const scopes = [
    { studyId, annotatorId: alice, assignedOnly: true },
    { studyId, annotatorId: alice, assignedOnly: false },
    { studyId, annotatorId: bob, assignedOnly: true },
  ];
  const queues = async (when: string) => {
    for (const scope of scopes) {
      for (const unlabelledOnly of [false, true]) {
        for (const order of ['query', 'rank', 'confidence', 'disagreement', 'nonsense'] as const) {
          await step(`${when}: queue ${order} ${JSON.stringify(scope)} ${unlabelledOnly}`, () =>
            labels.labelQueue({ ...scope, unlabelledOnly }, order as never),
          );
        }
      }
      await step(`${when}: progress ${JSON.stringify(scope)}`, () => labels.labelProgress(scope));
    }
  };
  await queues('before');
  await step('synced', () => labels.syncedStudy(studyId));
  await step('synced: no such study', () => labels.syncedStudy(9999));
  await step('cursor: none yet', () => labels.labelCursor(studyId, alice));
  const q1a = pairId('q1', 'a');
  const q1b = pairId('q1', 'B');
  const cursor = (pair: number | null, s: number) => ({
    studyId,
    annotatorId: alice,
    order: 'rank' as const,
    unlabelledOnly: true,
    pairId: pair,
    at: at(s),
  });
  await step('save cursor', () => labels.saveLabelCursor(cursor(null, 2)));
  await step('cursor', () => labels.labelCursor(studyId, alice));
  const commit = {
    studyId,
    pairId: q1a,
    annotatorId: alice,
    label: 1,
    source: 'manual' as const,
    note: 'a note',
    shownLabel: null,
    conditions: [true, false],
    aspects: [{ aspect: 'topical', answer: 1 }],
    at: at(3),
  };
  await step('commit: suggestion not taken before labelling (blind)', () =>
    labels.commitLabel({ ...commit, suggestion: { label: 1, onlyIfLabelled: true }, cursor: cursor(q1b, 3) }),
  );
  await step('commit again, same ms: a suggestion taken', () =>
    labels.commitLabel({ ...commit, label: 1, shownLabel: 1, suggestion: { label: 1, onlyIfLabelled: true } }),
  );
  await step('commit again, same ms: an old suggestion is no suggestion', () =>
    labels.commitLabel({
      ...commit,
      label: 2,
      conditions: [],
      aspects: [],
      suggestion: { label: 2, onlyIfLabelled: false },
    }),
  );
  await step('bob commits, adjudicated by judy', () =>
    labels.commitLabel({ ...commit, annotatorId: bob, label: 0, note: null, at: at(4) }),
  );
  await step('judy adjudicates', () =>
    labels.commitLabel({ ...commit, annotatorId: judy, label: 2, source: 'adjudicated', note: null, at: at(5) }),
  );
  await step('pair view, alice', () => labels.pairRecord(studyId, alice, q1a));
  await step('pair view, bob', () => labels.pairRecord(studyId, bob, q1a));
  await step('pair view: not a pair of the study', () => labels.pairRecord(studyId, alice, 9999));
  await queues('after commits');
  const latest = (await labels.pairRecord(studyId, alice, q1a)).mine!;
  await step('undo', () =>
    labels.retractLabel({
      studyId,
      judgmentId: latest.id,
      pairId: q1a,
      annotatorId: alice,
      at: at(6),
      cursor: cursor(q1a, 6),
    }),
  );
  await step('undo again: nothing', () =>
    labels.retractLabel({ studyId, judgmentId: latest.id, pairId: q1a, annotatorId: alice, at: at(7) }),
  );
  await step('pair view after undo', () => labels.pairRecord(studyId, alice, q1a));
  for (const j of (await rows.table(
    `SELECT id FROM judgment WHERE pair_id = ${q1a} AND annotator_id = ${alice} ORDER BY id`,
  )) as { id: number }[]) {
    await step(`undo ${j.id}`, () =>
      labels.retractLabel({ studyId, judgmentId: j.id, pairId: q1a, annotatorId: alice, at: at(8) }),
    );
  }
  await step('pair view after undoing everything', () => labels.pairRecord(studyId, alice, q1a));
  await step('commit after undoing everything', () => labels.commitLabel({ ...commit, at: at(1) }));
  await step('cursor after', () => labels.labelCursor(studyId, alice));
  await queues('after undo');
  await step('pair query', () => labels.pairQuery(studyId, pairId('q2', 'p#1')));
  await step('pair query: no query', () => labels.pairQuery(studyId, pairId('qx', 'a')));
  await step('pair query: no pair', () => labels.pairQuery(studyId, 9999));
  await step('document with chunks', () => labels.documentRecord(studyId, 'p#2'));
  await step('document', () => labels.documentRecord(studyId, 'a'));
  await step('no document', () => labels.documentRecord(studyId, 'zz'));
  await step('pairs not in the study', () => labels.pairsNotInStudy(studyId, [q1b, 9999, 1.5, q1a, 9999, -3, 2 ** 40]));
  for (const scope of scopes) {
    for (const pair of [q1a, q1b, pairId('Q3', 'c'), 9999]) {
      await step(`in scope ${JSON.stringify(scope)} ${pair}`, () => labels.inLabelScope(scope, pair));
    }
  }
  await step('add judgment', () =>
    labels.addJudgment({
      study: 's',
      qid: 'q1',
      docid: 'a',
      annotator: 'erin',
      label: 2,
      source: 'manual',
      rationale: 'why',
      shownLabel: 1,
      createdAt: new Date(at(9)),
    }),
  );
  await step('add judgment: new pair', () =>
    labels.addJudgment({
      study: 's',
      qid: 'q1',
      docid: 'new',
      annotator: 'erin',
      label: 0,
      source: 'imported',
      createdAt: new Date(at(9)),
    }),
  );
  await step('add judgment: off the scale', () =>
    labels.addJudgment({ study: 's', qid: 'q1', docid: 'a', annotator: 'erin', label: 7, source: 'manual' }),
  );
  await step('add judgment: no such study', () =>
    labels.addJudgment({ study: 'nope', qid: 'q1', docid: 'a', annotator: 'erin', label: 1, source: 'manual' }),
  );
  await step('pair view: no query', () => labels.pairRecord(studyId, alice, pairId('qx', 'a')));
  await step('pair view: no document', async () => {
    const [row] = (await rows.table("SELECT id FROM pair WHERE docid = 'new'")) as { id: number }[];
    return labels.pairRecord(studyId, alice, row!.id);
  });
  await step('pair view: a chunk, judged by the adjudicator', () =>
    labels.pairRecord(studyId, alice, pairId('Q3', 'c')),
  );
  await step('pair view: the adjudicator', () => labels.pairRecord(studyId, judy, q1a));
  await queues('at the end');
  for (const table of [
    'SELECT * FROM judgment ORDER BY id',
    'SELECT * FROM judgment_retraction ORDER BY judgment_id',
    'SELECT * FROM condition_judgment ORDER BY judgment_id, condition',
    'SELECT * FROM aspect_judgment ORDER BY judgment_id, aspect',
    'SELECT * FROM label_cursor ORDER BY study_id, annotator_id',
    'SELECT * FROM annotator ORDER BY id',
    'SELECT * FROM pair ORDER BY id',
  ]) {
    await step(table, () => rows.table(table));
  }
  return log;
}

test('the labelling port answers the same in SQLite and PostgreSQL, call for call (one record, copied)', async () => {
  const study = await labellingStudy(sharedOptions);
  await plant(
    study.store.labels,
    async (sql, parameters = []) => {
      const statement = study.db.prepare(sql.replaceAll(/\$\d+/g, '?'));
      if (statement.reader) return statement.all(...parameters);
      statement.run(...parameters);
      return [];
    },
    study.pairId,
  );
  const copy = await postgresCopy(study.db);
  pools.push(copy.pool);
  const sqliteRows: Rows = {
    annotatorId: async (name) =>
      (study.db.prepare('SELECT id FROM annotator WHERE name = ?').get(name) as { id: number }).id,
    table: async (sql) => study.db.prepare(sql).all(),
  };
  const postgresRows: Rows = {
    annotatorId: async (name) => {
      const { rows } = await copy.pool.query<{ id: number }>('SELECT id FROM annotator WHERE name = $1', [name]);
      if (rows[0] === undefined) throw new Error(`no annotator ${name}`);
      return rows[0].id;
    },
    table: async (sql) => (await copy.pool.query(sql)).rows,
  };
  const sqliteLog = await script(study.store.labels, sqliteRows, study.store.location, study.studyId, study.pairId);
  const postgresLog = await script(copy.labels, postgresRows, copy.context.location, study.studyId, study.pairId);
  for (const [i, [name, answer]] of sqliteLog.entries()) {
    assert.deepEqual(postgresLog[i], [name, answer], `step ${i}: ${name}`);
  }
  assert.equal(postgresLog.length, sqliteLog.length);
  if (process.env.SHOW_LOG) console.log(JSON.stringify(sqliteLog, null, 1));
  await study.close();
});

test('the labelling port answers the same in SQLite and PostgreSQL, call for call (each built through the port)', async () => {
  const logs: [string, unknown][][] = [];
  const folder = scratchDir('qrels-studio-pg-labels-'); // one study file for both (the synced model names it)
  for (const kind of storeKinds) {
    const study = await kindStudy(kind, sharedOptions, folder);
    const pairs = (await study.rows('SELECT id, qid, docid FROM pair')) as { id: number; qid: string; docid: string }[];
    const pairId = (qid: string, docid: string) => {
      const pair = pairs.find((p) => p.qid === qid && p.docid === docid);
      if (pair !== undefined) return pair.id;
      throw new Error(`no pair ${qid} ${docid}`);
    };
    await plant(study.store.labels, study.rows, pairId);
    pairs.push(...((await study.rows('SELECT id, qid, docid FROM pair')) as typeof pairs));
    const rows: Rows = {
      annotatorId: async (name) => {
        const [row] = (await study.rows('SELECT id FROM annotator WHERE name = $1', [name])) as { id: number }[];
        if (row === undefined) throw new Error(`no annotator ${name}`);
        return row.id;
      },
      table: (sql) => study.rows(sql),
    };
    logs.push(await script(study.store.labels, rows, study.store.location, study.studyId, pairId));
    await study.store.close();
  }
  const [sqliteLog, postgresLog] = logs as [[string, unknown][], [string, unknown][]];
  for (const [i, [name, answer]] of sqliteLog.entries()) {
    assert.deepEqual(postgresLog[i], [name, answer], `step ${i}: ${name}`);
  }
  assert.equal(postgresLog.length, sqliteLog.length);
});
