// Moving a study's record between stores (`qrels-studio store copy`): every table of the schema, row for row with
// its ids, from one store's tables to another's — all or nothing. The SQL lives in each adapter's tables module
// (sqlite/sqliteTables.ts, postgres/postgresTables.ts); this module puts the tables in dependency order (a table
// after every table it references) and streams the rows across in batches, so a record is never held in memory
// whole. The target refuses when it already holds anything (naming what), and writes nothing unless it writes all.
// On PostgreSQL the record is the tables of one schema (the connection's current_schema(): the store entry's
// `schema`, or the default one), so one database holds the records of several study files, one schema each.
import { StoreError } from './studyDatabase.ts';

/** One table as a store's catalogue describes it. */
export interface TableShape {
  name: string;
  /** Its columns, in declaration order. */
  columns: readonly string[];
  /** The tables its foreign keys reference (itself included when it references itself). */
  references: readonly string[];
}

/** Some rows of one table, each an array in the order of `columns`. */
export interface TableBatch {
  table: string;
  columns: readonly string[];
  rows: unknown[][];
}

/** What a store's adapter offers the copy: its tables, their rows, and an all-or-nothing load of another's. */
export interface RecordTables {
  /** Where the record is, for messages (a file path, `postgres:<store>`). */
  readonly location: string;
  /** Every table of the record (the schema's own version table left out). */
  tables(): Promise<TableShape[]>;
  /** How many rows each non-empty table holds, and the names in its `study` table. */
  contents(): Promise<{ rows: Map<string, number>; studies: string[] }>;
  /** The rows of `tables` (in that order), each table's in primary-key order, `batchRows` rows at most per batch. */
  exportTables(tables: readonly TableShape[], batchRows: number): AsyncIterable<TableBatch>;
  /**
   * Loads `batches` (dependency order) into this store, which must hold nothing (checked inside the same
   * transaction, `refuse` turning what is there into the error): all the rows, or none of them.
   */
  importTables(
    batches: AsyncIterable<TableBatch>,
    refuse: (contents: { rows: Map<string, number>; studies: string[] }) => Error | undefined,
  ): Promise<void>;
}

export interface CopyReport {
  /** Rows copied per table, in the order they were copied. */
  rows: Map<string, number>;
}

/** Rows per batch: a few thousand rows of a wide table are a few megabytes. */
export const copyBatchRows = 2000;

/** `tables` ordered so that every table comes after the tables it references (a refusal on a cycle). */
export function dependencyOrder(tables: readonly TableShape[]): TableShape[] {
  const byName = new Map(tables.map((t) => [t.name, t]));
  const ordered: TableShape[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (table: TableShape, path: string[]): void => {
    const seen = state.get(table.name);
    if (seen === 'done') return;
    if (seen === 'visiting') {
      throw new StoreError(
        `cannot order the tables to copy: ${[...path, table.name].join(' → ')} reference each other`,
      );
    }
    state.set(table.name, 'visiting');
    for (const name of [...table.references].sort()) {
      const referenced = byName.get(name);
      if (referenced !== undefined && name !== table.name) visit(referenced, [...path, table.name]);
    }
    state.set(table.name, 'done');
    ordered.push(table);
  };
  for (const table of [...tables].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) visit(table, []);
  return ordered;
}

/**
 * What `contents` says is already in `location`, as the refusal a copy gives, or nothing when it is empty;
 * `advice` (where exactly the record was found, and what to do instead) ends it.
 */
export function nonEmptyRefusal(
  location: string,
  contents: { rows: Map<string, number>; studies: string[] },
  advice?: string,
): StoreError | undefined {
  if (contents.rows.size === 0) return undefined;
  const tables = [...contents.rows].map(([table, n]) => `${table} ${n}`).join(', ');
  const studies = contents.studies.map((s) => `'${s}'`).join(', ');
  return new StoreError(
    `${location} already holds a record${studies === '' ? '' : ` (studies ${studies})`} — rows: ${tables}; a copy goes into an empty store only, nothing was copied${advice === undefined ? '' : `. ${advice}`}`,
  );
}

/**
 * Copies the whole record of `from` into `to`, ids and all. Refused (nothing written) when the two stores' schemas
 * differ, when `from` holds no study, or when `to` holds anything.
 */
export async function copyRecord(
  from: RecordTables,
  to: RecordTables,
  options: {
    batchRows?: number;
    /** Ends the refusal of a target that holds a record: where it was found, what to do instead. */
    targetAdvice?: string;
  } = {},
): Promise<CopyReport> {
  const [source, target] = await Promise.all([from.tables(), to.tables()]);
  const targetByName = new Map(target.map((t) => [t.name, t]));
  const differences: string[] = [];
  for (const table of source) {
    const other = targetByName.get(table.name);
    if (other === undefined) differences.push(`table ${table.name} is missing from ${to.location}`);
    else if (other.columns.join(',') !== table.columns.join(',')) {
      const extra = [...table.columns.filter((c) => !other.columns.includes(c))];
      const missing = [...other.columns.filter((c) => !table.columns.includes(c))];
      differences.push(
        `table ${table.name} has ` +
          [
            extra.length > 0 && `columns ${extra.join(', ')} only in ${from.location}`,
            missing.length > 0 && `columns ${missing.join(', ')} only in ${to.location}`,
          ]
            .filter(Boolean)
            .join(' and ') || `columns in another order in ${to.location}`,
      );
    }
  }
  for (const table of target)
    if (!source.some((t) => t.name === table.name))
      differences.push(`table ${table.name} is missing from ${from.location}`);
  if (differences.length > 0) {
    throw new StoreError(`cannot copy ${from.location} to ${to.location}: ${differences.join('; ')}`);
  }
  const sourceContents = await from.contents();
  if (sourceContents.studies.length === 0) {
    throw new StoreError(`${from.location} holds no study: nothing to copy`);
  }
  const ordered = dependencyOrder(source);
  const rows = new Map<string, number>();
  let table: string | undefined;
  async function* counted(): AsyncIterable<TableBatch> {
    for await (const batch of from.exportTables(ordered, options.batchRows ?? copyBatchRows)) {
      table = batch.table;
      rows.set(batch.table, (rows.get(batch.table) ?? 0) + batch.rows.length);
      yield batch;
    }
  }
  try {
    await to.importTables(counted(), (contents) => nonEmptyRefusal(to.location, contents, options.targetAdvice));
  } catch (error) {
    if (error instanceof StoreError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new StoreError(
      `copying ${from.location} to ${to.location} failed${table === undefined ? '' : ` at table ${table}`}: ${message}; nothing was copied (${to.location} is as it was)`,
    );
  }
  return { rows };
}
