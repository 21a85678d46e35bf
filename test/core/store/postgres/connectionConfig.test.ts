// Where `store postgres "name"` connects: settings, a URL in an environment variable, libpq's environment; a
// password only from the secret, PGPASSWORD or ~/.pgpass (left to node-postgres); a clear error naming what is
// missing. Pure: no database here.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  entryFields,
  resolveStoreConnection,
  timeoutFields,
} from '../../../../core/store/postgres/connectionConfig.ts';
import { defaultTimeouts, timeoutConfig } from '../../../../core/store/postgres/postgresContext.ts';
import { StoreError } from '../../../../core/store/studyDatabase.ts';

/** A resolved config without its timeout fields (checked on their own below). */
function where(config: object): object {
  const timeoutKeys = new Set(Object.keys(timeoutConfig(defaultTimeouts)));
  return Object.fromEntries(Object.entries(config).filter(([key]) => !timeoutKeys.has(key)));
}

test('from the settings entry of the store name', () => {
  const resolved = resolveStoreConnection('team-wqt', {
    settings: { 'team-wqt': { host: 'db.example', port: 6543, database: 'wqt', user: 'alice', schema: 'study1' } },
    env: {},
  });
  assert.deepEqual(where(resolved.config), {
    host: 'db.example',
    port: 6543,
    database: 'wqt',
    user: 'alice',
    options: '-c search_path=study1',
  });
  assert.equal(resolved.schema, 'study1');
  assert.equal(resolved.location, 'postgres:team-wqt');
  assert.equal(resolved.sources.host, 'qrelsStudio.stores["team-wqt"].host');
  assert.equal(resolved.sources.password, '~/.pgpass (or PGPASSFILE), or none');
  assert.deepEqual(resolved.warnings, []);
});

test("from libpq's environment, the port defaulting to 5432", () => {
  const resolved = resolveStoreConnection('x', { env: { PGHOST: '/run/pg', PGDATABASE: 'd', PGUSER: 'u' } });
  assert.deepEqual(where(resolved.config), { host: '/run/pg', port: 5432, database: 'd', user: 'u' });
  assert.equal(resolved.sources.port, 'the default port');
  const withPort = resolveStoreConnection('x', { env: { PGHOST: 'h', PGPORT: '5499', PGDATABASE: 'd', PGUSER: 'u' } });
  assert.equal(withPort.config.port, 5499);
  assert.equal(withPort.sources.port, 'PGPORT');
});

test('settings win over the URL, the URL over the environment', () => {
  const resolved = resolveStoreConnection('team', {
    settings: { team: { user: 'bob', urlEnv: 'TEAM_DB' } },
    env: { TEAM_DB: 'postgresql://carol@db.example:7000/wqt%20dev', PGHOST: 'other', PGUSER: 'dave', PGDATABASE: 'x' },
  });
  assert.deepEqual(where(resolved.config), { host: 'db.example', port: 7000, database: 'wqt dev', user: 'bob' });
  assert.equal(resolved.sources.host, 'the URL in TEAM_DB');
  assert.equal(resolved.sources.user, 'qrelsStudio.stores["team"].user');
});

test('a URL with a socket directory in ?host=', () => {
  const resolved = resolveStoreConnection('s', {
    settings: { s: { urlEnv: 'U' } },
    env: { U: 'postgres://u@localhost/db?host=/var/run/postgresql' },
  });
  assert.equal(resolved.config.host, '/var/run/postgresql');
  assert.equal(resolved.config.database, 'db');
});

test('a password only from the secret, then PGPASSWORD — never from settings or a URL', () => {
  const env = { PGHOST: 'h', PGDATABASE: 'd', PGUSER: 'u', PGPASSWORD: 'from-env' };
  assert.equal(resolveStoreConnection('s', { env, secret: 'from-secret' }).config.password, 'from-secret');
  const fromEnv = resolveStoreConnection('s', { env });
  assert.equal(fromEnv.config.password, 'from-env');
  assert.equal(fromEnv.sources.password, 'PGPASSWORD');

  const settings = { s: { urlEnv: 'U', password: 'in-settings' } as never };
  const resolved = resolveStoreConnection('s', { settings, env: { U: 'postgres://u:in-url@h/d' } });
  assert.equal(resolved.config.password, undefined, 'left to ~/.pgpass');
  assert.equal(resolved.warnings.length, 2);
  assert.match(resolved.warnings[0]!, /password is not used/);
  assert.match(resolved.warnings[1]!, /^the password in the URL of U is not used/);
});

