// The imports, agreement and exports areas of the storage port on both adapters (test/storeKinds.ts): one study file
// synced into a fresh store of each kind; then the same import files (queries, a corpus with chunks, a pooled run, TREC
// qrels, a long-format label file with people, an LLM judge, gold and adjudications, the qrels again, the qrels
// changed, a changed query file) go into each store through its ImportsPort. Each import's report is the same; every
// agreement read is the same; the exported qrels (every label source), label file and judgment history are the same
// byte for byte. A failing import (a label off the scale at line N, an id twice, answers the study does not take) and
// a cancelled one reject with the same positioned error on both and leave both records exactly as they were; the
// PostgreSQL import's connection is never left held, nor its staging tables.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mock, test } from 'node:test';
import type pg from 'pg';
import { parseStudyFile, resolveStudies } from '../../../../core/dsl/index.ts';
import type { LabelKind } from '../../../../core/dsl/model.ts';
import { readImport } from '../../../../core/importers/registry.ts';
import type { ImportTarget } from '../../../../core/importers/types.ts';
import { type AnswerRules, ImportCancelledError, type ImportReport } from '../../../../core/store/studyDatabase.ts';
import { exportJudgmentsJsonl, exportLabels, exportQrels } from '../../../../core/store/studyExports.ts';
import type { StudyStore } from '../../../../core/store/studyStore.ts';
import { scratchDir } from '../../../helpers.ts';
import { openTestStore } from '../../../storeKinds.ts';
import { studyText } from '../../labelling/labellingStudy.ts';

interface Stores {
  folder: string;
  studyId: number;
  sqlite: StudyStore;
  postgres: StudyStore;
  pool: pg.Pool;
  close(): Promise<void>;
}

/** A study file synced into a fresh store of each kind (test/storeKinds.ts). */
async function bothStores(extra = ''): Promise<Stores> {
  const folder = scratchDir('qrels-studio-pg-imports-');
  const studyFile = join(folder, 's.assess');
  const text = studyText({ extra: `  annotators alice bob carol\n${extra}` });
  writeFileSync(studyFile, text);
  const sqlite = await openTestStore('sqlite');
  const postgres = await openTestStore('postgres');
  const ids: number[] = [];
  for (const store of [sqlite, postgres] as StudyStore[]) {
    await store.studies.sync(resolveStudies(parseStudyFile(text), studyFile));
    ids.push(await store.studies.studyId('s'));
  }
  assert.equal(ids[1], ids[0]);
  return {
    folder,
    studyId: ids[0]!,
    sqlite,
    postgres,
    pool: postgres.pool,
    close: async () => {
      await sqlite.close();
      await postgres.close();
    },
  };
}

interface ImportFile {
  name: string;
  target: ImportTarget;
  content: string;
  annotator?: string;
  kind?: LabelKind;
}

/** Imports `files` (and a pool of `run`) into `store`, read by the real importers; the report, or the error. */
async function importInto(
  store: StudyStore,
  folder: string,
  files: ImportFile[],
  options: { run?: Record<string, string[]>; signal?: AbortSignal; answers?: AnswerRules } = {},
): Promise<ImportReport | Error> {
  for (const file of files) writeFileSync(join(folder, file.name), file.content);
  const pools = options.run
    ? [
        {
          run: { path: 'run.trec', tag: 'run', depth: 3 },
          queries: new Map(
            Object.entries(options.run).map(([qid, docids]) => [
              qid,
              docids.map((docid, i) => ({ docid, rank: i + 1 })),
            ]),
          ),
        },
      ]
    : [];
  try {
    return await store.imports.importBatch(
      's',
      files.map((file) => ({
        records: readImport(join(folder, file.name), {
          target: file.target,
          name: file.name,
          idsCheckedByCaller: true,
          format: { jsonl: 'jsonl', qrels: 'trec-qrels', csv: 'csv' }[file.name.split('.').pop() ?? ''] ?? 'jsonl',
          ...(file.annotator !== undefined && { annotator: file.annotator }),
        }),
        origin: {
          file: file.name,
          target: file.target,
          format: 'auto',
          ...(file.annotator !== undefined && { annotator: file.annotator }),
          ...(file.kind !== undefined && { kind: file.kind }),
        },
      })),
      pools,
      options.signal,
      options.answers,
    );
  } catch (error) {
    return error as Error;
  }
}

