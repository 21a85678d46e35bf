// The PostgreSQL side of moving a record (core/store/storeCopy.ts): the tables of the store's schema read from the
// catalogue, their rows read through cursors in one REPEATABLE READ snapshot, and another store's rows loaded in ONE
// transaction — the emptiness check, every INSERT (ids as given) and each identity moved past the copied ids with
// setval — so a failure anywhere (a bad row, the server gone) leaves the database as it was.
import type pg from 'pg';
import type { RecordTables, TableBatch, TableShape } from '../storeCopy.ts';
import { StoreError } from '../studyDatabase.ts';
import { isConnectionLost, RecordUnreachableError } from './postgresContext.ts';

/** The migrations' own table: not part of a record. */
const versionTable = 'schema_version';
/** PostgreSQL takes at most 65535 parameters per statement. */
const maxParameters = 60000;

const ident = (name: string): string => `"${name.replaceAll('"', '""')}"`;

export class PostgresTables implements RecordTables {
  readonly location: string;
  private readonly pool: pg.Pool;

  constructor(pool: pg.Pool, location: string) {
    this.pool = pool;
    this.location = location;
  }

  async tables(): Promise<TableShape[]> {
    return tablesOf(this.pool);
  }

  async contents(): Promise<{ rows: Map<string, number>; studies: string[] }> {
    return contentsOf(this.pool, await tablesOf(this.pool));
  }

  async *exportTables(tables: readonly TableShape[], batchRows: number): AsyncIterable<TableBatch> {
    const client = await connect(this.pool, this.location);
    let broken: Error | undefined;
    // A checked-out connection that breaks (server stopped) emits an error: caught here, as postgresContext does.
    const onError = (error: Error): void => {
      broken = error;
    };
    client.on('error', onError);
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const keys = await primaryKeys(client);
      for (const table of tables) {
        const order = (keys.get(table.name) ?? table.columns).map(ident).join(', ');
        await client.query(
          `DECLARE copy_rows NO SCROLL CURSOR FOR SELECT ${table.columns.map(ident).join(', ')} FROM ${ident(table.name)} ORDER BY ${order}`,
        );
        for (;;) {
          const result = await client.query({ text: `FETCH ${batchRows} FROM copy_rows`, rowMode: 'array' });
          if (result.rows.length === 0) break;
          yield { table: table.name, columns: table.columns, rows: result.rows as unknown[][] };
          if (result.rows.length < batchRows) break;
        }
        await client.query('CLOSE copy_rows');
      }
      await client.query('COMMIT');
    } catch (error) {
      if (isConnectionLost(error) || broken !== undefined) {
        broken ??= error as Error;
        throw new RecordUnreachableError(this.location, error);
      }
      await client.query('ROLLBACK').catch((rollbackError: Error) => {
        broken = rollbackError;
      });
      throw error;
    } finally {
      client.release(broken);
      if (broken === undefined) client.removeListener('error', onError);
    }
  }

  async importTables(
    batches: AsyncIterable<TableBatch>,
    refuse: (contents: { rows: Map<string, number>; studies: string[] }) => Error | undefined,
  ): Promise<void> {
    const client = await connect(this.pool, this.location);
    let broken: Error | undefined;
    let committing = false;
    const onError = (error: Error): void => {
      broken = error;
    };
    client.on('error', onError);
    try {
      await client.query('BEGIN');
      const tables = await tablesOf(client);
      // Nobody else writes the record while it is checked empty and filled (a sync or an import waits, then sees it).
      for (const table of tables) await client.query(`LOCK TABLE ${ident(table.name)} IN SHARE ROW EXCLUSIVE MODE`);
      const refusal = refuse(await contentsOf(client, tables));
      if (refusal !== undefined) throw refusal;
      for await (const batch of batches) {
        const width = batch.columns.length;
        const perStatement = Math.max(1, Math.floor(maxParameters / width));
        for (let start = 0; start < batch.rows.length; start += perStatement) {
          const rows = batch.rows.slice(start, start + perStatement);
          const values = rows
            .map((_, r) => `(${batch.columns.map((_, c) => `$${r * width + c + 1}`).join(', ')})`)
            .join(', ');
          await client.query(
            `INSERT INTO ${ident(batch.table)} (${batch.columns.map(ident).join(', ')}) OVERRIDING SYSTEM VALUE VALUES ${values}`,
            rows.flat(),
          );
        }
      }
      // Each identity past the largest copied id, so the next row the store adds gets the id SQLite would give it.
      const identities = await client.query<{ table_name: string; column_name: string }>(
        `SELECT c.relname AS table_name, a.attname AS column_name
           FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
          WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r' AND a.attidentity <> ''
          ORDER BY c.relname`,
      );
      for (const { table_name, column_name } of identities.rows) {
        await client.query(
          `SELECT setval(pg_get_serial_sequence($1, $2), COALESCE(MAX(${ident(column_name)}), 0) + 1, false) FROM ${ident(table_name)}`,
          [ident(table_name), column_name],
        );
      }
      committing = true;
      await client.query('COMMIT');
    } catch (error) {
      if (isConnectionLost(error) || (broken !== undefined && !(error instanceof StoreError))) {
        // The server rolls back a transaction whose connection is gone — unless COMMIT was already on its way.
        broken ??= error as Error;
        throw new RecordUnreachableError(this.location, error, committing);
      }
      await client.query('ROLLBACK').catch((rollbackError: Error) => {
        broken = rollbackError;
      });
      throw error;
    } finally {
      // A connection that broke is not given back to the pool (and keeps its listener: the socket may report late).
      client.release(broken);
      if (broken === undefined) client.removeListener('error', onError);
    }
  }
}

