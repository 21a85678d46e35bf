// The SQLite adapter's record object: one SQLite file next to the study file (`wqt-dev.assess` →
// `.qrels-studio/wqt-dev.sqlite`) holding its studies, queries, documents, runs, pairs and judgments, opened and
// migrated here; its study-level writes (sync, judgments, imports and pools), one transaction per action. Internal to
// the adapter (core/store/sqlite/): features ask the storage port (core/store/studyStore.ts).
//
// Imports are all-or-nothing without holding the database's write lock while a file is read: records are first
// streamed into staging tables (in a private temporary database the connection attaches, so no lock on the study database
// is taken), checked there, and then moved into the study's tables by a few INSERT … SELECT statements in one
// short IMMEDIATE transaction. A failing import leaves the database exactly as it was, and another process that
// labels meanwhile waits at most for that last step.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { StudyFileModel } from '../../dsl/model.ts';
import type { ImportedRecord, SourcePosition } from '../../importers/types.ts';
import { plainJudgmentValues } from '../adapterShared/labelRows.ts';
import { type ImportFiles, stageFiles } from '../batchImports.ts';
import {
  checkAnswers,
  describe,
  emptyImportReport,
  refuseScaleRemoval,
  repeatedDocument,
  repeatedJudgment,
  type SecondDocument,
  type SecondJudgment,
  type StagedAnswers,
  stagedJudgment,
} from '../importChecks.ts';
import { coarseKindOf } from '../labelKind.ts';
import type { AnnotatorKind } from '../port/studiesPort.ts';
import { openDatabase, type SqliteDatabase } from '../sqliteDatabase.ts';
import {
  type AnswerRules,
  ImportCancelledError,
  type ImportOrigin,
  type ImportReport,
  type NewJudgment,
  type PoolInput,
  type PoolReport,
  type RowCounts,
  StoreError,
  type SyncReport,
} from '../studyDatabase.ts';
import { ensureAnnotatorId, impliedAnnotatorKind } from './annotators.ts';
import { migrateDatabase } from './sqliteMigrate.ts';

type Statement = ReturnType<SqliteDatabase['prepare']>;

/** Documents (10 values each) or judgments (16 each) per multi-row INSERT into the staging tables. */
const documentsPerStatement = 64;

/**
 * Records, and bytes of record text, collected before they are written to the temp tables in one transaction. Small
 * batches: records wait in the batch for their write, and a batch of 10,000 (8 MiB) outlived the young generation, so
 * every record was copied by the garbage collector (200,000 documents: 5% more CPU, 100 MB more peak memory). A
 * multiple of documentsPerStatement: the rows of a batch's incomplete last statement are staged one by one.
 */
const stagingBatch = 8 * documentsPerStatement;
const stagingBatchBytes = 256 << 10;

/**
 * The page cache (KiB) of the study database while an import moves its rows in: a million documents go into the
 * (study_id, docid) index in file order, and with the default 2 MB cache nearly every insert re-read an index page
 * from the file. A fixed amount, whatever the import's size; the default comes back afterwards.
 */
const importCacheKiB = 64 << 10;

/** Now, or a millisecond after `latest` (an ISO time) when the clock has not moved past it. */
function laterThan(latest: string | null): string {
  const now = Date.now();
  const after = latest === null ? now : Date.parse(latest) + 1;
  return new Date(Math.max(now, after)).toISOString();
}

export class StudyDatabase {
  readonly file: string;
  readonly db: SqliteDatabase;

  private constructor(file: string, db: SqliteDatabase) {
    this.file = file;
    this.db = db;
  }

  /** Opens (creating it and its folder if needed) and migrates the database at `file`. */
  static open(file: string, options: { nativeBinding: string }): StudyDatabase {
    mkdirSync(dirname(file), { recursive: true });
    let db: SqliteDatabase | undefined;
    try {
      db = openDatabase(file, { nativeBinding: options.nativeBinding });
      migrateDatabase(db);
      return new StudyDatabase(file, db);
    } catch (error) {
      db?.close();
      if ((error as { code?: string }).code === 'SQLITE_NOTADB') {
        throw new StoreError(`${file} is not a Qrels Studio database (not SQLite): move it away, then import again`);
      }
      throw error;
    }
  }

  close(): void {
    this.db.close();
  }