/** Everything the agreement and exports areas read of the study, and the exported files' bytes. */
async function record(store: StudyStore, studyId: number, folder: string, name: string) {
  const a = store.agreement;
  const files: Record<string, string> = {};
  const humans = await a.knownAnnotators(studyId, 'human');
  const judges = await a.knownAnnotators(studyId, 'llm');
  const sources = [
    'majority',
    'adjudicated',
    'adjudicated-else-majority',
    'mean:1',
    'human-else-llm',
    ...humans.map((h) => `annotator:${h}`),
    ...judges.map((j) => `judge:${j}`),
  ];
  for (const from of sources) {
    const file = join(folder, `${name}-${from.replace(/[^a-z0-9]/gi, '_')}.qrels`);
    try {
      await exportQrels(store, studyId, from, file);
      files[from] = readFileSync(file, 'utf8');
    } catch (error) {
      files[from] = `error: ${(error as Error).message}`;
    }
  }
  for (const [kind, write] of [
    ['labels', exportLabels],
    ['jsonl', exportJudgmentsJsonl],
  ] as const) {
    const file = join(folder, `${name}.${kind}`);
    await write(store, studyId, file);
    files[kind] = readFileSync(file, 'utf8');
  }
  const pairs = (await a.studyLabelRows(studyId)).map(([qid, docid]) => [qid, docid] as [string, string]);
  return {
    files,
    studyLabelRows: await a.studyLabelRows(studyId),
    humans,
    judges,
    alice: await a.annotatorLabels(studyId, 'alice'),
    majority: await a.majorityLabels(studyId),
    adjudicated: await a.adjudicatedLabels(studyId),
    mean: await a.peopleMeanLabels(studyId),
    adjudicatedPairs: await a.adjudicatedPairCount(studyId),
    pairCount: await a.pairCount(studyId),
    pairIds: await a.pairIds(studyId, [...pairs, ['q1', 'no-such-doc']]),
    chunkParents: await a.chunkParents(studyId),
    labelGivers: await a.labelGivers(studyId),
    queries: await a.evaluationQueries(studyId),
    currentLabels: await store.exports.currentLabels('s'),
    labelFileRows: await store.exports.labelFileRows(studyId, { answers: true }),
    history: await store.exports.judgmentHistory(studyId, { answers: true }),
    coverage: await store.imports.pooledNotInCorpus('s', ['run.trec', 'other.trec'], 2),
  };
}

const queriesFile = (changed = false) =>
  `${[
    { qid: 'q1', query: changed ? 'first query, reworded' : 'first query', instruction: 'find it' },
    { qid: 'q2', query: 'second\tquery with a tab and a \\ backslash' },
    { qid: 'Q0', query: 'an upper-case id sorts first bytewise' },
    ...(changed ? [{ qid: 'q3', query: 'a new query' }] : []),
  ]
    .map((q) => JSON.stringify(q))
    .join('\n')}\n`;

const corpusFile = `${[
  { docid: 'd1', text: 'doc one' },
  { docid: 'd2#1', text: 'chunk one of d2', parent: 'd2' },
  { docid: 'd2#2', text: 'chunk two of d2\nwith a second line', parent: 'd2' },
  { docid: 'é3', text: 'non-ASCII id' },
  { docid: 'D4', text: 'upper case' },
]
  .map((d) => JSON.stringify(d))
  .join('\n')}\n`;

const aliceQrels = 'q1 0 d1 2\nq1 0 d2#1 1\nq2 0 d1 0\nQ0 0 é3 1\nq2 0 d9 1\n';

const teamLabels = `query_id,doc_id,annotator,label,created_at,source
q1,d1,bob,1,2026-01-01T00:00:01.000Z,manual
q1,d1,carol,1,2026-01-01T00:00:02.000Z,manual
q1,d2#1,bob,2,2026-01-01T00:00:03.000Z,manual
q1,d2#1,bob,0,2026-01-01T00:00:04.000Z,manual
q2,d1,bob,2,2026-01-01T00:00:05.000Z,manual
q2,d1,carol,2,2026-01-01T00:00:05.000Z,manual
Q0,é3,carol,0,2026-01-01T00:00:06.000Z,manual
q1,d1,adj,2,2026-01-01T00:00:07.000Z,adjudicated
q1,d1,adj,1,2026-01-01T00:00:08.000Z,adjudicated
q1,D4,llm:gpt@0123abcd,2,2026-01-01T00:00:09.000Z,imported
q2,d2#2,llm:gpt@0123abcd,1,2026-01-01T00:00:10.000Z,imported
`;

