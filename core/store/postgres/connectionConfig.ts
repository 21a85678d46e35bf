// Where `store postgres "team-wqt"` connects: the study file names a store, each user's side says where it is.
// Pure: everything comes in as arguments (the settings, the environment, the secret), a node-postgres ClientConfig
// comes out, or a StoreError naming what is missing and where it could come from.
//
// Each piece, first found wins:
//   host, port, database, user — (1) the settings entry of the store name (`qrelsStudio.stores` in VS Code, the
//   same object for the CLI), (2) the URL in the environment variable the entry's `urlEnv` names
//   (`postgres://user@host:port/database`), (3) libpq's environment: PGHOST, PGPORT, PGDATABASE, PGUSER. The port
//   defaults to 5432; host, database and user have no default (libpq's — a local socket, the OS user — would
//   silently open another database than the team's).
//   password — only (1) the secret the caller passes (VS Code's secret storage, "Qrels Studio: Set Store Password"),
//   (2) PGPASSWORD, (3) ~/.pgpass (or the file PGPASSFILE names): with no password in the config, node-postgres 8
//   reads that file itself (its `pgpass` dependency, when the server asks for a password; pg 8 marks this as
//   deprecated for pg 9, which will need the file read here and passed as `password: () => …`). Never from a
//   settings object or the study file (both are workspace files others read), nor from a URL: a password in the
//   URL is dropped and said so in `warnings`.
//   schema — the settings entry's `schema` (a plain identifier), as the connection's search_path.
//   timeouts — the settings entry's connectTimeoutMs, keepAliveMs, responseTimeoutMs, idleInTransactionTimeoutMs,
//   statementTimeoutMs (whole milliseconds, 0 turns one off), each defaulting to postgresContext.ts's
//   defaultTimeouts: how a network cut with no reset becomes an error in seconds instead of the OS's minutes.
import type { ClientConfig } from 'pg';
import { StoreError } from '../studyDatabase.ts';
import { type ConnectionTimeouts, defaultTimeouts, timeoutConfig } from './postgresContext.ts';

/** One store name's entry of the `qrelsStudio.stores` setting: never a password. */
export interface StoreSettings {
  host?: string;
  port?: number;
  database?: string;
  user?: string;
  /** The schema that holds the study's tables (search_path); the user's default schema without it. */
  schema?: string;
  /** The name of an environment variable holding a `postgres://user@host:port/database` URL. */
  urlEnv?: string;
  /** Timeouts in milliseconds (0: off), each defaulting to defaultTimeouts: see ConnectionTimeouts. */
  connectTimeoutMs?: number;
  keepAliveMs?: number;
  responseTimeoutMs?: number;
  idleInTransactionTimeoutMs?: number;
  statementTimeoutMs?: number;
}

/** The timeout fields of a settings entry. */
export const timeoutFields = Object.keys(defaultTimeouts) as (keyof ConnectionTimeouts)[];
/** Every field a settings entry may have. */
export const entryFields = ['host', 'port', 'database', 'user', 'schema', 'urlEnv', ...timeoutFields] as const;
/** The largest timeout: PostgreSQL's settings are 32-bit integers of milliseconds. */
const maxTimeoutMs = 2_147_483_647;

/** `{ [storeName]: { host?, port?, database?, user?, schema?, urlEnv? } }`. */
export type StoresSettings = Readonly<Record<string, StoreSettings | undefined>>;

export interface ConnectionSources {
  /** The stores setting (VS Code's `qrelsStudio.stores`, or the CLI's equivalent). */
  settings?: StoresSettings;
  /** The environment to read PG* variables and `urlEnv` from (the caller passes process.env). */
  env?: Readonly<Record<string, string | undefined>>;
  /** The password from the editor's secret storage for this store name, when one is stored. */
  secret?: string;
}

export type ConnectionPiece = 'host' | 'port' | 'database' | 'user' | 'password';