  /**
   * Makes the database say what the study file says: studies added or updated (their model, their scale). A scale
   * value that judgments use cannot be removed: that is an error naming them, and nothing changes.
   */
  syncStudies(model: StudyFileModel, now: Date = new Date()): SyncReport {
    const report: SyncReport = { studies: [], addedScaleValues: {} };
    const upsertStudy = this.db.prepare(
      `INSERT INTO study (name, kind, model, synced_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (name) DO UPDATE SET kind = excluded.kind, model = excluded.model, synced_at = excluded.synced_at
       RETURNING id`,
    );
    const scaleOf = this.db.prepare('SELECT value FROM scale_value WHERE study_id = ?').pluck();
    const upsertScale = this.db.prepare(
      `INSERT INTO scale_value (study_id, value, label, key, description) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (study_id, value) DO UPDATE SET label = excluded.label, key = excluded.key,
         description = excluded.description`,
    );
    const inUse = this.db.prepare(
      `SELECT p.qid, p.docid, a.name AS annotator, j.created_at
       FROM current_judgment AS j JOIN pair AS p ON p.id = j.pair_id JOIN annotator AS a ON a.id = j.annotator_id
       WHERE p.study_id = ? AND j.label = ? ORDER BY p.qid, p.docid LIMIT 6`,
    );
    const removeScale = this.db.prepare('DELETE FROM scale_value WHERE study_id = ? AND value = ?');
    const judgedStudies = this.db.prepare(
      `SELECT s.name, count(*) AS judgments FROM study AS s JOIN pair AS p ON p.study_id = s.id
       JOIN judgment AS j ON j.pair_id = p.id
       WHERE NOT EXISTS (SELECT 1 FROM judgment_retraction AS r WHERE r.judgment_id = j.id)
       GROUP BY s.id ORDER BY s.name`,
    );
    this.db
      .transaction(() => {
        // A study no longer in the file that has judgments (renamed, removed): its judgments would be orphaned.
        const named = new Set([...model.studies, ...model.reviews].map((s) => s.name));
        for (const { name, judgments } of judgedStudies.all() as { name: string; judgments: number }[]) {
          if (named.has(name)) continue;
          throw new StoreError(
            `study '${name}' is no longer in the study file but has ${judgments} judgment${judgments === 1 ? '' : 's'} ` +
              'in its database: rename it back (or export its labels with the old file first)',
          );
        }
        for (const study of [...model.studies, ...model.reviews]) {
          const { id } = upsertStudy.get(study.name, study.kind, JSON.stringify(study), now.toISOString()) as {
            id: number;
          };
          report.studies.push(study.name);
          if (study.kind !== 'study') continue;
          const before = new Set(scaleOf.all(id) as number[]);
          const entries = study.scale?.entries ?? [];
          const after = new Set(entries.map((entry) => entry.value));
          for (const value of before) {
            if (after.has(value)) continue;
            const users = inUse.all(id, value) as { qid: string; docid: string; annotator: string }[];
            refuseScaleRemoval(study.name, value, users);
            removeScale.run(id, value);
          }
          for (const entry of entries) {
            upsertScale.run(id, entry.value, entry.label, entry.key, entry.description ?? null);
          }
          const added = entries.map((e) => e.value).filter((value) => !before.has(value));
          if (added.length > 0) report.addedScaleValues[study.name] = added;
        }
      })
      .immediate();
    return report;
  }

  /** The id of study `name`; an error naming the known studies when there is none. */
  studyId(name: string): number {
    const row = this.db.prepare('SELECT id FROM study WHERE name = ?').get(name) as { id: number } | undefined;
    if (row !== undefined) return row.id;
    const known = (this.db.prepare('SELECT name FROM study ORDER BY name').pluck().all() as string[]).join(', ');
    throw new StoreError(`no study '${name}' in ${this.file} (it has: ${known || 'none'})`);
  }

  /** One judgment, committed before this returns (one transaction). */
  addJudgment(judgment: NewJudgment): { id: number; createdAt: string } {
    return this.db
      .transaction(() => {
        const studyId = this.studyId(judgment.study);
        this.checkLabel(studyId, judgment.label, judgment.study);
        const pairId = this.pairId(studyId, judgment.qid, judgment.docid);
        // The one annotator rule (annotators.ts): a person cannot label under an LLM judge's name, nor a judge a person's.
        const annotatorId = ensureAnnotatorId(this.db, this.file, judgment.annotator);
        // Two judgments of a pair by one annotator in the same millisecond (a double key press) stay two, in order.
        const latest = this.db
          .prepare('SELECT max(created_at) FROM judgment WHERE pair_id = ? AND annotator_id = ?')
          .pluck()
          .get(pairId, annotatorId) as string | null;
        const createdAt = judgment.createdAt?.toISOString() ?? laterThan(latest);
        const row = this.db
          .prepare(
            `INSERT INTO judgment (pair_id, annotator_id, label, created_at, source, rationale, shown_label)
             VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`,
          )
          .get(...plainJudgmentValues(pairId, annotatorId, judgment, createdAt)) as { id: number };
        return { id: row.id, createdAt };
      })
      .immediate();
  }

  /** The current label of every (pair, annotator) of a study, ordered by qid, docid, annotator. */
  currentLabels(study: string): { qid: string; docid: string; annotator: string; label: number }[] {
    return this.db
      .prepare(
        `SELECT p.qid, p.docid, a.name AS annotator, j.label
         FROM current_judgment AS j JOIN pair AS p ON p.id = j.pair_id JOIN annotator AS a ON a.id = j.annotator_id
         WHERE p.study_id = ? ORDER BY p.qid, p.docid, a.name`,
      )
      .all(this.studyId(study)) as { qid: string; docid: string; annotator: string; label: number }[];
  }