const goldLabels = `query_id,doc_id,annotator,label,created_at,source
q1,d1,ref,0,2026-01-02T00:00:00.000Z,imported
q2,d2#2,ref,2,2026-01-02T00:00:00.000Z,imported
`;

test('the same import files give the same reports, reads and exported files on SQLite and PostgreSQL', async () => {
  // The import time that files without times are stamped with: the same on both.
  mock.timers.enable({ apis: ['Date'], now: new Date('2026-03-01T12:00:00.000Z') });
  const stores = await bothStores();
  try {
    const steps: { files: ImportFile[]; run?: Record<string, string[]> }[] = [
      {
        files: [
          { name: 'queries.jsonl', target: 'queries', content: queriesFile() },
          { name: 'corpus.jsonl', target: 'corpus', content: corpusFile },
        ],
        run: { q1: ['d1', 'd2#1', 'd5'], q2: ['d1', 'd2#2', 'd1'], Q0: ['é3'] },
      },
      { files: [{ name: 'alice.qrels', target: 'qrels', content: aliceQrels, annotator: 'alice' }] },
      {
        files: [
          { name: 'team.csv', target: 'labels', content: teamLabels },
          { name: 'gold.csv', target: 'labels', content: goldLabels, kind: 'gold' },
        ],
      },
      // Again: nothing new; then the qrels changed (one label), and a changed query file.
      { files: [{ name: 'alice.qrels', target: 'qrels', content: aliceQrels, annotator: 'alice' }] },
      {
        files: [
          {
            name: 'alice.qrels',
            target: 'qrels',
            content: aliceQrels.replace('q1 0 d1 2', 'q1 0 d1 1'),
            annotator: 'alice',
          },
        ],
      },
      { files: [{ name: 'queries2.jsonl', target: 'queries', content: queriesFile(true) }] },
    ];
    for (const [i, step] of steps.entries()) {
      const fromSqlite = await importInto(stores.sqlite, stores.folder, step.files, step);
      const fromPostgres = await importInto(stores.postgres, stores.folder, step.files, step);
      assert.ok(!(fromSqlite instanceof Error), `step ${i}: ${fromSqlite}`);
      assert.deepEqual(fromPostgres, fromSqlite, `step ${i}`);
      // Time moves on between imports (a changed label is later than the one it replaces).
      mock.timers.setTime(Date.now() + 60_000);
    }
    const sqliteRecord = await record(stores.sqlite, stores.studyId, stores.folder, 'sqlite');
    const postgresRecord = await record(stores.postgres, stores.studyId, stores.folder, 'postgres');
    assert.ok(
      sqliteRecord.majority.length > 0 && sqliteRecord.adjudicated.length > 0 && sqliteRecord.judges.length > 0,
    );
    for (const key of Object.keys(sqliteRecord) as (keyof typeof sqliteRecord)[]) {
      assert.deepEqual(postgresRecord[key], sqliteRecord[key], key);
    }
    assert.equal(stores.pool.totalCount - stores.pool.idleCount, 0, 'no connection held after the imports');
  } finally {
    mock.timers.reset();
    await stores.close();
  }
});

