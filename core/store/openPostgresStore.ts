// Opens the PostgreSQL store a study file names (`store postgres "name"`), connected as the user's side says
// (postgres/connectionConfig.ts). Apart from openStudyStore.ts so that the extension host, which keeps SQLite in its
// worker thread, loads no SQLite code to open a PostgreSQL store.
import {
  type ConnectionSources,
  resolveStoreConnection,
  type StoreConnection,
  type StoresSettings,
} from './postgres/connectionConfig.ts';
import { PostgresStudyStore } from './postgres/postgresStudyStore.ts';
import { StoreError } from './studyDatabase.ts';
import type { StudyStore } from './studyStore.ts';

export interface PostgresStoreSources {
  /** The `qrelsStudio.stores` setting (the CLI: the JSON in QRELS_STUDIO_STORES). */
  settings?: StoresSettings;
  /** Where PG* variables and `urlEnv` are read (the caller passes process.env). */
  env?: Readonly<Record<string, string | undefined>>;
  /** The password stored for a store name (VS Code's secret storage), if any. */
  secret?: (storeName: string) => Promise<string | undefined> | string | undefined;
  /** Told what the resolver ignored (a password in settings or a URL). */
  onWarning?: (message: string) => void;
}

/** The environment variable the CLI reads the stores setting from (JSON, the shape of `qrelsStudio.stores`). */
export const storesVariable = 'QRELS_STUDIO_STORES';

/** The stores setting from the environment (QRELS_STUDIO_STORES), or none; a StoreError when it is not JSON. */
export function storesFromEnvironment(env: Readonly<Record<string, string | undefined>>): StoresSettings | undefined {
  const text = env[storesVariable];
  if (text === undefined || text.trim() === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new StoreError(
      `expected ${storesVariable} to hold JSON ({ "store name": { "host": …, "database": …, "user": … } }), found text that does not parse: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new StoreError(`expected ${storesVariable} to hold a JSON object of store names, found ${text.slice(0, 40)}`);
  }
  return parsed as StoresSettings;
}

/** The PostgreSQL store `storeName` names, connected and migrated to the newest schema. */
export async function openPostgresStore(storeName: string, sources: PostgresStoreSources = {}): Promise<StudyStore> {
  const secret = await sources.secret?.(storeName);
  const connectionSources: ConnectionSources = {
    ...(sources.settings !== undefined && { settings: sources.settings }),
    ...(sources.env !== undefined && { env: sources.env }),
    ...(secret !== undefined && { secret }),
  };
  const resolved = resolveStoreConnection(storeName, connectionSources);
  for (const warning of resolved.warnings) sources.onWarning?.(warning);
  try {
    return await PostgresStudyStore.open({
      connection: resolved.config,
      location: resolved.location,
      responseTimeoutMs: resolved.timeouts.responseTimeoutMs,
    });
  } catch (error) {
    throw connectionError(storeName, resolved, error);
  }
}

const setPassword = 'set it with "Qrels Studio: Set Store Password", in PGPASSWORD or in ~/.pgpass';

/** What a failed connection means for the user, when it is about the connection: a StoreError saying what to fix. */
function connectionError(storeName: string, resolved: StoreConnection, error: unknown): unknown {
  const { host, port, user, database } = resolved.config;
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  const server = `${host}:${port} (${resolved.sources.host})`;
  if (code === '28P01') {
    return new StoreError(
      `store "${storeName}": the server refused the password of user ${user} (from ${resolved.sources.password}): ${setPassword}`,
    );
  }
  if (resolved.config.password === undefined && /password/i.test(message) && code === undefined) {
    return new StoreError(
      `store "${storeName}": the server asks for the password of user ${user} and none was found: ${setPassword}`,
    );
  }
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EHOSTUNREACH' || code === 'ETIMEDOUT') {
    return new StoreError(`store "${storeName}": cannot reach the server at ${server}: ${message}`);
  }
  if (code === '3D000') {
    return new StoreError(
      `store "${storeName}": the server at ${server} has no database ${database} (from ${resolved.sources.database})`,
    );
  }
  if (code === '3F000' && resolved.schema !== undefined) {
    return new StoreError(
      `store "${storeName}": database ${database} at ${server} has no schema ${resolved.schema} (qrelsStudio.stores["${storeName}"].schema): the database's owner creates it, or leave the setting out`,
    );
  }
  if (code === '28000') {
    return new StoreError(`store "${storeName}": the server at ${server} does not let user ${user} in: ${message}`);
  }
  return error;
}