  /**
   * Imports files (queries, documents or judgments as records) and pools runs into study `study`, all or nothing:
   * any error — a malformed record the importer reports, an id twice, a label off the scale — leaves the database
   * exactly as it was. Queries and documents are matched by id (a changed text is updated); judgments are added
   * unless the same one is there already (same annotator, pair and time — or, for a file without times, the same
   * current label). Runs must be read (and so checked) before: `pools` holds their rankings. An aborted `signal`
   * (checked between staged batches and before the final transaction) rejects with ImportCancelledError.
   */
  async importBatch(
    study: string,
    files: ImportFiles,
    pools: readonly PoolInput[] = [],
    signal?: AbortSignal,
    answers?: AnswerRules,
  ): Promise<ImportReport> {
    const studyId = this.studyId(study);
    const staging = new Staging(this.db, this.file);
    const checkSignal = () => {
      if (signal?.aborted) throw new ImportCancelledError();
    };
    try {
      const counted = await stageFiles(files, staging, stagingBatch, checkSignal, stagingBatchBytes);
      staging.finishFiles(studyId);
      for (const [i, pool] of pools.entries()) {
        checkSignal();
        staging.addPool(i, pool.queries);
      }
      checkSignal();
      const cacheSize = this.db.pragma('main.cache_size', { simple: true }) as number;
      this.db.pragma(`main.cache_size = ${-importCacheKiB}`);
      try {
        return this.db
          .transaction((): ImportReport => {
            const report = staging.commit(
              studyId,
              counted,
              (label) => this.checkLabel(studyId, label.value, study, label.text),
              (row) => checkAnswers(row, study, answers),
            );
            for (const [i, pool] of pools.entries()) report.pools.push(this.pool(studyId, i, pool));
            return report;
          })
          .immediate();
      } finally {
        this.db.pragma(`main.cache_size = ${cacheSize}`);
      }
    } finally {
      staging.drop();
    }
  }

  /** One file: importBatch with it alone. */
  importRecords(study: string, records: AsyncIterable<ImportedRecord>, origin: ImportOrigin): Promise<ImportReport> {
    return this.importBatch(study, [{ records, origin }]);
  }

  /**
   * Adds a run's top-`depth` documents per query (trec_eval's order: core/pooling/runRanking.ts) to the study's
   * pairs, recording the run as their pool origin and keeping each pair's best rank. Pairs are only ever added:
   * pooling deeper adds pairs, pooling shallower or again removes none, and no judgment is touched.
   */
  async addPool(study: string, input: PoolInput): Promise<PoolReport> {
    const report = await this.importBatch(study, [], [input]);
    return report.pools[0]!;
  }

  /** Moves pool `index` (staged by Staging.addPool) into the study's pairs, inside the caller's transaction. */
  private pool(studyId: number, index: number, { run, queries }: PoolInput): PoolReport {
    const db = this.db;
    const count = (sql: string, ...args: unknown[]) =>
      db
        .prepare(sql)
        .pluck()
        .get(...args) as number;
    const before = count('SELECT count(*) FROM pair WHERE study_id = ?', studyId);
    const { id: runId } = db
      .prepare(
        `INSERT INTO run (study_id, path, tag, depth) VALUES (?, ?, ?, ?)
         ON CONFLICT (study_id, path) DO UPDATE SET tag = excluded.tag, depth = excluded.depth RETURNING id`,
      )
      .get(studyId, run.path, run.tag, run.depth) as { id: number };
    db.prepare(
      `INSERT INTO pair (study_id, qid, docid, best_rank)
       SELECT ?, qid, docid, rank FROM import_staging.staged_pool WHERE pool = ?
       ON CONFLICT (study_id, qid, docid) DO UPDATE
         SET best_rank = min(coalesce(pair.best_rank, excluded.best_rank), excluded.best_rank)`,
    ).run(studyId, index);
    db.prepare(
      `INSERT INTO pair_origin (pair_id, run_id, rank)
       SELECT p.id, ?, s.rank FROM import_staging.staged_pool AS s
       JOIN pair AS p ON p.study_id = ? AND p.qid = s.qid AND p.docid = s.docid WHERE s.pool = ?
       ON CONFLICT (pair_id, run_id) DO UPDATE SET rank = excluded.rank`,
    ).run(runId, studyId, index);
    const after = count('SELECT count(*) FROM pair WHERE study_id = ?', studyId);
    return {
      run: run.path,
      depth: run.depth,
      queries: queries.size,
      pooled: count('SELECT count(*) FROM import_staging.staged_pool WHERE pool = ?', index),
      added: after - before,
      pairs: after,
    };
  }