test('a failing or cancelled import leaves both records as they were, with the same positioned error', async () => {
  mock.timers.enable({ apis: ['Date'], now: new Date('2026-03-01T12:00:00.000Z') });
  const stores = await bothStores();
  try {
    const seed: ImportFile[] = [
      { name: 'queries.jsonl', target: 'queries', content: queriesFile() },
      { name: 'corpus.jsonl', target: 'corpus', content: corpusFile },
      { name: 'team.csv', target: 'labels', content: teamLabels },
    ];
    for (const store of [stores.sqlite, stores.postgres]) {
      assert.ok(!((await importInto(store, stores.folder, seed)) instanceof Error));
    }
    const before = {
      sqlite: await record(stores.sqlite, stores.studyId, stores.folder, 'sqlite-before'),
      postgres: await record(stores.postgres, stores.studyId, stores.folder, 'postgres-before'),
    };
    assert.deepEqual(before.postgres, before.sqlite);
    const failing: { name: string; files: ImportFile[]; message: RegExp; cancel?: boolean }[] = [
      {
        name: 'a label off the scale at line 4',
        files: [
          { name: 'queries3.jsonl', target: 'queries', content: queriesFile(true) },
          {
            name: 'bad.csv',
            target: 'labels',
            content:
              'query_id,doc_id,annotator,label,created_at\nq1,d1,dave,1,2026-02-01T00:00:00.000Z\nq2,d1,dave,2,2026-02-01T00:00:00.000Z\nq3,d1,dave,7,2026-02-01T00:00:00.000Z\nq3,d2#1,dave,9,2026-02-01T00:00:00.000Z\n',
          },
        ],
        message: /^bad\.csv:4(:\d+)?: label 7 is not on the scale of study 's' \(0, 1, 2\)$/,
      },
      {
        name: 'a document id twice',
        files: [
          {
            name: 'corpus2.jsonl',
            target: 'corpus',
            content: `${corpusFile}{"docid":"d9","text":"x"}\n{"docid":"d1","text":"again"}\n`,
          },
        ],
        message:
          /^corpus2\.jsonl:7(:\d+)?: expected a new document id, found 'd1' again \(first at corpus2\.jsonl:1(:\d+)?\)$/,
      },
      {
        name: 'a judgment twice',
        files: [
          {
            name: 'twice.csv',
            target: 'labels',
            content:
              'query_id,doc_id,annotator,label,created_at\nq1,d1,erin,1,2026-02-01T00:00:00.000Z\n' +
              'q1,d9,erin,1,2026-02-01T00:00:00.000Z\nq1,d1,erin,2,2026-02-01T00:00:00.000Z\n',
          },
        ],
        message:
          /^twice\.csv:4(:\d+)?: expected one judgment of document 'd1' for query 'q1' by erin at 2026-02-01T00:00:00\.000Z, found a second \(first at twice\.csv:2(:\d+)?\)$/,
      },
      {
        name: 'a query id twice',
        files: [
          {
            name: 'q.jsonl',
            target: 'queries',
            content: `${queriesFile()}${JSON.stringify({ qid: 'q2', query: 'x' })}\n`,
          },
        ],
        message: /^q\.jsonl:4(:\d+)?: expected a new query id, found 'q2' again \(first at line 2\)$/,
      },
      {
        name: 'cancelled',
        files: [{ name: 'queries4.jsonl', target: 'queries', content: queriesFile(true) }],
        message: /^import cancelled: nothing was written$/,
        cancel: true,
      },
    ];
    for (const failure of failing) {
      const errors: Error[] = [];
      for (const store of [stores.sqlite, stores.postgres]) {
        const controller = new AbortController();
        if (failure.cancel) controller.abort();
        const result = await importInto(store, stores.folder, failure.files, { signal: controller.signal });
        assert.ok(result instanceof Error, `${failure.name}: rejected`);
        errors.push(result);
      }
      const [fromSqlite, fromPostgres] = errors as [Error, Error];
      assert.match(fromSqlite.message, failure.message, failure.name);
      assert.equal(fromPostgres.message, fromSqlite.message, failure.name);
      assert.equal(fromPostgres.name, fromSqlite.name, failure.name);
      if (failure.cancel) assert.ok(fromPostgres instanceof ImportCancelledError);
      assert.deepEqual(
        await record(stores.sqlite, stores.studyId, stores.folder, 'sqlite-after'),
        before.sqlite,
        `${failure.name}: SQLite unchanged`,
      );
      assert.deepEqual(
        await record(stores.postgres, stores.studyId, stores.folder, 'postgres-after'),
        before.postgres,
        `${failure.name}: PostgreSQL unchanged`,
      );
    }
    // The failed imports' connections were closed, not handed back: none is held, none has staging tables.
    assert.equal(stores.pool.totalCount - stores.pool.idleCount, 0);
    // A failed or cancelled import ends its connection, and the server removes that session's TEMP tables as the
    // session's backend exits, a moment after the client has gone: wait for it (bounded), not for a fixed time.
    let staged = -1;
    for (let attempt = 0; attempt < 100 && staged !== 0; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 100));
      const { rows } = await stores.pool.query(
        "SELECT count(*)::integer AS n FROM pg_class WHERE relpersistence = 't' AND relname LIKE 'staged_%'",
      );
      staged = rows[0].n;
    }
    assert.equal(staged, 0);
  } finally {
    mock.timers.reset();
    await stores.close();
  }
});

