// What the judge's and the review's PostgreSQL methods share, inside the caller's transaction: the one annotator
// rule (core/store/sqlite/annotators.ts, same messages) and a study's id by name (same message as SQLite's).
import type { AnnotatorKind } from '../../port/studiesPort.ts';
import { impliedAnnotatorKind } from '../../sqlite/annotators.ts';
import { StoreError } from '../../studyDatabase.ts';
import type { PostgresClient } from '../postgresContext.ts';

/** The id of annotator `name`, adding it as `kind` if new; a StoreError if it is recorded as the other kind. */
export async function ensureAnnotatorIdPg(
  client: PostgresClient,
  location: string,
  name: string,
  kind: AnnotatorKind = impliedAnnotatorKind(name),
): Promise<number> {
  // A known name is read, not upserted: an INSERT … ON CONFLICT takes an id from the sequence even when the row is
  // there, and ids would then drift from SQLite's. A name added by another transaction meanwhile is read again.
  const read = () =>
    client.query<{ id: number; kind: AnnotatorKind }>('SELECT id, kind FROM annotator WHERE name = $1', [name]);
  let row = (await read()).rows[0];
  if (row === undefined) {
    const inserted = await client.query<{ id: number; kind: AnnotatorKind }>(
      'INSERT INTO annotator (name, kind) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING RETURNING id, kind',
      [name, kind],
    );
    row = inserted.rows[0] ?? ((await read()).rows[0] as { id: number; kind: AnnotatorKind });
  }
  if (row.kind !== kind) {
    throw new StoreError(
      row.kind === 'llm'
        ? `'${name}' is an LLM judge in ${location}, not a person`
        : `'${name}' is a person in ${location}, not an LLM judge`,
    );
  }
  return row.id;
}

/** The id of study (or review) `name`; a StoreError naming the ones there are when there is none. */
export async function studyIdPg(client: PostgresClient, location: string, name: string): Promise<number> {
  const { rows } = await client.query<{ id: number }>('SELECT id FROM study WHERE name = $1', [name]);
  if (rows[0] !== undefined) return rows[0].id;
  const known = await client.query<{ name: string }>('SELECT name FROM study ORDER BY name COLLATE "C"');
  const names = known.rows.map((r) => r.name).join(', ');
  throw new StoreError(`no study '${name}' in ${location} (it has: ${names || 'none'})`);
}