  /** `at`: where the label was read ("file:line:col"), for the message. */
  private checkLabel(studyId: number, label: number, study: string, at?: string): void {
    const values = this.db.prepare('SELECT value FROM scale_value WHERE study_id = ?').pluck().all(studyId) as number[];
    if (values.length === 0 || values.includes(label)) return;
    const where = at ? `${at}: ` : '';
    throw new StoreError(`${where}label ${label} is not on the scale of study '${study}' (${values.join(', ')})`);
  }

  private pairId(studyId: number, qid: string, docid: string): number {
    const row = this.db
      .prepare(
        `INSERT INTO pair (study_id, qid, docid) VALUES (?, ?, ?)
         ON CONFLICT (study_id, qid, docid) DO UPDATE SET qid = excluded.qid RETURNING id`,
      )
      .get(studyId, qid, docid) as { id: number };
    return row.id;
  }
}

interface StagedAnswerRow {
  qid: string;
  conditions: string | null;
  conditions_at: string | null;
  aspects: string | null;
  aspects_at: string | null;
}

/** The schema of the staging tables: an attached private temporary database. */
const stagingSchema = 'import_staging';

/** The values of one staged document, and of one plain document (Staging.plainDocuments). */
const documentColumns = 10;
const plainColumns = 5;

/** The values of one staged judgment (import_staging.staged_judgment's columns). */
const judgmentColumns = 16;

/**
 * The staging tables one import streams into (the files of one batch; each record keeps its file's place in the
 * batch, `seq`, its line and its position text). Writes to them lock nothing in the study database; a record id
 * seen twice — in one file or two — is an error naming both places.
 */
class Staging {
  private readonly db: SqliteDatabase;
  /** The database file, for the annotator rule's messages. */
  private readonly databaseFile: string;
  /** The file whose records are being added, and its place in the batch. */
  private origin: ImportOrigin = { file: '', target: '', format: '' };
  private seq = 0;
  /** Documents staged so far. */
  private stagedDocuments = 0;
  /**
   * Whether staged document ids are indexed (finishFiles). Not when the study has no document yet, the first import
   * of a corpus: its documents are all new, so they are inserted without counting which exist, and the study's own
   * unique index finds an id staged twice (sorting a million ids into a temp index first was a second sort).
   */
  private documentsIndexed = false;
  private readonly insertQuery;
  private readonly insertDocument;
  /** `documentsPerStatement` documents in one INSERT: a large corpus stages about twice as fast as row by row. */
  private readonly insertDocuments;
  /**
   * The usual document of the current file — no parent, its position a whole line (file:line:1), the format of the
   * file's first document — is staged with only its own values bound (docid, title, body, metadata, line): the file,
   * its place and the format are literals of these statements, made per file. Binding the other five per row cost a
   * third of the staging (200,000 documents: 0.12 s).
   */
  private plainDocuments?: { format: string; one: Statement; many: Statement };
  private readonly insertJudgment;
  private readonly insertJudgments;
  private readonly firstOf;