test('label files with condition ticks and aspect answers: stored, checked and exported the same on both', async () => {
  mock.timers.enable({ apis: ['Date'], now: new Date('2026-03-01T12:00:00.000Z') });
  const stores = await bothStores(
    '  conditions from instruction\n  aspect topical "On topic?"\n  aspect coverage "Coverage" levels 0 1 2\n',
  );
  const answers: AnswerRules = {
    conditionCount: (query) => (query.instruction?.match(/\d+\./g) ?? []).length,
    aspects: new Map<string, readonly number[] | undefined>([
      ['topical', undefined],
      ['coverage', [0, 1, 2]],
    ]),
  };
  try {
    const queries = `${JSON.stringify({ qid: 'q1', query: 'medals', instruction: '1. after 2000 2. in Europe' })}\n${JSON.stringify({ qid: 'q2', query: 'rivers', instruction: '1. long' })}\n`;
    const label = (qid: string, docid: string, at: string, conditions: boolean[], aspects: Record<string, unknown>) =>
      JSON.stringify({
        query_id: qid,
        doc_id: docid,
        annotator: 'alice',
        label: 1,
        created_at: at,
        conditions,
        aspects,
      });
    const good = [
      label('q1', 'd1', '2026-01-01T00:00:01.000Z', [true, false], { topical: true, coverage: 2 }),
      label('q1', 'd1', '2026-01-01T00:00:02.000Z', [true, true], { topical: false, coverage: 0 }),
      label('q2', 'd1', '2026-01-01T00:00:03.000Z', [false], { coverage: 1 }),
    ].join('\n');
    const seed: ImportFile[] = [
      { name: 'queries.jsonl', target: 'queries', content: queries },
      { name: 'answers.jsonl', target: 'labels', content: `${good}\n` },
    ];
    const reports = [];
    for (const store of [stores.sqlite, stores.postgres]) {
      reports.push(await importInto(store, stores.folder, seed, { answers }));
    }
    assert.ok(!(reports[0] instanceof Error), String(reports[0]));
    assert.deepEqual(reports[1], reports[0]);
    const sqliteRecord = await record(stores.sqlite, stores.studyId, stores.folder, 'sqlite');
    const postgresRecord = await record(stores.postgres, stores.studyId, stores.folder, 'postgres');
    assert.deepEqual(sqliteRecord.history[1]?.answers, {
      conditions: [
        [1, 1],
        [2, 1],
      ],
      aspects: [
        ['coverage', 0],
        ['topical', 0],
      ],
    });
    assert.deepEqual(postgresRecord, sqliteRecord);
    for (const [content, message] of [
      [
        label('q1', 'd2', '2026-01-01T00:00:04.000Z', [true], {}),
        /^bad\.jsonl:1(:\d+)?: expected 2 condition answers for query 'q1', found 1$/,
      ],
      [
        label('q2', 'd2', '2026-01-01T00:00:04.000Z', [], { coverage: 5 }),
        /expected aspect 'coverage' to be one of its levels \(0, 1, 2\), found 5$/,
      ],
      [
        label('q2', 'd2', '2026-01-01T00:00:04.000Z', [], { tone: true }),
        /expected an aspect of study 's' \(topical, coverage\), found 'tone'$/,
      ],
    ] as const) {
      const errors: Error[] = [];
      for (const store of [stores.sqlite, stores.postgres]) {
        const result = await importInto(
          store,
          stores.folder,
          [{ name: 'bad.jsonl', target: 'labels', content: `${content}\n` }],
          {
            answers,
          },
        );
        assert.ok(result instanceof Error);
        errors.push(result);
      }
      assert.match(errors[0]!.message, message);
      assert.equal(errors[1]!.message, errors[0]!.message);
      assert.deepEqual(await record(stores.postgres, stores.studyId, stores.folder, 'postgres-after'), postgresRecord);
    }
  } finally {
    mock.timers.reset();
    await stores.close();
  }
});