/** A pooled connection, or the StoreError saying the server cannot be reached. */
async function connect(pool: pg.Pool, location: string): Promise<pg.PoolClient> {
  try {
    return await pool.connect();
  } catch (error) {
    throw isConnectionLost(error) ? new RecordUnreachableError(location, error) : error;
  }
}

type Queryable = Pick<pg.Pool, 'query'> | pg.PoolClient;

async function tablesOf(db: Queryable): Promise<TableShape[]> {
  const { rows } = await db.query<{ name: string; columns: string[]; refs: string[] }>(
    `SELECT c.relname AS name,
            ARRAY(SELECT a.attname::text FROM pg_attribute a
                   WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum) AS columns,
            ARRAY(SELECT DISTINCT r.relname::text FROM pg_constraint f JOIN pg_class r ON r.oid = f.confrelid
                   WHERE f.conrelid = c.oid AND f.contype = 'f') AS refs
       FROM pg_class c
      WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r' AND c.relname <> $1
      ORDER BY c.relname`,
    [versionTable],
  );
  return rows.map((r) => ({ name: r.name, columns: r.columns, references: r.refs }));
}

async function contentsOf(
  db: Queryable,
  tables: readonly TableShape[],
): Promise<{ rows: Map<string, number>; studies: string[] }> {
  const rows = new Map<string, number>();
  if (tables.length > 0) {
    const { rows: counts } = await db.query<{ name: string; n: number }>(
      tables.map((t) => `SELECT '${t.name}' AS name, COUNT(*)::integer AS n FROM ${ident(t.name)}`).join(' UNION ALL '),
    );
    for (const { name, n } of counts) if (n > 0) rows.set(name, n);
  }
  const studies = tables.some((t) => t.name === 'study')
    ? (await db.query<{ name: string }>('SELECT name FROM study ORDER BY id')).rows.map((r) => r.name)
    : [];
  return { rows, studies };
}

/** Each table's primary-key columns, in key order (the order rows are read in). */
async function primaryKeys(db: Queryable): Promise<Map<string, string[]>> {
  const { rows } = await db.query<{ name: string; columns: string[] }>(
    `SELECT c.relname AS name,
            ARRAY(SELECT a.attname::text FROM unnest(i.indkey) WITH ORDINALITY k(attnum, n)
                    JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum ORDER BY k.n) AS columns
       FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
      WHERE i.indisprimary AND c.relnamespace = current_schema()::regnamespace`,
  );
  return new Map(rows.map((r) => [r.name, r.columns]));
}
