// `qrels-studio store copy` (issue 21 item 3): a study's whole record moved SQLite → PostgreSQL → a fresh SQLite
// file, through the CLI (in process, the connection from libpq's PG* variables as a user sets them): every table's
// rows the same after each hop, ids included, and the exports (qrels, label file with answers, judgment JSONL) byte
// for byte the same from each store; a copy into a store that holds a record is refused and changes nothing; a copy
// that fails half-way (a row the target refuses) leaves the target as it was.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import pg from 'pg';
import { parseStudyFile, resolveStudies } from '../../core/dsl/index.ts';
import { importReviewItems, ReviewSession } from '../../core/review/reviewSession.ts';
import { SqliteStudyStore } from '../../core/store/sqlite/sqliteStudyStore.ts';
import { openDatabase } from '../../core/store/sqliteDatabase.ts';
import { studyDatabasePath } from '../../core/store/studyDatabase.ts';
import { labellingStudy, nativeBinding } from '../core/labelling/labellingStudy.ts';
import { verdictOn } from '../core/review/reviewStudy.ts';
import { testDatabase } from '../pg/pgCluster.ts';
import { cliInProcess, useDatabaseForCli } from './inProcessCli.ts';

const cli = cliInProcess;

/** Every table's rows of a SQLite record, each table's in a fixed order (schema_version aside). */
function sqliteRows(file: string): Record<string, unknown[]> {
  const db = openDatabase(file, { nativeBinding });
  try {
    const tables = db
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
      .pluck()
      .all() as string[];
    return Object.fromEntries(
      tables.map((t) => {
        const columns = db.prepare('SELECT name FROM pragma_table_info(?) ORDER BY cid').pluck().all(t) as string[];
        const order = columns.map((_, i) => i + 1).join(', ');
        return [
          t,
          db
            .prepare(`SELECT ${columns.map((c) => `"${c}"`).join(', ')} FROM "${t}" ORDER BY ${order}`)
            .raw()
            .all(),
        ];
      }),
    );
  } finally {
    db.close();
  }
}

async function postgresRows(config: pg.ClientConfig): Promise<Record<string, unknown[]>> {
  const client = new pg.Client(config);
  await client.connect();
  try {
    const tables = (
      await client.query<{ name: string }>(
        "SELECT relname AS name FROM pg_class WHERE relnamespace = current_schema()::regnamespace AND relkind = 'r' AND relname <> 'schema_version' ORDER BY relname COLLATE \"C\"",
      )
    ).rows.map((r) => r.name);
    const result: Record<string, unknown[]> = {};
    for (const t of tables) {
      const columns = (
        await client.query<{ name: string }>(
          'SELECT attname AS name FROM pg_attribute WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum',
          [t],
        )
      ).rows.map((r) => r.name);
      const order = columns.map((_, i) => i + 1).join(', ');
      const { rows } = await client.query({
        text: `SELECT ${columns.map((c) => `"${c}"`).join(', ')} FROM "${t}" ORDER BY ${order}`,
        rowMode: 'array',
      });
      result[t] = rows;
    }
    return result;
  } finally {
    await client.end();
  }
}

/** The three exports, read back. */
async function exports(folder: string): Promise<Record<string, string>> {
  const result = await cli(
    folder,
    'export',
    's.assess',
    '--qrels',
    'out.qrels',
    '--from',
    'annotator:alice',
    '--labels',
    'out.labels',
    '--jsonl',
    'out.jsonl',
    '--with-answers',
  );
  assert.equal(result.status, 0, result.stderr);
  return Object.fromEntries(
    ['out.qrels', 'out.labels', 'out.jsonl'].map((f) => [f, readFileSync(join(folder, f), 'utf8')]),
  );
}