test('a large import cancelled or failing mid-stream (after batches were COPYed) writes nothing on either store', async () => {
  const stores = await bothStores();
  try {
    const documents = (count: number) =>
      Array.from({ length: count }, (_, i) =>
        JSON.stringify({ docid: `doc-${i}`, text: `body ${i}\twith a tab` }),
      ).join('\n');
    // An importer's error at line 25,001, after two batches went into the staging.
    writeFileSync(join(stores.folder, 'broken.jsonl'), `${documents(25_000)}\n{"docid": "x", "text": \n`);
    const read = () =>
      readImport(join(stores.folder, 'broken.jsonl'), {
        target: 'corpus',
        name: 'broken.jsonl',
        format: 'jsonl',
        idsCheckedByCaller: true,
      });
    const origin = { file: 'broken.jsonl', target: 'corpus', format: 'jsonl' };
    const messages: string[] = [];
    for (const store of [stores.sqlite, stores.postgres]) {
      const error = await store.imports.importBatch('s', [{ records: read(), origin }]).catch((e: Error) => e);
      assert.ok(error instanceof Error);
      messages.push(error.message);
      // Cancelled while the records stream: after 15,000 of them.
      const controller = new AbortController();
      let seen = 0;
      async function* cancelling() {
        for await (const record of read()) {
          if (++seen === 15_000) controller.abort();
          yield record;
        }
      }
      await assert.rejects(
        store.imports.importBatch('s', [{ records: cancelling(), origin }], [], controller.signal),
        ImportCancelledError,
      );
      // Nothing of either import is in the study: its corpus is still empty.
      assert.equal((await store.imports.pooledNotInCorpus('s', ['r']))[0]?.corpusSize, 0);
    }
    assert.match(messages[0]!, /^broken\.jsonl:25001/);
    assert.equal(messages[1], messages[0]);
    // The study's name is checked first, with the same message but for where the record is.
    const unknown: string[] = [];
    for (const store of [stores.sqlite, stores.postgres]) {
      const error = await store.imports.importBatch('nope', []).catch((e: Error) => e);
      assert.ok(error instanceof Error);
      unknown.push(error.message.replace(store.location, 'LOCATION'));
    }
    assert.equal(unknown[1], unknown[0]);
    assert.equal(stores.pool.totalCount - stores.pool.idleCount, 0);
    // A failed or cancelled import ends its connection, and the server removes that session's TEMP tables as the
    // session's backend exits, a moment after the client has gone: wait for it (bounded), not for a fixed time.
    let staged = -1;
    for (let attempt = 0; attempt < 100 && staged !== 0; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 100));
      const { rows } = await stores.pool.query(
        "SELECT count(*)::integer AS n FROM pg_class WHERE relpersistence = 't' AND relname LIKE 'staged_%'",
      );
      staged = rows[0].n;
    }
    assert.equal(staged, 0);
  } finally {
    await stores.close();
  }
});

test('PostgreSQL: two imports into one study at once both commit, one after the other, nothing lost or doubled', async () => {
  const stores = await bothStores();
  try {
    const queries = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, i) => JSON.stringify({ qid: `q${from + i}`, query: `query ${from + i}` }))
        .join('\n')
        .concat('\n');
    const labels = (name: string) =>
      `query_id,doc_id,annotator,label,created_at\n${Array.from(
        { length: 300 },
        (_, i) =>
          `q${i},d${i % 7},${name},${i % 3},2026-01-01T00:00:${String(i % 60).padStart(2, '0')}.${String(i).padStart(3, '0')}Z`,
      ).join('\n')}\n`;
    const reports = await Promise.all(
      (['one', 'two'] as const).map((name, i) =>
        importInto(stores.postgres, stores.folder, [
          { name: `queries-${name}.jsonl`, target: 'queries', content: queries(i * 100, i * 100 + 200) },
          { name: `${name}.csv`, target: 'labels', content: labels(name) },
        ]),
      ),
    );
    for (const report of reports) assert.ok(!(report instanceof Error), String(report));
    const [one, two] = reports as ImportReport[];
    // The 100 queries both files hold are added by whichever committed first, and unchanged for the other.
    assert.equal(one!.queries.added + two!.queries.added, 300);
    assert.equal(one!.queries.unchanged + two!.queries.unchanged, 100);
    assert.equal(one!.judgments.added + two!.judgments.added, 600);
    assert.equal((await stores.postgres.agreement.evaluationQueries(stores.studyId)).length, 300);
    assert.equal((await stores.postgres.exports.currentLabels('s')).length, 600);
    assert.deepEqual(await stores.postgres.agreement.knownAnnotators(stores.studyId, 'human'), ['one', 'two']);
  } finally {
    await stores.close();
  }
});
