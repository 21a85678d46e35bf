// The CLI on a study of either store kind, the way a user runs it: a study file without a `store` statement keeps its
// record in the SQLite file next to it (as before issue 21); a study file that ends with `store postgres "qrels-test"`
// keeps it in a fresh database of the run's throwaway cluster (test/pg/pgCluster.ts), which the CLI process finds
// through QRELS_STUDIO_STORES — the same setting a user's shell gives it. The `store` statement is a file statement
// put after the blocks, so every line and column of the study file stays where it was.
//   for (const kind of storeKinds) test(`… (${kind})`, async () => { const store = await cliStore(kind); … });
import { writeFileSync } from 'node:fs';
import type pg from 'pg';
import { PostgresStudyStore } from '../../core/store/postgres/postgresStudyStore.ts';
import { SqliteStudyStore } from '../../core/store/sqlite/sqliteStudyStore.ts';
import { locateNativeBinding } from '../../core/store/sqliteDatabase.ts';
import { studyDatabasePath } from '../../core/store/studyDatabase.ts';
import type { StudyStore } from '../../core/store/studyStore.ts';
import { nativeDir, runCliProcess } from '../helpers.ts';
import { migratedTestDatabase } from '../pg/migratedDatabase.ts';
import type { StoreKind } from '../storeKinds.ts';

/** The store name the PostgreSQL study files use. */
export const cliStoreName = 'qrels-test';

/** Every variable the connection resolver reads besides QRELS_STUDIO_STORES, unset (the test's own must not leak). */
const noPgEnvironment = { PGHOST: '', PGPORT: '', PGDATABASE: '', PGUSER: '', PGPASSWORD: '' };

export interface CliStore {
  kind: StoreKind;
  /** What the CLI process needs in its environment to reach the record (nothing for SQLite). */
  env: NodeJS.ProcessEnv;
  /** PostgreSQL: the test database the study files' store names. */
  connection?: pg.ClientConfig;
  /** `text` as a study file of this kind: unchanged for SQLite, with `store postgres "qrels-test"` appended. */
  study(text: string): string;
  /** Writes the study file `path` (see `study`). */
  writeStudy(path: string, text: string): void;
  /** Runs the CLI as a process with this kind's environment (added to `options.env`). */
  cli(
    args: string[],
    options?: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string },
  ): ReturnType<typeof runCliProcess>;
  /** The record of the study file at `studyFile` through the storage port (close it). */
  open(studyFile: string): Promise<StudyStore>;
}

/** The CLI's store of `kind`: for PostgreSQL a fresh database of the run's cluster. */
export async function cliStore(kind: StoreKind): Promise<CliStore> {
  const connection = kind === 'postgres' ? await migratedTestDatabase() : undefined;
  const env: NodeJS.ProcessEnv =
    connection === undefined
      ? {}
      : {
          ...noPgEnvironment,
          QRELS_STUDIO_STORES: JSON.stringify({
            [cliStoreName]: {
              host: connection.host,
              port: connection.port,
              database: connection.database,
              user: connection.user,
            },
          }),
        };
  const study = (text: string) =>
    connection === undefined ? text : `${text}${text.endsWith('\n') ? '' : '\n'}\nstore postgres "${cliStoreName}"\n`;
  return {
    kind,
    env,
    ...(connection !== undefined && { connection }),
    study,
    writeStudy: (path, text) => writeFileSync(path, study(text)),
    cli: (args, options = {}) => runCliProcess(args, { ...options, env: { ...options.env, ...env } }),
    open: async (studyFile) =>
      connection === undefined
        ? SqliteStudyStore.open(studyDatabasePath(studyFile), { nativeBinding: locateNativeBinding(nativeDir) })
        : PostgresStudyStore.open({ connection, location: `postgres:${cliStoreName}` }),
  };
}
