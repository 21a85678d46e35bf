// The kinds of record files the linter knows, told apart by their field names (a JSONL file's first record, a
// CSV/TSV header), and what each needs: BEIR's loader reads `_id`, `title` and `text` of a corpus record and `_id`
// and `text` of a query; a CRUMB run line is `{"query": {"id": …}, "items": [{"id": …, "score": …}, …]}`.
import type { RecordKind } from './types.ts';

export function detectRecordKind(fields: readonly string[]): RecordKind {
  const has = (name: string): boolean => fields.includes(name);
  if (has('_id') && has('text') && has('title')) return 'beir-corpus';
  if (has('_id') && has('text')) return 'beir-queries';
  if (has('query') && has('items')) return 'crumb-run';
  return 'records';
}

/** The fields every record of the kind must have. */
export const kindFields: Record<RecordKind, readonly string[]> = {
  records: [],
  'beir-corpus': ['_id', 'title', 'text'],
  'beir-queries': ['_id', 'text'],
  'crumb-run': ['query', 'items'],
};

/** Why a kind needs its fields, for messages. */
const kindReasons: Record<RecordKind, string> = {
  records: '',
  'beir-corpus': 'a BEIR corpus record has _id, title and text',
  'beir-queries': 'a BEIR query has _id and text',
  'crumb-run': 'a CRUMB run line has query and items',
};

/** The id field of a kind when the study does not name one. */
export const kindIdFields: Record<RecordKind, string | undefined> = {
  records: undefined,
  'beir-corpus': '_id',
  'beir-queries': '_id',
  'crumb-run': 'query.id',
};

export const kindNames: Record<RecordKind, string> = {
  records: 'records',
  'beir-corpus': 'a BEIR corpus',
  'beir-queries': 'BEIR queries',
  'crumb-run': 'a CRUMB run',
};

export interface RequiredField {
  name: string;
  /** Why it is required: "mapped to text in the study", "a BEIR query has _id and text". */
  reason: string;
}

/** The fields each record needs: the study's mapped fields, then the kind's own. */
export function requiredFields(kind: RecordKind, mapping: Record<string, string> | undefined): RequiredField[] {
  const fields: RequiredField[] = [];
  const seen = new Set<string>();
  for (const [role, name] of Object.entries(mapping ?? {})) {
    if (seen.has(name)) continue;
    seen.add(name);
    fields.push({ name, reason: `mapped to ${role} in the study` });
  }
  for (const name of kindFields[kind]) {
    if (seen.has(name)) continue;
    seen.add(name);
    fields.push({ name, reason: kindReasons[kind] });
  }
  return fields;
}