  constructor(db: SqliteDatabase, databaseFile: string) {
    this.db = db;
    this.databaseFile = databaseFile;
    this.drop();
    // A private temporary database ('' : a file of its own, deleted when detached), not the connection's temp one.
    db.exec(`ATTACH DATABASE '' AS ${stagingSchema}`);
    // Staged rows are thrown away whatever happens: the staging database needs no rollback journal.
    db.pragma('import_staging.journal_mode = OFF');
    db.exec(`
      CREATE TABLE import_staging.staged_query (qid TEXT PRIMARY KEY, text TEXT NOT NULL, instruction TEXT, parent_qid TEXT,
        type TEXT, split TEXT, metadata TEXT, file TEXT NOT NULL, seq INTEGER NOT NULL, line INTEGER NOT NULL,
        at TEXT NOT NULL) WITHOUT ROWID;
      -- Documents are appended as they come (a corpus is large: no index to maintain row by row); their ids are
      -- indexed once all are in (finishFiles), which is also where a repeated id is found. Their position text (at)
      -- is null when it is file:line:1 (a whole line), the usual case: it is derived for an error only.
      CREATE TABLE import_staging.staged_document (docid TEXT NOT NULL, title TEXT, body TEXT NOT NULL, format TEXT NOT NULL,
        parent_docid TEXT, metadata TEXT, file TEXT NOT NULL, seq INTEGER NOT NULL, line INTEGER NOT NULL, at TEXT);
      CREATE TABLE import_staging.staged_judgment (qid TEXT NOT NULL, docid TEXT NOT NULL, annotator TEXT NOT NULL,
        label INTEGER NOT NULL, created_at TEXT, source TEXT NOT NULL, rationale TEXT, shown_label INTEGER,
        file TEXT NOT NULL, seq INTEGER NOT NULL, line INTEGER NOT NULL, at TEXT NOT NULL,
        conditions TEXT, conditions_at TEXT, aspects TEXT, aspects_at TEXT);
      CREATE TABLE import_staging.staged_pool (pool INTEGER NOT NULL, qid TEXT NOT NULL, docid TEXT NOT NULL,
        rank INTEGER NOT NULL, PRIMARY KEY (pool, qid, docid)) WITHOUT ROWID;
    `);
    this.insertQuery = db.prepare(
      'INSERT INTO import_staging.staged_query VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (qid) DO NOTHING',
    );
    this.insertDocument = db.prepare(
      'INSERT INTO import_staging.staged_document VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.insertDocuments = db.prepare(
      `INSERT INTO import_staging.staged_document VALUES ${Array(documentsPerStatement).fill('(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
    );
    const judgmentRow = `(${Array(judgmentColumns).fill('?').join(', ')})`;
    this.insertJudgment = db.prepare(`INSERT INTO import_staging.staged_judgment VALUES ${judgmentRow}`);
    this.insertJudgments = db.prepare(
      `INSERT INTO import_staging.staged_judgment VALUES ${Array(documentsPerStatement).fill(judgmentRow).join(', ')}`,
    );
    this.firstOf = { query: db.prepare('SELECT seq, line, at FROM import_staging.staged_query WHERE qid = ?') };
  }

  /** The next file's records follow. */
  startFile(origin: ImportOrigin): void {
    this.origin = origin;
    this.seq++;
    this.plainDocuments = undefined;
  }

  private plainStatements(format: string): { format: string; one: Statement; many: Statement } {
    const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;
    const row = `(?, ?, ?, ${literal(format)}, NULL, ?, ${literal(this.origin.file)}, ${this.seq}, ?, NULL)`;
    const insert = 'INSERT INTO import_staging.staged_document VALUES';
    return {
      format,
      one: this.db.prepare(`${insert} ${row}`),
      many: this.db.prepare(`${insert} ${Array(documentsPerStatement).fill(row).join(', ')}`),
    };
  }

  add(batch: readonly ImportedRecord[]): void {
    if (batch.length === 0) return;
    const { file } = this.origin;
    const seq = this.seq;
    const metadata = (value: Record<string, unknown>) =>
      Object.keys(value).length === 0 ? null : JSON.stringify(value);
    // Documents waiting for a multi-row INSERT, all plain (plainDocuments) or all not: a change stages the waiting
    // ones first, so that the staging keeps the file's order.
    let documents = 0;
    let plainWaiting = false;
    const values: unknown[] = [];
    const stageWaiting = () => {
      const width = plainWaiting ? plainColumns : documentColumns;
      const one = plainWaiting ? this.plainDocuments!.one : this.insertDocument;
      for (let i = 0; i < documents; i++) one.run(values.slice(i * width, i * width + width));
      documents = 0;
      values.length = 0;
    };
    const judgmentValues: unknown[] = [];
    this.db.transaction(() => {
      for (const record of batch) {
        if (record.kind === 'query') {
          const result = this.insertQuery.run(
            record.qid,
            record.text,
            record.instruction ?? null,
            record.parent ?? null,
            record.type ?? null,
            record.split ?? null,
            metadata(record.metadata),
            file,
            seq,
            record.at.line,
            describe(record.at),
          );
          if (result.changes === 0) this.repeated('query', record.qid, record.at);
        } else if (record.kind === 'document') {
          this.stagedDocuments++;
          const meta = metadata(record.metadata);
          // Its position text is null when it is `file:line:1`, a whole line of the file (secondPlace derives it): a
          // million such strings cost a few % of the CPU.
          const at = record.at.column === 1 && record.at.file === file ? null : describe(record.at);
          this.plainDocuments ??= this.plainStatements(record.format);
          const plain = at === null && record.parent === undefined && record.format === this.plainDocuments.format;
          if (plain !== plainWaiting && documents > 0) stageWaiting();
          plainWaiting = plain;
          documents++;
          if (plain) values.push(record.docid, record.title ?? null, record.body, meta, record.at.line);
          else {
            values.push(
              record.docid,
              record.title ?? null,
              record.body,
              record.format,
              record.parent ?? null,
              meta,
              file,
              seq,
              record.at.line,
              at,
            );
          }
          if (documents === documentsPerStatement) {
            (plain ? this.plainDocuments.many : this.insertDocuments).run(values);
            documents = 0;
            values.length = 0;
          }
        } else {
          judgmentValues.push(...stagedJudgment(record, this.origin.annotator, file, seq));
          if (judgmentValues.length === documentsPerStatement * judgmentColumns) {
            this.insertJudgments.run(judgmentValues);
            judgmentValues.length = 0;
          }
        }
      }
      for (let i = 0; i < judgmentValues.length; i += judgmentColumns) {
        this.insertJudgment.run(judgmentValues.slice(i, i + judgmentColumns));
      }
      // The documents of an incomplete last statement, one by one.
      stageWaiting();
    })();
  }

  /** Stages a run's pooled documents (outside the write lock: commit moves them in). */
  addPool(pool: number, queries: PoolInput['queries']): void {
    const stage = this.db.prepare(
      'INSERT INTO import_staging.staged_pool VALUES (?, ?, ?, ?) ON CONFLICT DO UPDATE SET rank = min(rank, excluded.rank)',
    );
    this.db.transaction(() => {
      for (const [qid, documents] of queries) for (const d of documents) stage.run(pool, qid, d.docid, d.rank);
    })();
  }

  /**
   * After the last file: indexes the staged document ids (one sort, cheaper than keeping an index up to date row by
   * row); an id staged twice fails the unique index and becomes the error it is, at its second place.
   */
  finishFiles(studyId: number): void {
    if (this.studyHasDocuments(studyId)) this.indexDocuments();
    // One judgment per (pair, annotator, time), and per (pair, annotator) in files without times.
    try {
      this.db.exec(
        "CREATE UNIQUE INDEX import_staging.staged_judgment_key ON staged_judgment (qid, docid, annotator, ifnull(created_at, ''))",
      );
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_CONSTRAINT_UNIQUE') throw error;
      // A document staged twice is the error to report first, as when document ids are indexed before judgments.
      if (!this.documentsIndexed) this.throwIfDocumentRepeated();
      const again = this.secondPlace(
        'staged_judgment',
        "qid, docid, annotator, ifnull(created_at, '')",
      ) as SecondJudgment;
      throw repeatedJudgment(again);
    }
  }

  private studyHasDocuments(studyId: number): boolean {
    return this.db.prepare('SELECT EXISTS (SELECT 1 FROM document WHERE study_id = ?)').pluck().get(studyId) === 1;
  }

  /** Indexes the staged document ids; an id staged twice fails the unique index and becomes the error it is. */
  private indexDocuments(): void {
    try {
      this.db.exec('CREATE UNIQUE INDEX import_staging.staged_document_id ON staged_document (docid)');
      this.documentsIndexed = true;
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_CONSTRAINT_UNIQUE') throw error;
      this.throwIfDocumentRepeated();
      throw error;
    }
  }

  private throwIfDocumentRepeated(): void {
    const again = this.secondPlace('staged_document', 'docid') as SecondDocument | undefined;
    if (again !== undefined) throw repeatedDocument(again);
  }

  /**
   * The first row of `table` whose `key` an earlier row has, with that earlier row's position (`first`); a null
   * `at` (a staged document's) is its `file:line:1`.
   */
  private secondPlace(table: string, key: string): unknown {
    const row = this.db
      .prepare(
        `WITH placed AS (
           SELECT *, row_number() OVER (PARTITION BY ${key} ORDER BY seq, line) AS n,
             first_value(coalesce(at, file || ':' || line || ':1')) OVER (PARTITION BY ${key} ORDER BY seq, line) AS first
           FROM import_staging.${table}
         )
         SELECT * FROM placed WHERE n = 2 ORDER BY seq, line LIMIT 1`,
      )
      .get() as { at: string | null; file: string; line: number } | undefined;
    if (row !== undefined && row.at === null) row.at = `${row.file}:${row.line}:1`;
    return row;
  }

  private repeated(kind: 'query', id: string, at: SourcePosition): never {
    const first = this.firstOf[kind].get(id) as { seq: number; line: number; at: string };
    const where = first.seq === this.seq ? `line ${first.line}` : first.at;
    throw new StoreError(`${describe(at)}: expected a new ${kind} id, found '${id}' again (first at ${where})`);
  }

  /** Moves the staged rows into the study's tables; runs inside the caller's IMMEDIATE transaction. */
  commit(
    studyId: number,
    files: (ImportOrigin & { records: number })[],
    checkLabel: (label: { value: number; at: SourcePosition; text: string }) => void,
    checkAnswers: (row: StagedAnswers) => void,
  ): ImportReport {
    const db = this.db;
    const count = (sql: string, ...args: unknown[]): number =>
      (db
        .prepare(sql)
        .pluck()
        .get(...args) as number) ?? 0;
    const report = emptyImportReport(files);

    // Queries and documents: new ids added, changed ones updated, the rest unchanged.
    const rows = (staged: string, table: string, key: string, same: string): RowCounts => {
      const total = count(`SELECT count(*) FROM import_staging.${staged}`);
      const existing = count(
        `SELECT count(*) FROM import_staging.${staged} AS s JOIN ${table} AS t ON t.study_id = ? AND t.${key} = s.${key}`,
        studyId,
      );
      const unchanged = count(
        `SELECT count(*) FROM import_staging.${staged} AS s JOIN ${table} AS t ON t.study_id = ? AND t.${key} = s.${key}
         WHERE ${same}`,
        studyId,
      );
      return { added: total - existing, updated: existing - unchanged, unchanged };
    };
    report.queries = rows(
      'staged_query',
      'query',
      'qid',
      `t.text IS s.text AND t.instruction IS s.instruction AND t.parent_qid IS s.parent_qid AND t.type IS s.type
       AND t.split IS s.split AND t.metadata IS s.metadata`,
    );
    // Staged ids were not indexed because the study had no document (finishFiles): if it still has none (another
    // process may have imported since; this runs under the write lock), every staged document is new.
    if (!this.documentsIndexed && this.studyHasDocuments(studyId)) this.indexDocuments();
    const firstDocuments = !this.documentsIndexed;
    report.documents = firstDocuments
      ? { added: this.stagedDocuments, updated: 0, unchanged: 0 }
      : rows(
          'staged_document',
          'document',
          'docid',
          `t.title IS s.title AND t.body IS s.body AND t.format IS s.format AND t.parent_docid IS s.parent_docid
           AND t.metadata IS s.metadata`,
        );
    // Queries and documents in file order: query row ids are the Label view's "by query" order. Documents are read
    // from the staging in the order they were written, sequentially (in docid order each row was a random read of
    // the temp file: a million-document import made 1.5 M read calls for 6.5 GB, now 0.6 M for 2.8 GB), and go into
    // the docid index through the larger cache (importCacheKiB).
    db.prepare(
      `INSERT INTO query (study_id, qid, text, instruction, parent_qid, type, split, metadata, source)
       SELECT ?, qid, text, instruction, parent_qid, type, split, metadata, file FROM import_staging.staged_query WHERE true
       ORDER BY seq, line
       ON CONFLICT (study_id, qid) DO UPDATE SET text = excluded.text, instruction = excluded.instruction,
         parent_qid = excluded.parent_qid, type = excluded.type, split = excluded.split,
         metadata = excluded.metadata, source = excluded.source`,
    ).run(studyId);
    const insertDocuments = `INSERT INTO document (study_id, docid, title, body, format, parent_docid, metadata, source)
       SELECT ?, docid, title, body, format, parent_docid, metadata, file FROM import_staging.staged_document WHERE true
       ORDER BY rowid`;
    if (firstDocuments) {
      try {
        db.prepare(insertDocuments).run(studyId);
      } catch (error) {
        // The study had no document: only an id staged twice can fail its unique index.
        if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') this.throwIfDocumentRepeated();
        throw error;
      }
    } else {
      db.prepare(
        `${insertDocuments}
         ON CONFLICT (study_id, docid) DO UPDATE SET title = excluded.title, body = excluded.body,
           format = excluded.format, parent_docid = excluded.parent_docid, metadata = excluded.metadata,
           source = excluded.source`,
      ).run(studyId);
    }

    // Judgments (each unique, checked as staged: see the staging key): every label on the scale (else the first one
    // off it is the error); then pairs and annotators, then the judgments not already there.
    const firstWithLabel = db.prepare(
      'SELECT file, line, at FROM import_staging.staged_judgment WHERE label = ? ORDER BY seq, line LIMIT 1',
    );
    for (const label of db
      .prepare('SELECT DISTINCT label FROM import_staging.staged_judgment')
      .pluck()
      .all() as number[]) {
      const first = firstWithLabel.get(label) as { file: string; line: number; at: string };
      checkLabel({ value: label, at: { file: first.file, line: first.line }, text: first.at });
    }
    // The answers a label file carries, checked against the study (its queries, now in, give the condition counts).
    const queryRow = db.prepare(
      'SELECT qid, text, instruction, type, metadata FROM query WHERE study_id = ? AND qid = ?',
    );
    for (const row of db
      .prepare(
        `SELECT qid, conditions, conditions_at, aspects, aspects_at FROM import_staging.staged_judgment
         WHERE conditions IS NOT NULL OR aspects IS NOT NULL ORDER BY seq, line`,
      )
      .iterate() as IterableIterator<StagedAnswerRow>) {
      checkAnswers({
        qid: row.qid,
        query: queryRow.get(studyId, row.qid) as StagedAnswers['query'],
        conditions: row.conditions === null ? undefined : (JSON.parse(row.conditions) as boolean[]),
        conditionsAt: row.conditions_at ?? '',
        aspects: row.aspects === null ? undefined : (JSON.parse(row.aspects) as Record<string, boolean | number>),
        aspectsAt: row.aspects_at ?? '',
      });
    }
    // (An annotator is added with their first judgment: one not in the annotator table has judged nothing.)
    const judgedBefore = count(
      'SELECT EXISTS (SELECT 1 FROM annotator WHERE name IN (SELECT DISTINCT annotator FROM import_staging.staged_judgment))',
    );
    // Later than every judgment there is, so that a changed label is the current one even within a millisecond.
    const now = laterThan(db.prepare('SELECT max(created_at) FROM judgment').pluck().get() as string | null);
    const lastJudgmentBefore = count('SELECT max(id) FROM judgment');
    db.prepare(
      `INSERT INTO pair (study_id, qid, docid) SELECT DISTINCT ?, qid, docid FROM import_staging.staged_judgment WHERE true
       ON CONFLICT (study_id, qid, docid) DO NOTHING`,
    ).run(studyId);
    // The files' annotators, through the one annotator rule (annotators.ts): a declared kind first (`kind gold`,
    // `--kind llm`: the name is that kind of source from now on, and a person's name cannot become an LLM's or the
    // reverse), then the names of files that declare none, added with the kind their name implies when new.
    const annotatorsOf = db
      .prepare('SELECT DISTINCT annotator FROM import_staging.staged_judgment WHERE seq = ?')
      .pluck();
    const declareKind = db.prepare('UPDATE annotator SET label_kind = ? WHERE id = ?');
    const recordedKind = db.prepare('SELECT kind FROM annotator WHERE name = ?').pluck();
    for (const [i, file] of files.entries()) {
      if (file.kind === undefined) continue;
      for (const name of annotatorsOf.all(i + 1) as string[]) {
        declareKind.run(file.kind, ensureAnnotatorId(db, this.databaseFile, name, coarseKindOf(file.kind)));
      }
    }
    for (const [i, file] of files.entries()) {
      if (file.kind !== undefined) continue;
      for (const name of annotatorsOf.all(i + 1) as string[]) {
        const kind = recordedKind.get(name) as AnnotatorKind | undefined;
        ensureAnnotatorId(db, this.databaseFile, name, kind ?? impliedAnnotatorKind(name));
      }
    }
    // A file without times (TREC qrels) is stamped with the import time. A row is added only when its label differs
    // from the latest *imported* judgment (not retracted) of that annotator for the pair: importing the same qrels
    // again adds nothing, and does not undo a relabel made since in the editor; a changed file adds its changed
    // labels. (When none of the file's annotators has judged anything in this study yet, there is nothing to compare
    // with.)
    const unlessImportedBefore = judgedBefore
      ? `WHERE NOT (s.created_at IS NULL AND (
           SELECT i.label FROM judgment AS i
           WHERE i.pair_id = p.id AND i.annotator_id = a.id AND i.source = 'imported'
             AND NOT EXISTS (SELECT 1 FROM judgment_retraction AS r WHERE r.judgment_id = i.id)
           ORDER BY i.created_at DESC, i.id DESC LIMIT 1) IS s.label)`
      : 'WHERE true';
    const inserted = db
      .prepare(
        `INSERT INTO judgment (pair_id, annotator_id, label, created_at, source, rationale, shown_label)
         SELECT p.id, a.id, s.label, coalesce(s.created_at, ?), s.source, s.rationale, s.shown_label
         FROM import_staging.staged_judgment AS s
         JOIN pair AS p ON p.study_id = ? AND p.qid = s.qid AND p.docid = s.docid
         JOIN annotator AS a ON a.name = s.annotator
         ${unlessImportedBefore}
         ON CONFLICT (pair_id, annotator_id, created_at) DO NOTHING`,
      )
      .run(now, studyId);
    // The added judgments' answers, stored as the Label view stores them: condition i (1-based) satisfied 1/0, an
    // aspect's answer 1/0 or its level.
    const added = `FROM import_staging.staged_judgment AS s
       JOIN pair AS p ON p.study_id = ? AND p.qid = s.qid AND p.docid = s.docid
       JOIN annotator AS a ON a.name = s.annotator
       JOIN judgment AS j ON j.pair_id = p.id AND j.annotator_id = a.id AND j.created_at = coalesce(s.created_at, ?)
         AND j.id > ?`;
    db.prepare(
      `INSERT INTO condition_judgment (judgment_id, condition, satisfied)
       SELECT j.id, e.key + 1, e.value ${added}, json_each(s.conditions) AS e WHERE s.conditions IS NOT NULL`,
    ).run(studyId, now, lastJudgmentBefore);
    db.prepare(
      `INSERT INTO aspect_judgment (judgment_id, aspect, answer)
       SELECT j.id, e.key, e.value ${added}, json_each(s.aspects) AS e WHERE s.aspects IS NOT NULL`,
    ).run(studyId, now, lastJudgmentBefore);
    const judgments = count('SELECT count(*) FROM import_staging.staged_judgment');
    report.judgments = { added: inserted.changes, updated: 0, unchanged: judgments - inserted.changes };

    const log = db.prepare(
      'INSERT INTO import_log (study_id, at, file, target, format, records) VALUES (?, ?, ?, ?, ?, ?)',
    );
    for (const file of files) log.run(studyId, now, file.file, file.target, file.format, file.records);
    return report;
  }

  /** Detaching the staging database deletes its file: faster than dropping a million staged rows page by page. */
  drop(): void {
    const attached = this.db.prepare('SELECT 1 FROM pragma_database_list WHERE name = ?').pluck().get(stagingSchema);
    if (attached !== undefined) this.db.exec(`DETACH DATABASE ${stagingSchema}`);
  }
}
