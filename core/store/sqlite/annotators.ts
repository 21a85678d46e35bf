// The one rule for recording an annotator, inside whatever transaction a write is in: a name is added once with
// its kind (a person, or an LLM judge `llm:<model>@<prompt-hash>`), and a name recorded as one kind is never used
// as the other — a person cannot label under a judge's name, a judge's calls cannot land under a person's.
import type { AnnotatorKind } from '../port/studiesPort.ts';
import type { SqliteDatabase } from '../sqliteDatabase.ts';
import { StoreError } from '../studyDatabase.ts';

/** The kind a name implies when nobody says: judges are named `llm:…`. */
export function impliedAnnotatorKind(name: string): AnnotatorKind {
  return name.startsWith('llm:') ? 'llm' : 'human';
}

/** The id of annotator `name`, adding it as `kind` if new; a StoreError if it is recorded as the other kind. */
export function ensureAnnotatorId(
  db: SqliteDatabase,
  file: string,
  name: string,
  kind: AnnotatorKind = impliedAnnotatorKind(name),
): number {
  const row = db
    .prepare(
      `INSERT INTO annotator (name, kind) VALUES (?, ?)
       ON CONFLICT (name) DO UPDATE SET name = excluded.name RETURNING id, kind`,
    )
    .get(name, kind) as { id: number; kind: AnnotatorKind };
  if (row.kind !== kind) {
    throw new StoreError(
      row.kind === 'llm'
        ? `'${name}' is an LLM judge in ${file}, not a person`
        : `'${name}' is a person in ${file}, not an LLM judge`,
    );
  }
  return row.id;
}
