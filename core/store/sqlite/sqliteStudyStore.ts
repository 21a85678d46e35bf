// The SQLite adapter of the storage port (core/store/studyStore.ts): one better-sqlite3 connection in WAL mode, the
// database file next to the study file. better-sqlite3 is synchronous, so each method does its work in one
// transaction and resolves; the extension host runs this adapter in a worker thread (core/worker/) so that work never
// blocks the editor. Other processes writing the same file (the CLI, another window) are noticed through SQLite's
// `data_version`, which changes when another connection commits.
import type { SqliteDatabase } from '../sqliteDatabase.ts';
import type { StoreChange, StudyStore } from '../studyStore.ts';
import { SqliteAgreement } from './sqliteAgreement.ts';
import type { SqliteContext } from './sqliteContext.ts';
import { SqliteExports } from './sqliteExports.ts';
import { SqliteImports } from './sqliteImports.ts';
import { SqliteJudge } from './sqliteJudge.ts';
import { SqliteJudgeBatches } from './sqliteJudgeBatches.ts';
import { SqliteLabels } from './sqliteLabels.ts';
import { SqliteReviews } from './sqliteReviews.ts';
import { SqliteStudies } from './sqliteStudies.ts';
import { StudyDatabase } from './studyDatabase.ts';

/** How often another process's commits are looked for while someone listens for changes. */
const externalChangePollMs = 250;

export interface SqliteStoreOptions {
  /** The better-sqlite3 native module (dist/native/…): locateNativeBinding finds it. */
  nativeBinding: string;
}

export class SqliteStudyStore implements StudyStore {
  readonly location: string;
  readonly studies: SqliteStudies;
  readonly imports: SqliteImports;
  readonly labels: SqliteLabels;
  readonly judge: SqliteJudge;
  readonly judgeBatches: SqliteJudgeBatches;
  readonly reviews: SqliteReviews;
  readonly agreement: SqliteAgreement;
  readonly exports: SqliteExports;
  /** The record's study-level operations; the connection (`db`) is private to the adapter. */
  private readonly database: StudyDatabase;
  private readonly db: SqliteDatabase;
  private readonly listeners = new Set<(change: StoreChange) => void>();
  private poll: ReturnType<typeof setInterval> | undefined;
  private dataVersion = 0;

  private constructor(database: StudyDatabase) {
    this.database = database;
    this.db = database.db;
    this.location = database.file;
    const context: SqliteContext = {
      db: this.db,
      file: database.file,
      database,
      changed: (change) => this.emit(change),
    };
    this.studies = new SqliteStudies(context);
    this.imports = new SqliteImports(context);
    this.labels = new SqliteLabels(context);
    this.judge = new SqliteJudge(context);
    this.judgeBatches = new SqliteJudgeBatches(context);
    this.reviews = new SqliteReviews(context);
    this.agreement = new SqliteAgreement(context);
    this.exports = new SqliteExports(context);
  }

  /** Opens (creating it and its folder if needed) and migrates the database file `file`. */
  static async open(file: string, options: SqliteStoreOptions): Promise<SqliteStudyStore> {
    return SqliteStudyStore.openNow(file, options);
  }

  /** open, for the worker and tests that need the store before an await. */
  static openNow(file: string, options: SqliteStoreOptions): SqliteStudyStore {
    return new SqliteStudyStore(StudyDatabase.open(file, options));
  }

  onChange(listener: (change: StoreChange) => void): () => void {
    this.listeners.add(listener);
    if (this.poll === undefined) {
      this.dataVersion = this.readDataVersion();
      this.poll = setInterval(() => this.lookForOthersCommits(), externalChangePollMs);
      this.poll.unref?.();
    }
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0 && this.poll !== undefined) {
        clearInterval(this.poll);
        this.poll = undefined;
      }
    };
  }

  async close(): Promise<void> {
    if (this.poll !== undefined) clearInterval(this.poll);
    this.poll = undefined;
    this.listeners.clear();
    this.database.close();
  }

  private readDataVersion(): number {
    return this.db.pragma('data_version', { simple: true }) as number;
  }

  private lookForOthersCommits(): void {
    if (!this.db.open) return;
    const version = this.readDataVersion();
    if (version === this.dataVersion) return;
    this.dataVersion = version;
    this.emit({ what: 'external' });
  }

  private emit(change: StoreChange): void {
    for (const listener of [...this.listeners]) listener(change);
  }
}