async function labelledStudy() {
  const study = await labellingStudy({
    queries: [
      { qid: 'q1', text: 'medal tables', instruction: 'a table; with totals' },
      { qid: 'q2', text: 'rivers', instruction: 'in Europe; longer than 100 km' },
    ],
    documents: [
      { docid: 'd1', body: 'medals' },
      { docid: 'd1#1', body: 'first chunk', parent: 'd1' },
      { docid: 'd1#2', body: 'second chunk', parent: 'd1' },
      { docid: 'd2', body: 'rivers' },
      { docid: 'd3', body: 'lakes' },
    ],
    ranking: { q1: ['d1#1', 'd1#2', 'd2'], q2: ['d2', 'd3'] },
    extra: '  aspect topical "On topic?"\n  aspect complete "Complete?"\n  conditions from instruction',
  });
  let now = Date.parse('2026-02-03T04:05:06.000Z');
  const clock = () => {
    now += 1000;
    return new Date(now);
  };
  for (const [annotator, labels] of [
    ['alice', [2, 1, 0, 1, 2]],
    ['bob', [1, 1, 2]],
  ] as const) {
    const session = await study.session(annotator, clock);
    for (const [position, label] of labels.entries()) {
      const version = session.state().queue.version;
      const pair = (await session.pairAt(position, version, false))!;
      await session.commit({
        position,
        pairId: pair.pairId,
        label,
        queueVersion: version,
        conditions: [label > 0, position % 2 === 0],
        aspects: { topical: label > 0, complete: position === 1 },
        note: `note ${annotator} ${position}`,
      });
    }
    // A label taken back (a retraction), and one given again.
    await session.undo();
  }
  const judgeName = 'llm:judge-a@0123abcd';
  const pairId = study.pairId('q1', 'd1#1');
  const callId = await study.store.judge.recordCall(
    {
      cacheKey: 'k1',
      request: {
        endpoint: 'http://127.0.0.1:1/v1',
        model: 'judge-a',
        parameters: '{"temperature":0}',
        promptHash: 'ph',
        voteIndex: 0,
      },
      promptTemplateHash: 'th',
      studyId: study.studyId,
      pairId,
      judge: judgeName,
      rawOutput: '{"label": 2}',
      parsedLabel: 2,
      rationale: 'a table with totals',
      inputTokens: 120,
      outputTokens: 9,
      latencyMs: 12.6,
      attempts: 1,
      cost: 0.000123,
      createdAt: '2026-03-04T05:06:07.000Z',
    },
    {
      pairId,
      judge: judgeName,
      label: 2,
      callId: null,
      votes: [{ voteIndex: 0, callId: null, label: 2 }],
      createdAt: '2026-03-04T05:06:07.000Z',
    },
  );
  assert.ok(callId > 0);
  // A review block of the same file: items, and verdicts by two reviewers.
  writeFileSync(
    join(study.folder, 'items.jsonl'),
    '{"iid": "i1", "text": "Find medal tables.", "type": "C1"}\n{"iid": "i2", "text": "Find rivers.", "type": "S1"}\n',
  );
  const withReview = `${readFileSync(study.studyFile, 'utf8')}
review "gen" {
  items "items.jsonl" { id: iid  text: text  type: type }
  annotators alice bob
}
`;
  writeFileSync(study.studyFile, withReview);
  const model = resolveStudies(parseStudyFile(withReview), study.studyFile);
  await study.store.studies.sync(model);
  const review = model.reviews[0]!;
  await importReviewItems(study.store, review, study.folder);
  for (const annotator of ['alice', 'bob']) {
    const session = await ReviewSession.open(study.store, { studyFile: study.studyFile, review, annotator });
    await verdictOn(session, 0, { verdict: 'accept' });
    await verdictOn(session, 1, { verdict: annotator === 'alice' ? 'accept' : 'reject', reason: 'vague' });
  }
  // The files the study file names (its linter asks for them; the record is already imported).
  writeFileSync(
    join(study.folder, 'queries.jsonl'),
    '{"qid": "q1", "query": "medal tables", "instr": "a table; with totals"}\n',
  );
  writeFileSync(join(study.folder, 'corpus.jsonl'), '{"docid": "d1", "text": "medals"}\n');
  writeFileSync(join(study.folder, 'run.trec'), 'q1 Q0 d1 1 1.0 run\n');
  return study;
}

