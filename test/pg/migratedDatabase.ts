// Migrated test databases, cheaply: migrating a fresh database to the newest schema (every migration, each in its own
// transaction) costs a PostgreSQL test 0.4–1 s; copying a database that is already migrated (`CREATE DATABASE …
// TEMPLATE`) costs a few tens of ms. migratedTestDatabase() gives a fresh database copied from the cluster's migrated
// template, which the first process that needs it makes (once per cluster).
//
// The template:
// - is named by the newest schema version and a hash of every migration's SQL, so a template of an older schema
//   (or of SQL edited since) is never used: a different schema is a different name;
// - is made under an advisory lock of the cluster's `postgres` database, so processes that race make it once (the
//   others wait on the lock, then find it); it is built under a `…_building` name, migrated through the adapter's own
//   migratePostgres, closed, marked a template that nobody may connect to (ALLOW_CONNECTIONS false: CREATE DATABASE
//   … TEMPLATE fails while anyone is connected to the template) and only then renamed to its name, so a half-made
//   template (a process killed while building) is never copied: the next maker drops the leftover and builds again;
// - holds the migrations' tables and nothing role-specific: roles are cluster-wide (not part of any database) and no
//   migration grants anything; `store grant` runs on a test's copy, never on the template.
// testDatabase() (test/pg/pgCluster.ts) still gives an EMPTY database, for the tests of the migrations themselves.
import { createHash } from 'node:crypto';
import pg from 'pg';
import { postgresMigrations } from '../../core/store/postgres/migrations/postgresMigrations.ts';
import { migratePostgres } from '../../core/store/postgres/postgresMigrate.ts';
import { type ClusterAddress, runCluster, testDatabase } from './pgCluster.ts';

/** `QRELS_STUDIO_PG_TEMPLATE=off` makes migratedTestDatabase() migrate each database itself, as before the template. */
export const templateVariable = 'QRELS_STUDIO_PG_TEMPLATE';

/** The template's name: the newest schema version and a hash of the migrations' SQL (63 bytes at most). */
export const migratedTemplateName = (() => {
  const hash = createHash('sha256');
  for (const migration of postgresMigrations) hash.update(`${migration.version}\0${migration.sql}\0`);
  return `qrels_template_v${postgresMigrations.at(-1)?.version ?? 0}_${hash.digest('hex').slice(0, 16)}`;
})();

/** The session advisory lock (two-key form) on the `postgres` database under which a template is made. */
const templateLock = [0x51524c53, 0x7e3] as const;

async function templateExists(admin: pg.Client, name: string): Promise<boolean> {
  const { rows } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1 AND datistemplate', [name]);
  return rows.length > 0;
}

async function makeTemplate({ host, port, user }: ClusterAddress): Promise<string> {
  const name = migratedTemplateName;
  const building = `${name}_building`;
  const admin = new pg.Client({ host, port, user, database: 'postgres', application_name: 'qrels-studio-template' });
  await admin.connect();
  try {
    if (await templateExists(admin, name)) return name;
    await admin.query('SELECT pg_advisory_lock($1, $2)', [...templateLock]);
    try {
      if (await templateExists(admin, name)) return name;
      await admin.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
      await admin.query(`CREATE DATABASE "${building}"`);
      const pool = new pg.Pool({ host, port, user, database: building, max: 1 });
      pool.on('error', () => {});
      try {
        await migratePostgres(pool);
      } finally {
        await pool.end();
      }
      // No connection to it is left (the pool's is closed; the server waits up to 5 s for its backend to exit).
      await admin.query(`ALTER DATABASE "${building}" WITH ALLOW_CONNECTIONS false IS_TEMPLATE true`);
      await admin.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
      return name;
    } finally {
      await admin.query('SELECT pg_advisory_unlock($1, $2)', [...templateLock]);
    }
  } finally {
    await admin.end();
  }
}

/** Per cluster (host:port): the name of its migrated template, once made or found. */
const templates = new Map<string, Promise<string>>();

/** The migrated template of `cluster` (made on first use; a failed attempt is tried again by the next call). */
export function migratedTemplate(cluster: ClusterAddress): Promise<string> {
  const key = `${cluster.host}:${cluster.port}`;
  let template = templates.get(key);
  if (template === undefined) {
    template = makeTemplate(cluster);
    templates.set(key, template);
    template.catch(() => templates.delete(key));
  }
  return template;
}

/**
 * A fresh database in the run's cluster at the newest schema (a copy of the migrated template), for one test: how to
 * connect to it. PostgresStudyStore.open on it finds nothing to migrate.
 */
export async function migratedTestDatabase(): Promise<pg.ClientConfig & { database: string }> {
  const cluster = await runCluster();
  if (process.env[templateVariable] === 'off') {
    // As before the template: a fresh database, migrated on its own (to compare times, or to rule the template out).
    const config = await testDatabase();
    const pool = new pg.Pool({ ...config, max: 1 });
    pool.on('error', () => {});
    try {
      await migratePostgres(pool);
    } finally {
      await pool.end();
    }
    return config;
  }
  try {
    return await testDatabase({ template: await migratedTemplate(cluster) });
  } catch (error) {
    // A template this process found is gone (another cluster came up on the same port): make it again, once.
    if ((error as { code?: string }).code !== '3D000') throw error;
    templates.delete(`${cluster.host}:${cluster.port}`);
    return testDatabase({ template: await migratedTemplate(cluster) });
  }
}
