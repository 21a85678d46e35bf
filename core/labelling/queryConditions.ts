// The numbered conditions of a query, from the study's `conditions from FIELD`: what the Label view shows as
// checkboxes and what condition_judgment rows number (condition i is item i - 1 here).
//
// FIELD is a query role (`text`, `instruction`, `type`), or the data file's field a role was mapped from (for
// `instruction: instr`, `instr` reads the instruction), or a field no role took, kept in query.metadata (a dotted
// path reaches into nested objects). Its value becomes conditions by this rule:
// - missing, null or empty (after trimming) → no conditions;
// - a JSON array → its items, each trimmed (numbers and booleans as their text; empty items are an error, as is
//   anything else that is not a string);
// - a number or boolean → one condition, its text; an object → an error;
// - a string → the first of these that gives two or more items, else the whole string as one condition:
//   1. a numbered list: markers `1.`, `1)` or `(1)` at the start or after whitespace or `:`/`;`/`,`, followed by
//      whitespace, numbered 1, 2, 3, … in one style. The text before marker 1 (a lead-in such as "the case must
//      meet these conditions:") is not a condition. Each item loses a trailing `;` or `,` (and a following "and"
//      or "or"), and its line breaks become spaces;
//   2. lines: one condition per non-empty line, a leading bullet (`-`, `*`, `•`) removed;
//   3. `; ` (a semicolon and whitespace): one condition per part.
import type { StudyModel } from '../dsl/model.ts';
import { StoreError } from '../store/studyDatabase.ts';

/** The columns of a query row conditions can be read from. */
export interface QueryFields {
  qid: string;
  text: string;
  instruction: string | null;
  type: string | null;
  /** The fields no role took (JSON text), as stored. */
  metadata: string | null;
}

const queryRoles = ['text', 'instruction', 'type'] as const;
type QueryRole = (typeof queryRoles)[number];

/** The conditions of `query` under `study`'s `conditions from FIELD` ([] when the study declares none). */
export function queryConditions(study: Pick<StudyModel, 'conditionsFrom' | 'queries'>, query: QueryFields): string[] {
  const field = study.conditionsFrom;
  if (field === undefined) return [];
  const role = roleOf(field, study.queries?.fields ?? {});
  const value = role !== undefined ? query[role] : metadataField(query, field);
  return splitConditions(value, () => `query '${query.qid}', conditions from ${field}`);
}

/** The role FIELD names: itself, or the role the study's `queries` mapping reads from that field. */
function roleOf(field: string, mapping: Record<string, string>): QueryRole | undefined {
  if ((queryRoles as readonly string[]).includes(field)) return field as QueryRole;
  for (const role of queryRoles) if (mapping[role] === field) return role;
  return undefined;
}

function metadataField(query: QueryFields, field: string): unknown {
  if (query.metadata === null) return undefined;
  let metadata: unknown;
  try {
    metadata = JSON.parse(query.metadata);
  } catch {
    throw new StoreError(`query '${query.qid}': its stored metadata is not JSON: import the queries again`);
  }
  if (typeof metadata !== 'object' || metadata === null) return undefined;
  const record = metadata as Record<string, unknown>;
  if (field in record) return record[field];
  let value: unknown = record;
  for (const part of field.split('.')) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** A field's value as conditions (the rule in the header); `where` names the query and field for errors. */
export function splitConditions(value: unknown, where: () => string): string[] {
  if (value === undefined || value === null) return [];
  if (typeof value === 'number' || typeof value === 'boolean') return [String(value)];
  if (Array.isArray(value)) {
    return value.map((item, i) => {
      const text =
        typeof item === 'string'
          ? item.trim()
          : typeof item === 'number' || typeof item === 'boolean'
            ? String(item)
            : undefined;
      if (text === undefined || text === '') {
        throw new StoreError(
          `${where()}: expected item ${i + 1} of the list to be a condition (text), found ${text === '' ? 'an empty string' : describe(item)}`,
        );
      }
      return text;
    });
  }
  if (typeof value !== 'string') {
    throw new StoreError(`${where()}: expected text or a list of conditions, found ${describe(value)}`);
  }
  const text = value.trim();
  if (text === '') return [];
  for (const split of [numberedItems, lineItems, semicolonItems]) {
    const items = split(text);
    if (items.length >= 2) return items;
  }
  return [text];
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

const markerStyles = [
  { name: 'dot', pattern: (n: number) => `${n}\\.` },
  { name: 'paren', pattern: (n: number) => `${n}\\)` },
  { name: 'parens', pattern: (n: number) => `\\(${n}\\)` },
] as const;

/** A marker of item `n` in one style, where a list marker may stand, followed by whitespace. */
function markerAt(text: string, from: number, pattern: string): { start: number; end: number } | undefined {
  const regex = new RegExp(`(?<=^|[\\s:;,])${pattern}(?=\\s)`, 'g');
  regex.lastIndex = from;
  const match = regex.exec(text);
  return match ? { start: match.index, end: match.index + match[0].length } : undefined;
}

function numberedItems(text: string): string[] {
  // The style whose marker 1 comes first (and is followed by a marker 2) makes the list.
  let best: { start: number; end: number }[] | undefined;
  for (const style of markerStyles) {
    const markers: { start: number; end: number }[] = [];
    for (let n = 1; ; n++) {
      const marker = markerAt(text, markers.at(-1)?.end ?? 0, style.pattern(n));
      if (!marker) break;
      markers.push(marker);
    }
    if (markers.length >= 2 && (best === undefined || markers[0]!.start < best[0]!.start)) best = markers;
  }
  if (!best) return [];
  return best.map((marker, i) => cleanItem(text.slice(marker.end, best[i + 1]?.start ?? text.length)));
}

/** An item without its surrounding whitespace, its trailing separator (`;`, `,`, "; and") or its line breaks. */
function cleanItem(item: string): string {
  return item
    .replace(/\s*\n\s*/g, ' ')
    .trim()
    .replace(/\s*[;,]\s*(?:(?:and|or)\s*)?$/i, '')
    .trim();
}

function lineItems(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim().replace(/^[-*•]\s+/, ''))
    .filter((line) => line !== '');
}

function semicolonItems(text: string): string[] {
  return text
    .split(/;\s+/)
    .map((part) => part.trim())
    .filter((part) => part !== '');
}