test('store copy: SQLite → PostgreSQL → a fresh SQLite file keeps every row and every export byte for byte', async () => {
  const database = await testDatabase();
  useDatabaseForCli(database);
  const study = await labelledStudy();
  await study.close();
  const folder = study.folder;
  const sqliteFile = studyDatabasePath(study.studyFile);
  const studyText = readFileSync(study.studyFile, 'utf8');

  const before = await exports(folder);
  assert.match(before['out.labels']!, /alice/);
  const rows = sqliteRows(sqliteFile);
  for (const table of [
    'judgment',
    'judgment_retraction',
    'suggestion',
    'llm_call',
    'label_cursor',
    'review_item',
    'review_verdict',
    'condition_judgment',
    'aspect_judgment',
  ]) {
    assert.ok((rows[table] ?? []).length > 0, `the study has ${table} rows`);
  }

  // Usage errors, positioned.
  assert.match((await cli(folder, 'store', 'copy', 's.assess')).stderr, /no target: --to postgres or --to sqlite/);
  assert.match(
    (await cli(folder, 'store', 'copy', 's.assess', '--to', 'mysql')).stderr,
    /--to takes postgres or sqlite, found 'mysql'/,
  );
  assert.match(
    (await cli(folder, 'store', 'copy', 's.assess', '--to', 'postgres')).stderr,
    /name the target store with --store NAME/,
  );
  assert.match(
    (await cli(folder, 'store', 'copy', 's.assess', '--to', 'sqlite')).stderr,
    /already uses the SQLite file next to it/,
  );
  assert.match((await cli(folder, 'store', 'move', 's.assess')).stderr, /unknown action 'move'/);

  // Hop 1: SQLite → PostgreSQL.
  const first = await cli(folder, 'store', 'copy', 's.assess', '--to', 'postgres', '--store', 'team');
  assert.equal(first.status, 0, first.stderr);
  assert.match(first.stdout, /copied .*s\.sqlite to postgres:team: \d+ rows in \d+ tables/);
  assert.deepEqual(await postgresRows(database), rows);
  const client = new pg.Client(database);
  await client.connect();
  try {
    for (const table of ['study', 'judgment', 'llm_call', 'review_verdict']) {
      const { rows: next } = await client.query<{ next: number; max: number }>(
        `SELECT (SELECT MAX(id) FROM ${table}) AS max, nextval(pg_get_serial_sequence('${table}', 'id'))::integer AS next`,
      );
      assert.equal(next[0]!.next, next[0]!.max + 1, `${table}'s identity goes on after the copied ids`);
      await client.query(`SELECT setval(pg_get_serial_sequence('${table}', 'id'), $1, false)`, [next[0]!.max + 1]);
    }
  } finally {
    await client.end();
  }

  // Into a store that holds a record: refused, nothing changed.
  const again = await cli(folder, 'store', 'copy', 's.assess', '--to', 'postgres', '--store', 'team');
  assert.equal(again.status, 1);
  assert.match(
    again.stderr,
    /postgres:team already holds a record \(studies 's', 'gen'\) — rows: .*judgment \d+.*nothing was copied/,
  );
  assert.deepEqual(await postgresRows(database), rows);

  // The study file now says where its record is; the exports from PostgreSQL are the same bytes.
  writeFileSync(study.studyFile, `store postgres "team"\n\n${studyText}`);
  rmSync(sqliteFile);
  assert.deepEqual(await exports(folder), before);
  const onPostgres = await postgresRows(database);

  // Hop 2: PostgreSQL → the (fresh) SQLite file next to the study.
  const second = await cli(folder, 'store', 'copy', 's.assess', '--to', 'sqlite');
  assert.equal(second.status, 0, second.stderr);
  assert.deepEqual(sqliteRows(sqliteFile), onPostgres);
  const refused = await cli(folder, 'store', 'copy', 's.assess', '--to', 'sqlite');
  assert.equal(refused.status, 1);
  assert.match(refused.stderr, /s\.sqlite already holds a record \(studies 's', 'gen'\)/);
  assert.deepEqual(sqliteRows(sqliteFile), onPostgres);
  writeFileSync(study.studyFile, studyText);
  assert.deepEqual(await exports(folder), before);

  // The copied identities go on after the copied ids: a new label gets the next id, as in SQLite.
  const store = await SqliteStudyStore.open(sqliteFile, { nativeBinding });
  await store.close();
  assert.equal(existsSync(`${sqliteFile}.copy-${process.pid}.tmp`), false);
});

