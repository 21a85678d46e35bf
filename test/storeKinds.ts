// Tests that run against both adapters of the storage port: `storeKinds` lists them, `openTestStore(kind)` opens a
// fresh, empty store of that kind — a SqliteStudyStore on a scratch file, or a PostgresStudyStore on a fresh database
// of the run's throwaway cluster (test/pg/pgCluster.ts), copied from the cluster's migrated template
// (test/pg/migratedDatabase.ts: no migration runs per test). Close it (`await store.close()`) at the end of the test.
//   for (const kind of storeKinds) test(`… (${kind})`, async () => { const store = await openTestStore(kind); … });
import { join } from 'node:path';
import type pg from 'pg';
import { PostgresStudyStore } from '../core/store/postgres/postgresStudyStore.ts';
import { SqliteStudyStore } from '../core/store/sqlite/sqliteStudyStore.ts';
import { locateNativeBinding } from '../core/store/sqliteDatabase.ts';
import { nativeDir, scratchDir } from './helpers.ts';
import { migratedTestDatabase } from './pg/migratedDatabase.ts';

export const storeKinds = ['sqlite', 'postgres'] as const;
export type StoreKind = (typeof storeKinds)[number];

export interface TestStoreOptions {
  /** SQLite: the database file (default: study.sqlite in a new scratch folder). */
  file?: string;
  /** PostgreSQL: the location messages name (default: `postgres:<database>`). */
  location?: string;
  /**
   * PostgreSQL: the database to open (default: a fresh, migrated one from migratedTestDatabase()) — another store's
   * `store.connection`, to open a second store on the same record (as `file` does for SQLite).
   */
  connection?: pg.ClientConfig;
}

export type TestStore<K extends StoreKind> = K extends 'sqlite' ? SqliteStudyStore : PostgresStudyStore;

/** A fresh, empty store of `kind`, migrated to the newest schema. */
export async function openTestStore<K extends StoreKind>(
  kind: K,
  options: TestStoreOptions = {},
): Promise<TestStore<K>> {
  if (kind === 'sqlite') {
    const file = options.file ?? join(scratchDir(), 'study.sqlite');
    return (await SqliteStudyStore.open(file, { nativeBinding: locateNativeBinding(nativeDir) })) as TestStore<K>;
  }
  const connection = options.connection ?? (await migratedTestDatabase());
  return (await PostgresStudyStore.open({
    connection,
    ...(options.location !== undefined && { location: options.location }),
  })) as TestStore<K>;
}