test('a clear error naming every missing piece and where to set it', () => {
  assert.throws(
    () => resolveStoreConnection('team-wqt', { env: { PGHOST: 'h' } }),
    (error: unknown) => {
      assert.ok(error instanceof StoreError);
      assert.equal(
        error.message,
        'store "team-wqt" cannot connect (no qrelsStudio.stores["team-wqt"] setting): expected a database (set ' +
          'qrelsStudio.stores["team-wqt"].database, PGDATABASE, or a URL in the variable qrelsStudio.stores["team-wqt"].urlEnv ' +
          'names), a user (set qrelsStudio.stores["team-wqt"].user, PGUSER, or a URL in the variable ' +
          'qrelsStudio.stores["team-wqt"].urlEnv names); found none',
      );
      return true;
    },
  );
  assert.throws(
    () => resolveStoreConnection('t', { settings: { t: { urlEnv: 'TEAM_URL' } }, env: {} }),
    /^StoreError: store "t": expected a postgres:\/\/ URL in the environment variable TEAM_URL \(qrelsStudio.stores\["t"\].urlEnv names it\), found it unset$/,
  );
  assert.throws(
    () => resolveStoreConnection('t', { settings: { t: { urlEnv: 'U' } }, env: { U: 'https://h/d' } }),
    /expected a postgres:\/\/ or postgresql:\/\/ URL in the environment variable U, found a https:\/\/ URL/,
  );
  assert.throws(
    () => resolveStoreConnection('t', { env: { PGHOST: 'h', PGDATABASE: 'd', PGUSER: 'u', PGPORT: 'abc' } }),
    /expected a port from 1 to 65535 in PGPORT, found abc/,
  );
  assert.throws(
    () => resolveStoreConnection('t', { settings: { t: { host: 'h', database: 'd', user: 'u', schema: 'a;b' } } }),
    /expected qrelsStudio.stores\["t"\].schema to be a plain name/,
  );
});

test('timeouts: defaults, each overridable in the entry, 0 turning one off', () => {
  const base = { host: 'h', database: 'd', user: 'u' };
  const byDefault = resolveStoreConnection('t', { settings: { t: base } });
  assert.deepEqual(byDefault.timeouts, defaultTimeouts);
  assert.equal(byDefault.config.connectionTimeoutMillis, 10_000);
  assert.equal(byDefault.config.keepAlive, true);
  assert.equal(byDefault.config.keepAliveInitialDelayMillis, 10_000);
  assert.equal(byDefault.config.idle_in_transaction_session_timeout, 60_000);
  assert.equal(byDefault.config.statement_timeout, 0);

  const tuned = resolveStoreConnection('t', {
    settings: {
      t: {
        ...base,
        connectTimeoutMs: 2500,
        keepAliveMs: 0,
        responseTimeoutMs: 4000,
        idleInTransactionTimeoutMs: 0,
        statementTimeoutMs: 300_000,
      },
    },
  });
  assert.deepEqual(tuned.timeouts, {
    connectTimeoutMs: 2500,
    keepAliveMs: 0,
    responseTimeoutMs: 4000,
    idleInTransactionTimeoutMs: 0,
    statementTimeoutMs: 300_000,
  });
  assert.equal(tuned.config.connectionTimeoutMillis, 2500);
  assert.equal(tuned.config.keepAlive, false);
  assert.equal(tuned.config.statement_timeout, 300_000);
  assert.equal(tuned.config.idle_in_transaction_session_timeout, 0);
  assert.equal((tuned.config as unknown as Record<string, unknown>).responseTimeoutMs, undefined, 'not a pg field');
});

test('a timeout that is not whole milliseconds is a clear error naming the field; an unknown field a warning', () => {
  const base = { host: 'h', database: 'd', user: 'u' };
  for (const [value, found] of [
    ['10s', '"10s"'],
    [-1, '-1'],
    [1.5, '1.5'],
    [2 ** 31, '2147483648'],
  ] as const) {
    assert.throws(
      () => resolveStoreConnection('t', { settings: { t: { ...base, connectTimeoutMs: value as never } } }),
      (error: unknown) => {
        assert.ok(error instanceof StoreError);
        assert.equal(
          error.message,
          `store "t": expected qrelsStudio.stores["t"].connectTimeoutMs to be a whole number of milliseconds from 0 (off) to 2147483647, found ${found}`,
        );
        return true;
      },
    );
  }
  const misspelt = resolveStoreConnection('t', { settings: { t: { ...base, connecttimeoutms: 5 } as never } });
  assert.equal(misspelt.timeouts.connectTimeoutMs, defaultTimeouts.connectTimeoutMs);
  assert.deepEqual(misspelt.warnings, [
    'qrelsStudio.stores["t"].connecttimeoutms is not used: did you mean connectTimeoutMs? an entry has host, port, database, user, schema, urlEnv, connectTimeoutMs, keepAliveMs, responseTimeoutMs, idleInTransactionTimeoutMs, statementTimeoutMs',
  ]);
});

test("package.json's qrelsStudio.stores schema has exactly the entry's fields, timeouts with their defaults", () => {
  const manifest = JSON.parse(readFileSync(join(import.meta.dirname, '../../../../package.json'), 'utf8')) as {
    contributes: {
      configuration: { properties: Record<string, { additionalProperties: { properties: Record<string, unknown> } }> };
    };
  };
  const properties = manifest.contributes.configuration.properties['qrelsStudio.stores']!.additionalProperties
    .properties as Record<string, { default?: unknown }>;
  assert.deepEqual(Object.keys(properties).sort(), [...entryFields].sort());
  for (const field of timeoutFields) assert.equal(properties[field]!.default, defaultTimeouts[field], field);
});