test('store copy: a copy that fails half-way leaves the PostgreSQL target empty', async () => {
  const database = await testDatabase();
  useDatabaseForCli(database);
  const study = await labelledStudy();
  await study.close();
  // The target refuses a row the copy reaches after many others: a planted constraint on judgments.
  const client = new pg.Client(database);
  await client.connect();
  try {
    // The schema is made by the first open; the copy then meets a constraint the SQLite record breaks.
    const { PostgresStudyStore } = await import('../../core/store/postgres/postgresStudyStore.ts');
    await (await PostgresStudyStore.open({ connection: database })).close();
    await client.query('ALTER TABLE judgment ADD CONSTRAINT planted CHECK (label < 2)');
    const result = await cli(study.folder, 'store', 'copy', 's.assess', '--to', 'postgres', '--store', 'team');
    assert.equal(result.status, 1, result.stdout);
    assert.match(result.stderr, /planted/);
    const counts = await client.query<{ n: number }>(
      'SELECT (SELECT COUNT(*) FROM study) + (SELECT COUNT(*) FROM query) + (SELECT COUNT(*) FROM pair) + (SELECT COUNT(*) FROM judgment) AS n',
    );
    assert.equal(Number(counts.rows[0]!.n), 0);
    const ids = await client.query<{ id: number }>(
      "SELECT nextval(pg_get_serial_sequence('study', 'id'))::integer AS id",
    );
    assert.equal(ids.rows[0]!.id, 1, 'the identity not moved either');
  } finally {
    await client.end();
  }
});

test('store copy: a copy to SQLite that fails half-way leaves no file behind (the temporary file removed)', async () => {
  const database = await testDatabase();
  useDatabaseForCli(database);
  const study = await labelledStudy();
  await study.close();
  const sqliteFile = studyDatabasePath(study.studyFile);
  const first = await cli(study.folder, 'store', 'copy', 's.assess', '--to', 'postgres', '--store', 'team');
  assert.equal(first.status, 0, first.stderr);
  writeFileSync(study.studyFile, `store postgres "team"\n\n${readFileSync(study.studyFile, 'utf8')}`);
  rmSync(sqliteFile);
  // A row SQLite's schema refuses, met after most tables were written: a judge call's vote index below 0.
  const client = new pg.Client(database);
  await client.connect();
  try {
    await client.query('ALTER TABLE llm_call DROP CONSTRAINT llm_call_vote_index_check');
    await client.query('UPDATE llm_call SET vote_index = -1');
  } finally {
    await client.end();
  }
  const result = await cli(study.folder, 'store', 'copy', 's.assess', '--to', 'sqlite');
  assert.equal(result.status, 1, result.stdout);
  assert.match(
    result.stderr,
    /copying postgres:team to .*s\.sqlite failed at table llm_call: CHECK constraint failed.*nothing was copied/,
  );
  assert.equal(existsSync(sqliteFile), false);
  assert.deepEqual(
    readdirSync(dirname(sqliteFile)).filter((f) => f.includes('.tmp')),
    [],
  );
});
