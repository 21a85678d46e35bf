// The one rule for recording an annotator (core/store/sqlite/annotators.ts), in PostgreSQL, inside whatever
// transaction a write is in: a name is added once with its kind (a person, or an LLM judge `llm:<model>@<prompt-hash>`),
// and a name recorded as one kind is never used as the other. Same messages as SQLite's, naming the store's location.
//
// The name is read first and inserted only when it is not there: no row lock is taken on a known annotator (many
// processes labelling under their own names never wait on each other), and no identity value is spent on a name
// that exists (an INSERT … ON CONFLICT draws one even when it conflicts), so ids come out 1, 2, 3… as in SQLite.
// When another transaction adds the same name meanwhile, `ON CONFLICT DO NOTHING` waits for it and returns nothing,
// and the name is read again (a new statement: under READ COMMITTED, a snapshot that sees that commit).
import type { AnnotatorKind } from '../port/studiesPort.ts';
import { impliedAnnotatorKind } from '../sqlite/annotators.ts';
import { StoreError } from '../studyDatabase.ts';
import type { PostgresClient } from './postgresContext.ts';

export { impliedAnnotatorKind };

/** The id of annotator `name`, adding it as `kind` if new; a StoreError if it is recorded as the other kind. */
export async function ensureAnnotatorId(
  client: PostgresClient,
  location: string,
  name: string,
  kind: AnnotatorKind = impliedAnnotatorKind(name),
): Promise<number> {
  const known = 'SELECT id, kind FROM annotator WHERE name = $1';
  let { rows } = await client.query<{ id: number; kind: AnnotatorKind }>(known, [name]);
  if (rows.length === 0) {
    ({ rows } = await client.query<{ id: number; kind: AnnotatorKind }>(
      'INSERT INTO annotator (name, kind) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING RETURNING id, kind',
      [name, kind],
    ));
  }
  if (rows.length === 0) ({ rows } = await client.query<{ id: number; kind: AnnotatorKind }>(known, [name]));
  const row = rows[0];
  if (row === undefined) throw new Error(`annotator '${name}' was neither added nor found in ${location}`);
  if (row.kind !== kind) {
    throw new StoreError(
      row.kind === 'llm'
        ? `'${name}' is an LLM judge in ${location}, not a person`
        : `'${name}' is a person in ${location}, not an LLM judge`,
    );
  }
  return row.id;
}