export interface StoreConnection {
  /** A node-postgres ClientConfig (also a PoolConfig): host, port, database, user, password when one is known. */
  config: ClientConfig & { host: string; port: number; database: string; user: string };
  /** The settings entry's schema, when given (also set as the connection's search_path in `config.options`). */
  schema?: string;
  /** Where each piece came from, for messages (`password: "~/.pgpass or none"` when left to node-postgres). */
  sources: Record<ConnectionPiece, string>;
  /** What was ignored and why (a password in a URL). */
  warnings: string[];
  /** `postgres:<store name>`, for StudyStore.location. */
  location: string;
  /** Every timeout, from the entry or its default (those pg knows are in `config` too). */
  timeouts: ConnectionTimeouts;
}

const settingName = 'qrelsStudio.stores';
const identifier = /^[A-Za-z_][A-Za-z0-9_]*$/;

interface Found {
  value: string;
  source: string;
}

/** The pieces of a `postgres://` or `postgresql://` URL (decoded); the password only to say it is dropped. */
function parseUrl(
  text: string,
  variable: string,
): { host?: string; port?: string; database?: string; user?: string; hasPassword: boolean } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new StoreError(
      `expected a postgres://user@host:port/database URL in the environment variable ${variable}, found text that is not a URL`,
    );
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new StoreError(
      `expected a postgres:// or postgresql:// URL in the environment variable ${variable}, found a ${url.protocol}// URL`,
    );
  }
  const decode = (part: string) => (part === '' ? undefined : decodeURIComponent(part));
  // `?host=/var/run/postgresql` names a socket directory, as libpq allows.
  const host = url.searchParams.get('host') ?? decode(url.hostname.replace(/^\[(.*)\]$/, '$1'));
  return {
    ...(host !== undefined && { host }),
    ...(url.port !== '' && { port: url.port }),
    ...(decode(url.pathname.replace(/^\//, '')) !== undefined && { database: decode(url.pathname.slice(1))! }),
    ...(decode(url.username) !== undefined && { user: decode(url.username)! }),
    hasPassword: url.password !== '',
  };
}

/**
 * The connection of store `storeName`: the settings entry, the URL its `urlEnv` names, libpq's environment, and a
 * password from the secret, PGPASSWORD or ~/.pgpass. Throws a StoreError naming every missing piece and where it
 * may be set.
 */
export function resolveStoreConnection(storeName: string, sources: ConnectionSources = {}): StoreConnection {
  const env = sources.env ?? {};
  const entry = sources.settings?.[storeName];
  const entryName = `${settingName}[${JSON.stringify(storeName)}]`;
  const warnings: string[] = [];

  if (entry !== undefined && (typeof entry !== 'object' || entry === null || Array.isArray(entry))) {
    throw new StoreError(`expected ${entryName} to be an object { host, port, database, user, schema, urlEnv }`);
  }
  if (entry && 'password' in entry) {
    warnings.push(
      `${entryName}.password is not used: a password comes from "Qrels Studio: Set Store Password", PGPASSWORD or ~/.pgpass, never from settings`,
    );
  }
  for (const key of Object.keys(entry ?? {})) {
    if (key === 'password' || (entryFields as readonly string[]).includes(key)) continue;
    const near = entryFields.find((field) => field.toLowerCase() === key.toLowerCase());
    warnings.push(
      `${entryName}.${key} is not used: ${near !== undefined ? `did you mean ${near}? ` : ''}an entry has ${entryFields.join(', ')}`,
    );
  }
  const timeouts = { ...defaultTimeouts };
  for (const field of timeoutFields) {
    const value: unknown = entry?.[field];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > maxTimeoutMs) {
      throw new StoreError(
        `store "${storeName}": expected ${entryName}.${field} to be a whole number of milliseconds from 0 (off) to ${maxTimeoutMs}, found ${JSON.stringify(value)}`,
      );
    }
    timeouts[field] = value;
  }

  let url: ReturnType<typeof parseUrl> | undefined;
  if (entry?.urlEnv !== undefined) {
    const text = env[entry.urlEnv];
    if (text === undefined || text === '') {
      throw new StoreError(
        `store "${storeName}": expected a postgres:// URL in the environment variable ${entry.urlEnv} (${entryName}.urlEnv names it), found it unset`,
      );
    }
    url = parseUrl(text, entry.urlEnv);
    if (url.hasPassword) {
      warnings.push(
        `the password in the URL of ${entry.urlEnv} is not used: a password comes from "Qrels Studio: Set Store Password", PGPASSWORD or ~/.pgpass`,
      );
    }
  }

  const pick = (piece: 'host' | 'port' | 'database' | 'user', envName: string): Found | undefined => {
    const fromSettings = entry?.[piece];
    if (fromSettings !== undefined && fromSettings !== '') {
      return { value: String(fromSettings), source: `${entryName}.${piece}` };
    }
    const fromUrl = url?.[piece];
    if (fromUrl !== undefined) return { value: fromUrl, source: `the URL in ${entry!.urlEnv}` };
    const fromEnv = env[envName];
    if (fromEnv !== undefined && fromEnv !== '') return { value: fromEnv, source: envName };
    return undefined;
  };

  const host = pick('host', 'PGHOST');
  const port = pick('port', 'PGPORT') ?? { value: '5432', source: 'the default port' };
  const database = pick('database', 'PGDATABASE');
  const user = pick('user', 'PGUSER');

  const missing: string[] = [];
  const where = (piece: string, envName: string) =>
    `${piece} (set ${entryName}.${piece}, ${envName}${entry?.urlEnv ? `, or put it in the URL of ${entry.urlEnv}` : `, or a URL in the variable ${entryName}.urlEnv names`})`;
  if (!host) missing.push(where('host', 'PGHOST'));
  if (!database) missing.push(where('database', 'PGDATABASE'));
  if (!user) missing.push(where('user', 'PGUSER'));
  if (missing.length > 0) {
    const configured = entry === undefined ? ` (no ${entryName} setting)` : '';
    throw new StoreError(
      `store "${storeName}" cannot connect${configured}: expected a ${missing.join(', a ')}; found none`,
    );
  }

  const portNumber = Number(port.value);
  if (!Number.isInteger(portNumber) || portNumber < 1 || portNumber > 65535) {
    throw new StoreError(
      `store "${storeName}": expected a port from 1 to 65535 in ${port.source}, found ${port.value}`,
    );
  }

  const schema = entry?.schema;
  if (schema !== undefined && !identifier.test(schema)) {
    throw new StoreError(
      `store "${storeName}": expected ${entryName}.schema to be a plain name (letters, digits, _), found ${JSON.stringify(schema)}`,
    );
  }

  let password: string | undefined;
  let passwordSource = '~/.pgpass (or PGPASSFILE), or none';
  if (sources.secret !== undefined && sources.secret !== '') {
    password = sources.secret;
    passwordSource = 'the secret storage';
  } else if (env.PGPASSWORD !== undefined && env.PGPASSWORD !== '') {
    password = env.PGPASSWORD;
    passwordSource = 'PGPASSWORD';
  }

  const config: StoreConnection['config'] = {
    host: host!.value,
    port: portNumber,
    database: database!.value,
    user: user!.value,
    ...(password !== undefined && { password }),
    ...(schema !== undefined && { options: `-c search_path=${schema}` }),
    ...timeoutConfig(timeouts),
  };
  return {
    config,
    ...(schema !== undefined && { schema }),
    sources: {
      host: host!.source,
      port: port.source,
      database: database!.source,
      user: user!.source,
      password: passwordSource,
    },
    warnings,
    location: `postgres:${storeName}`,
    timeouts,
  };
}
