// What every part of the SQLite adapter shares: the connection (private to core/store/sqlite/), the file it is,
// and the change notification its writes send.
import type { SqliteDatabase } from '../sqliteDatabase.ts';
import type { StoreChange } from '../studyStore.ts';
import type { StudyDatabase } from './studyDatabase.ts';

export interface SqliteContext {
  readonly db: SqliteDatabase;
  readonly file: string;
  /** The record's own study-level operations (study ids, annotators, imports). */
  readonly database: StudyDatabase;
  /** Tells the store's listeners what a committed write changed. */
  changed(change: StoreChange): void;
}
