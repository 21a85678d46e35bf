// `qrels-studio store copy STUDY.assess --to postgres|sqlite [--store NAME]`: moves a study file's whole record
// between its stores — from the store its `store` statement names (the SQLite file next to it without one) to the
// other: PostgreSQL store `--store NAME` (from SQLite), or the SQLite file next to the study file (from the
// PostgreSQL store its `store postgres "NAME"` names). Ids are kept; the target must be empty; a failure writes
// nothing (core/store/storeCopy.ts).
import type { StoreModel } from '../../core/dsl/model.ts';
import { openPostgresStore, storesFromEnvironment } from '../../core/store/openStudyStore.ts';
import { PostgresStudyStore } from '../../core/store/postgres/postgresStudyStore.ts';
import { PostgresTables } from '../../core/store/postgres/postgresTables.ts';
import { SqliteTables } from '../../core/store/sqlite/sqliteTables.ts';
import { locateNativeBinding } from '../../core/store/sqliteDatabase.ts';
import { copyRecord, type RecordTables } from '../../core/store/storeCopy.ts';
import { StoreError, studyDatabasePath } from '../../core/store/studyDatabase.ts';
import { type CliCommand, type CliContext, UsageError } from '../cliContext.ts';
import { optionValue, readStudyFile } from '../studyDatabaseCommand.ts';
import { grantDetails, grantUsage, runStoreGrant } from './storeGrant.ts';

const kinds = ['postgres', 'sqlite'] as const;

export const storeCommand: CliCommand = {
  name: 'store',
  summary:
    "copy a study file's record to its other store (store copy: SQLite file ⇄ PostgreSQL); give its team database roles (store grant)",
  usage: `qrels-studio store copy STUDY.assess --to postgres|sqlite [--store NAME]\n       ${grantUsage}`,
  details:
    "Copies every table of the record, ids kept, from the store the study file's `store` statement names to the\n" +
    'other: --to postgres --store NAME copies a study on the SQLite file next to it (no store statement, or store\n' +
    'sqlite) to PostgreSQL store NAME (connection from QRELS_STUDIO_STORES, a urlEnv URL, PG* variables,\n' +
    '~/.pgpass); --to sqlite copies a study whose file says store postgres "NAME" to the SQLite file next to it.\n' +
    'The target must hold nothing (on PostgreSQL: the schema the store entry names, one per study file); a failure\n' +
    'leaves it as it was. The study file is not changed: point its\n' +
    '`store` statement at the copy to use it.\n' +
    grantDetails,
  async run(args, context) {
    const [action, ...rest] = args;
    if (action === undefined) throw new UsageError('no action (store copy, store grant)');
    if (action === 'grant') return runStoreGrant(rest, context);
    if (action !== 'copy') throw new UsageError(`unknown action '${action}' (expected copy or grant)`);
    let studyArg: string | undefined;
    let to: (typeof kinds)[number] | undefined;
    let storeName: string | undefined;
    for (let i = 0; i < rest.length; i++) {
      const arg = rest[i]!;
      if (arg === '--to') {
        const value = optionValue(rest, i++, 'a store kind (postgres|sqlite)');
        if (!(kinds as readonly string[]).includes(value)) {
          throw new UsageError(`--to takes postgres or sqlite, found '${value}'`);
        }
        to = value as (typeof kinds)[number];
      } else if (arg === '--store') storeName = optionValue(rest, i++, 'a store name');
      else if (arg.startsWith('-')) throw new UsageError(`unknown option '${arg}'`);
      else if (studyArg === undefined) studyArg = arg;
      else throw new UsageError(`unexpected argument '${arg}'`);
    }
    if (studyArg === undefined) throw new UsageError('no study file');
    if (to === undefined) throw new UsageError('no target: --to postgres or --to sqlite');
    const { path, store } = await readStoreStatement(studyArg, context);
    if (to === 'sqlite' && storeName !== undefined) {
      throw new UsageError('--store names a PostgreSQL store; --to sqlite copies to the file next to the study file');
    }
    if (to === store.kind) {
      throw new UsageError(
        to === 'sqlite'
          ? `${studyArg} already uses the SQLite file next to it (no store statement, or store sqlite): copy --to postgres`
          : `${studyArg} already uses PostgreSQL store "${(store as { name: string }).name}": copy --to sqlite`,
      );
    }
    const postgresName = to === 'postgres' ? storeName : (store as { name: string }).name;
    if (postgresName === undefined) {
      throw new UsageError(`${studyArg} has no store postgres statement: name the target store with --store NAME`);
    }
    const nativeBinding = locateNativeBinding(context.nativeDir);
    const sqlite = new SqliteTables(studyDatabasePath(path), nativeBinding);
    const opened = await openPostgresStore(postgresName, {
      env: process.env,
      settings: storesFromEnvironment(process.env),
      onWarning: (message) => context.stderr(`warning: ${message}\n`),
    });
    try {
      if (!(opened instanceof PostgresStudyStore)) throw new StoreError(`store "${postgresName}" is not PostgreSQL`);
      const postgres: RecordTables = new PostgresTables(opened.pool, opened.location);
      const [from, target] = to === 'postgres' ? [sqlite, postgres] : [postgres, sqlite];
      // A PostgreSQL target is one schema: another study file's record there is refused, saying where and what to do.
      const where = to === 'postgres' ? await opened.where() : undefined;
      const report = await copyRecord(from, target, {
        ...(where !== undefined && {
          targetAdvice: `It is in schema ${where.schema} of database ${where.database}: a schema holds the record of one study file — give this one a store whose entry names an empty schema (qrelsStudio.stores / QRELS_STUDIO_STORES: { "schema": "…" }, created by the database's owner with CREATE SCHEMA)`,
        }),
      });
      const rows = [...report.rows.values()].reduce((a, b) => a + b, 0);
      context.stdout(`copied ${from.location} to ${target.location}: ${rows} rows in ${report.rows.size} tables\n`);
      context.stdout(
        to === 'postgres'
          ? `${studyArg} uses it once it says: store postgres "${postgresName}"\n`
          : `${studyArg} uses it once its store statement is removed (or says: store sqlite)\n`,
      );
      return 0;
    } finally {
      await opened.close();
    }
  },
};

/** The study file's `store` statement (SQLite without one); refused, with its errors, when the file has any. */
async function readStoreStatement(studyArg: string, context: CliContext): Promise<{ path: string; store: StoreModel }> {
  const { path, model } = await readStudyFile(studyArg, context);
  return { path, store: model.store ?? { kind: 'sqlite' } };
}
