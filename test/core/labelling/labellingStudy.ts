// A small real study for the labelling tests: a study file in a scratch folder, its store (the storage port, of either
// kind — test/storeKinds.ts: SQLite by default, or PostgreSQL in a fresh database of the run's cluster) synced from it,
// and queries, documents and a pooled run imported through the store's importBatch (the path every import takes).
// `rows` reads (or plants) rows through a second connection to the same record, for tests that look at the rows
// themselves — SQL both dialects run, `?` parameters; `db` is that connection for SQLite only.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { parseStudyFile, resolveStudies } from '../../../core/dsl/index.ts';
import type { StudyModel } from '../../../core/dsl/model.ts';
import type { ImportedRecord } from '../../../core/importers/types.ts';
import { LabelSession } from '../../../core/labelling/labelSession.ts';
import { postgresTypes } from '../../../core/store/postgres/postgresContext.ts';
import { locateNativeBinding, openDatabase, type SqliteDatabase } from '../../../core/store/sqliteDatabase.ts';
import { studyDatabasePath } from '../../../core/store/studyDatabase.ts';
import { nativeDir, scratchDir } from '../../helpers.ts';
import { openTestStore, type StoreKind, type TestStore } from '../../storeKinds.ts';

export const nativeBinding = locateNativeBinding(nativeDir);

export interface FixtureQuery {
  qid: string;
  text: string;
  instruction?: string;
  metadata?: Record<string, unknown>;
}

export interface FixtureDocument {
  docid: string;
  body: string;
  title?: string;
  parent?: string;
}

export interface LabellingStudyOptions {
  queries: FixtureQuery[];
  documents: FixtureDocument[];
  /** qid → docids in rank order: one run, pooled to the longest list. */
  ranking: Record<string, string[]>;
  /** Statements inside the study block (annotators, blind, aspects, conditions, …). */
  extra?: string;
  /** Written as guidelines.md and declared, when given. */
  guidelines?: string;
}

// biome-ignore lint/suspicious/noExplicitAny: rows of any table, as the tests read them
type Row = Record<string, any>;

export interface LabellingStudy<K extends StoreKind = StoreKind> {
  kind: K;
  folder: string;
  studyFile: string;
  study: StudyModel;
  store: TestStore<K>;
  /** SQLite: a second connection to the study's database file (undefined for PostgreSQL: use `rows`). */
  db: K extends 'sqlite' ? SqliteDatabase : undefined;
  /**
   * Runs `sql` (both dialects' SQL, `?` parameters in order) through a second connection to the record and returns
   * its rows (none for a statement that returns none): what tests read, and plant, as rows.
   */
  rows(sql: string, ...parameters: unknown[]): Promise<Row[]>;
  /** The first column of the first row of `sql` (undefined when it has none). */
  value(sql: string, ...parameters: unknown[]): Promise<unknown>;
  /** A second store on the same record (as another process or machine opens it); the caller closes it. */
  reopen(): Promise<TestStore<K>>;
  studyId: number;
  session(annotator: string, now?: () => Date): Promise<LabelSession>;
  /** The pair id of (qid, docid) (PostgreSQL: of the pairs pooled so far through `pool`). */
  pairId(qid: string, docid: string): number;
  /** Pools a run of `ranking` again (a deeper pool adds pairs). */
  pool(ranking: Record<string, string[]>, path?: string): Promise<void>;
  close(): Promise<void>;
}

async function* records(list: ImportedRecord[]): AsyncIterable<ImportedRecord> {
  yield* list;
}

export function studyText(options: Pick<LabellingStudyOptions, 'extra' | 'guidelines'>): string {
  return `study "s" {
  title "Labelling test"
${options.guidelines !== undefined ? '  guidelines "guidelines.md"\n' : ''}  queries "queries.jsonl" { id: qid  text: query  instruction: instr }
  corpus  "corpus.jsonl"  { id: docid  body: text }
  pool    "run.trec" depth 10
  scale ordinal {
    0 "Not relevant"  key "0"
    1 "Relevant"      key "1"
    2 "Highly"        key "2"
  }
${options.extra ?? ''}
}
`;
}

/** The fixture's queries and documents as an importer gives them (positions `fixture:N`). */
export function fixtureRecords(options: Pick<LabellingStudyOptions, 'queries' | 'documents'>): ImportedRecord[] {
  const at = (line: number) => ({ file: 'fixture', line });
  return [
    ...options.queries.map(
      (q, i): ImportedRecord => ({
        kind: 'query',
        qid: q.qid,
        text: q.text,
        ...(q.instruction !== undefined && { instruction: q.instruction }),
        metadata: q.metadata ?? {},
        at: at(i + 1),
      }),
    ),
    ...options.documents.map(
      (d, i): ImportedRecord => ({
        kind: 'document',
        docid: d.docid,
        body: d.body,
        ...(d.title !== undefined && { title: d.title }),
        ...(d.parent !== undefined && { parent: d.parent }),
        format: 'plain',
        metadata: {},
        at: at(i + 1),
      }),
    ),
  ];
}

