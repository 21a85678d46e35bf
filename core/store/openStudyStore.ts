// Opens the record of a study file where the file says it lives: without a `store` statement (or with `store
// sqlite`) the SQLite task database next to the study file, exactly as before; with `store postgres "name"` a
// PostgreSQL store, connected as the user's side says (postgres/connectionConfig.ts: the stores setting, a URL in
// an environment variable, libpq's environment; a password from the caller's secret, PGPASSWORD or ~/.pgpass).
// The CLI calls this; the extension keeps its worker-thread SQLite store and calls openPostgresStore for the rest.
import type { StoreModel } from '../dsl/model.ts';
import { openPostgresStore, type PostgresStoreSources } from './openPostgresStore.ts';
import { SqliteStudyStore } from './sqlite/sqliteStudyStore.ts';
import { studyDatabasePath } from './studyDatabase.ts';
import type { StudyStore } from './studyStore.ts';

export {
  openPostgresStore,
  type PostgresStoreSources,
  storesFromEnvironment,
  storesVariable,
} from './openPostgresStore.ts';

export interface OpenStudyStoreOptions extends PostgresStoreSources {
  /** The better-sqlite3 native module, for a SQLite store (locateNativeBinding finds it; asked only for SQLite). */
  nativeBinding: string | (() => string);
}

/** The record of the study file at `studyPath` (absolute), where its `store` statement says (SQLite without one). */
export async function openStudyStore(
  studyPath: string,
  model: { store?: StoreModel },
  options: OpenStudyStoreOptions,
): Promise<StudyStore> {
  const store = model.store ?? { kind: 'sqlite' };
  if (store.kind === 'postgres') return openPostgresStore(store.name, options);
  const { nativeBinding } = options;
  return SqliteStudyStore.open(studyDatabasePath(studyPath), {
    nativeBinding: typeof nativeBinding === 'string' ? nativeBinding : nativeBinding(),
  });
}