export async function labellingStudy<K extends StoreKind = 'sqlite'>(
  options: LabellingStudyOptions,
  kind: K = 'sqlite' as K,
): Promise<LabellingStudy<K>> {
  const folder = scratchDir('qrels-studio-labelling-');
  const studyFile = join(folder, 's.assess');
  const text = studyText(options);
  writeFileSync(studyFile, text);
  if (options.guidelines !== undefined) writeFileSync(join(folder, 'guidelines.md'), options.guidelines);
  const study = resolveStudies(parseStudyFile(text), studyFile).studies[0]!;
  const store = await openTestStore(kind, { file: studyDatabasePath(studyFile) });
  await store.studies.sync(resolveStudies(parseStudyFile(text), studyFile));
  const sqlite = kind === 'sqlite' ? openDatabase(studyDatabasePath(studyFile), { nativeBinding }) : undefined;
  const postgres =
    kind === 'postgres'
      ? new pg.Pool({ ...(store as TestStore<'postgres'>).connection, max: 1, types: postgresTypes })
      : undefined;
  const rows = async (sql: string, ...parameters: unknown[]): Promise<Row[]> => {
    if (sqlite !== undefined) {
      const statement = sqlite.prepare(sql);
      if (statement.reader) return statement.all(...parameters) as Row[];
      statement.run(...parameters);
      return [];
    }
    let n = 0;
    return (
      await postgres!.query(
        sql.replaceAll('?', () => `$${++n}`),
        parameters,
      )
    ).rows;
  };
  const value = async (sql: string, ...parameters: unknown[]) => {
    const [first] = await rows(sql, ...parameters);
    return first === undefined ? undefined : Object.values(first)[0];
  };
  const imported = fixtureRecords(options);
  await store.imports.importBatch('s', [
    { records: records(imported), origin: { file: 'fixture', target: 'x', format: 'x' } },
  ]);
  const studyId = await store.studies.studyId('s');
  const pairIds = new Map<string, number>();
  const pool = async (ranking: Record<string, string[]>, path = 'run.trec') => {
    const queries = new Map(
      Object.entries(ranking).map(([qid, docids]) => [qid, docids.map((docid, i) => ({ docid, rank: i + 1 }))]),
    );
    const depth = Math.max(1, ...Object.values(ranking).map((docids) => docids.length));
    await store.imports.addPool('s', { run: { path, tag: 'run', depth }, queries });
    if (postgres === undefined) return;
    for (const pair of await rows('SELECT id, qid, docid FROM pair WHERE study_id = ?', studyId)) {
      pairIds.set(`${pair.qid}\u0000${pair.docid}`, pair.id);
    }
  };
  await pool(options.ranking);
  return {
    kind,
    folder,
    studyFile,
    study,
    store,
    db: sqlite as LabellingStudy<K>['db'],
    rows,
    value,
    reopen: () =>
      kind === 'sqlite'
        ? openTestStore(kind, { file: studyDatabasePath(studyFile) })
        : openTestStore(kind, {
            connection: (store as TestStore<'postgres'>).connection,
            location: store.location,
          }),
    studyId,
    session: (annotator, now) => LabelSession.open(store, { studyFile, study, annotator, ...(now && { now }) }),
    pairId: (qid, docid) =>
      sqlite !== undefined
        ? (sqlite
            .prepare('SELECT id FROM pair WHERE study_id = ? AND qid = ? AND docid = ?')
            .pluck()
            .get(studyId, qid, docid) as number)
        : (pairIds.get(`${qid}\u0000${docid}`) as number),
    pool,
    close: async () => {
      sqlite?.close();
      await postgres?.end();
      await store.close();
    },
  };
}

/** `queries` queries q1… with `perQuery` documents each (d<q>-<n>, ranked in that order). */
export function plainStudy(queries: number, perQuery: number): Omit<LabellingStudyOptions, 'extra'> {
  const result: Omit<LabellingStudyOptions, 'extra'> = { queries: [], documents: [], ranking: {} };
  for (let q = 1; q <= queries; q++) {
    result.queries.push({ qid: `q${q}`, text: `query ${q}` });
    result.ranking[`q${q}`] = [];
    for (let d = 1; d <= perQuery; d++) {
      result.documents.push({ docid: `d${q}-${d}`, body: `document ${d} for query ${q}` });
      result.ranking[`q${q}`]!.push(`d${q}-${d}`);
    }
  }
  return result;
}
