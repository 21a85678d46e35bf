// One record of a data file (a JSON object, a CSV row, a Parquet row, a group of dataset-viewer lines) turned into
// a query, a document or a judgment through the field mapping: role → field, a role left out read from its
// default fields, the fields no role took kept as metadata. Every way a record can be wrong is an ImportError at
// the field's position; ids seen are remembered to refuse a duplicate (naming both lines).
import { describeFound, fieldList, shown } from './describe.ts';
import {
  type DocumentFormat,
  type DocumentRecord,
  ImportError,
  type ImportOptions,
  type JudgmentRecord,
  type QueryRecord,
  type SourcePosition,
} from './types.ts';

/** A record as the converter sees it, whatever file it came from. */
export interface FieldSource {
  /** Line of the record's start (Parquet: 1-based row number). */
  readonly line: number;
  has(field: string): boolean;
  /** The field's value; undefined when the record has no such field. */
  get(field: string): unknown;
  /** The fields the record has, for messages. */
  names(): readonly string[];
  /** Where the field's value is; without a field, where the record starts. */
  position(field?: string): SourcePosition;
  /** The record's fields other than `used`. */
  metadata(used: readonly string[]): Record<string, unknown>;
}

export type Role =
  | 'id'
  | 'text'
  | 'body'
  | 'title'
  | 'instruction'
  | 'parent'
  | 'type'
  | 'split'
  | 'gold'
  | 'format'
  | 'query_id'
  | 'doc_id'
  | 'label'
  | 'annotator'
  | 'created_at'
  | 'source'
  | 'rationale'
  | 'shown_label';

/** Where a role is read from when the mapping does not say: the first of these fields the record has. */
export type RoleDefaults = Partial<Record<Role, readonly string[]>>;

export const queryDefaults: RoleDefaults = {
  id: ['id', '_id', 'qid', 'query_id', 'query-id'],
  text: ['text', 'query', 'question'],
  instruction: ['instruction'],
  parent: ['parent'],
  type: ['type'],
  split: ['split'],
};

export const documentDefaults: RoleDefaults = {
  id: ['id', '_id', 'docid', 'doc_id', 'corpus-id'],
  body: ['body', 'text', 'contents', 'content'],
  title: ['title'],
  parent: ['parent'],
};

export const judgmentDefaults: RoleDefaults = {
  query_id: ['query_id', 'qid', 'query-id'],
  doc_id: ['doc_id', 'docid', 'corpus-id'],
  label: ['label', 'score', 'rel', 'relevance'],
  annotator: ['annotator'],
  created_at: ['created_at'],
  source: ['source'],
  rationale: ['rationale', 'note'],
  shown_label: ['shown_label'],
};

const formatNames: Record<string, DocumentFormat> = {
  plain: 'plain',
  text: 'plain',
  txt: 'plain',
  markdown: 'markdown',
  md: 'markdown',
  html: 'html',
  'table-json': 'table-json',
  json: 'table-json',
  table: 'table-json',
  code: 'code',
};

/** A document format by any of its names (`md`, `text`, `json`…), or undefined. */
export function documentFormatNamed(name: string): DocumentFormat | undefined {
  return Object.hasOwn(formatNames, name.toLowerCase()) ? formatNames[name.toLowerCase()] : undefined;
}

const knownFormats = 'plain, markdown, html, table-json or code';

/**
 * A copy of a key kept for the duplicate check: V8 keeps a substring as a view of its parent (it would pin the
 * whole line) and a concatenation as a pair of its parts (116 bytes per entry instead of 61).
 */
export function detach(id: string): string {
  return id.length < 13 ? id : Buffer.from(id, 'utf8').toString('utf8');
}

type Kind = 'query' | 'document' | 'judgment';

export class RecordConverter {
  readonly file: string;
  private readonly kind: Kind;
  /** A label file: judgments are keyed by annotator too, and each needs one (its own, else `defaultAnnotator`). */
  private readonly requireAnnotator: boolean;
  private readonly defaultAnnotator: string | undefined;
  private readonly mapping: Record<string, string>;
  private readonly defaults: RoleDefaults;
  private readonly documentFormat: DocumentFormat | undefined;
  /** Key → line of its first record. */
  private readonly seen = new Map<string, number>();
  /** The caller checks uniqueness itself (ImportOptions.idsCheckedByCaller). */
  private readonly skipUniqueCheck: boolean;

  constructor(options: ImportOptions, file: string, defaults?: RoleDefaults) {
    this.file = file;
    this.skipUniqueCheck = options.idsCheckedByCaller ?? false;
    const { target } = options;
    this.kind = target === 'queries' ? 'query' : target === 'corpus' ? 'document' : 'judgment';
    this.requireAnnotator = target === 'labels';
    this.defaultAnnotator = target === 'labels' ? options.annotator : undefined;
    const mapping = { ...(options.mapping ?? {}) };
    // `text` is the body of a document when the mapping says so (the issue writes `text/body`).
    if (this.kind === 'document' && mapping.body === undefined && mapping.text !== undefined) {
      mapping.body = mapping.text;
      delete mapping.text;
    }
    this.mapping = mapping;
    this.defaults =
      defaults ??
      (this.kind === 'query' ? queryDefaults : this.kind === 'document' ? documentDefaults : judgmentDefaults);
    this.documentFormat = options.documentFormat;
  }

  /** The roles a record must have. */
  requiredRoles(): Role[] {
    if (this.kind === 'query') return ['id', 'text'];
    if (this.kind === 'document') return ['id', 'body'];
    return this.requireAnnotator && this.defaultAnnotator === undefined
      ? ['query_id', 'doc_id', 'label', 'annotator']
      : ['query_id', 'doc_id', 'label'];
  }

  /**
   * Checks a header (CSV/TSV, the columns of a Parquet file or a viewer copy) before any record: every mapped field
   * and a field for every required role must be there. `at` is the header's position.
   */
  checkHeader(names: readonly string[], at: SourcePosition, what = 'column'): void {
    // A dotted field reaches into an object column (a Parquet struct): its first part must be a column.
    const has = (field: string): boolean =>
      names.includes(field) || (field.includes('.') && names.includes(field.slice(0, field.indexOf('.'))));
    for (const [role, field] of Object.entries(this.mapping)) {
      if (role === 'format' && this.kind === 'document' && documentFormatNamed(field) !== undefined) continue;
      if (!isRole(role) || !this.rolesOfKind().includes(role)) continue;
      if (!has(field)) {
        throw new ImportError(
          { ...at, field },
          `a ${what} ${shown(field)} (mapped to ${role})`,
          `${what}s ${fieldList(names)}`,
        );
      }
    }
    for (const role of this.requiredRoles()) {
      if (this.mapping[role] !== undefined) continue;
      const candidates = this.defaults[role] ?? [];
      if (!candidates.some(has)) {
        throw new ImportError(at, this.missingRole(role, what), `${what}s ${fieldList(names)}`);
      }
    }
  }

  convert(source: FieldSource): QueryRecord | DocumentRecord | JudgmentRecord {
    if (this.kind === 'query') return this.query(source);
    if (this.kind === 'document') return this.document(source);
    return this.judgment(source);
  }

  private rolesOfKind(): readonly Role[] {
    if (this.kind === 'query') return ['id', 'text', 'instruction', 'parent', 'type', 'split', 'gold'];
    if (this.kind === 'document') return ['id', 'body', 'title', 'parent', 'format'];
    return ['query_id', 'doc_id', 'label', 'annotator', 'created_at', 'source', 'rationale', 'shown_label'];
  }

  /** The field a role is read from in this record: the mapped one (present or not), else the first default. */
  private fieldFor(role: Role, source: FieldSource): string | undefined {
    const mapped = this.mapping[role];
    if (mapped !== undefined) return mapped;
    const candidates = this.defaults[role];
    if (candidates === undefined) return undefined;
    for (const candidate of candidates) if (source.has(candidate)) return candidate;
    return undefined;
  }

  private missingRole(role: Role, what = 'field'): string {
    const mapped = this.mapping[role];
    if (mapped !== undefined) return `a ${what} ${shown(mapped)} (mapped to ${role})`;
    const candidates = this.defaults[role] ?? [];
    const flag = `--map ${role}=${what.toUpperCase()}`;
    if (candidates.length === 0) return `a ${what} for ${role} (${flag})`;
    if (candidates.length === 1) return `a ${what} ${shown(candidates[0]!)} for ${role} (or ${flag})`;
    return `a ${what} for ${role}: one of ${candidates.map((c) => shown(c)).join(', ')} (or ${flag})`;
  }

  /** The field of a required role, or an error listing the fields the record has. */
  private requiredField(role: Role, source: FieldSource): string {
    const field = this.fieldFor(role, source);
    if (field === undefined || !source.has(field)) {
      throw new ImportError(
        field === undefined ? source.position() : { ...source.position(), field },
        this.missingRole(role),
        `fields ${fieldList(source.names())}`,
      );
    }
    return field;
  }

  /** An id: a non-empty string, or an integer JSON number as its decimal text. */
  private id(role: Role, source: FieldSource, field: string): string {
    const value = source.get(field);
    const at = (): SourcePosition => source.position(field);
    if (typeof value === 'string') {
      if (value.trim() === '')
        throw new ImportError(at(), `${describeRole(role)} that is not empty`, describeFound(value));
      return value;
    }
    if (typeof value === 'bigint') return value.toString();
    if (typeof value === 'number' && Number.isFinite(value)) {
      if (Number.isInteger(value) && !Number.isSafeInteger(value)) {
        throw new ImportError(
          at(),
          `${describeRole(role)} as a string, or a number up to ${Number.MAX_SAFE_INTEGER}`,
          `${describeFound(value)}, whose digits JSON readers do not keep (write the id as a string)`,
        );
      }
      return String(value);
    }
    throw new ImportError(at(), `${describeRole(role)} (a string or a number)`, describeFound(value));
  }

  /** A required text: a string. */
  private text(role: Role, source: FieldSource, field: string): string {
    const value = source.get(field);
    if (typeof value === 'string') return value;
    throw new ImportError(source.position(field), `a string for ${role} in ${shown(field)}`, describeFound(value));
  }

  /** An optional text role: absent, null or '' leave it out; numbers and booleans become their text. */
  private optional(role: Role, source: FieldSource, used: string[]): string | undefined {
    const field = this.fieldFor(role, source);
    if (field === undefined) return undefined;
    if (!source.has(field)) {
      if (this.mapping[role] === undefined) return undefined;
      throw new ImportError(source.position(), this.missingRole(role), `fields ${fieldList(source.names())}`);
    }
    used.push(field);
    const value = source.get(field);
    if (value === null || value === undefined || value === '') return undefined;
    if (typeof value === 'string') return value;
    if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
    if (value instanceof Date && !Number.isNaN(value.getTime())) return value.toISOString();
    throw new ImportError(source.position(field), `a string for ${role} in ${shown(field)}`, describeFound(value));
  }

  /**
   * The relevant document ids a query lists in the mapped `gold` field: a JSON array of ids (or a CSV/TSV field
   * holding one), or a single id; empty or null is none. Ids follow the id rules (numbers become their text).
   */
  private goldIds(source: FieldSource, used: string[]): string[] | undefined {
    const field = this.mapping.gold;
    if (field === undefined) return undefined;
    if (!source.has(field)) {
      throw new ImportError(source.position(), this.missingRole('gold'), `fields ${fieldList(source.names())}`);
    }
    used.push(field);
    let value = source.get(field);
    if (typeof value === 'string' && value.trimStart().startsWith('[')) {
      try {
        value = JSON.parse(value);
      } catch {
        throw new ImportError(
          source.position(field),
          `a JSON array of document ids in ${shown(field)}`,
          shown(value as string),
        );
      }
    }
    if (value === null || value === undefined || value === '') return [];
    const items = Array.isArray(value) ? value : [value];
    const ids: string[] = [];
    for (const item of items) {
      if ((typeof item !== 'string' && typeof item !== 'number') || String(item).trim() === '') {
        throw new ImportError(
          source.position(field),
          `document ids (strings or numbers) in ${shown(field)}`,
          describeFound(item),
        );
      }
      if (!ids.includes(String(item))) ids.push(String(item));
    }
    return ids;
  }

  /** Refuses a key seen before, naming the line of its first record. */
  private checkUnique(key: string, source: FieldSource, field: string, expected: string, found: () => string): void {
    if (this.skipUniqueCheck) return;
    const first = this.seen.get(key);
    if (first !== undefined) {
      throw new ImportError(source.position(field), expected, `${found()} again (first on line ${first})`, {
        file: this.file,
        line: first,
      });
    }
    this.seen.set(detach(key), source.line);
  }

  private query(source: FieldSource): QueryRecord {
    const idField = this.requiredField('id', source);
    const textField = this.requiredField('text', source);
    const qid = this.id('id', source, idField);
    const text = this.text('text', source, textField);
    const used = [idField, textField];
    const record: QueryRecord = { kind: 'query', qid, text, metadata: {}, at: source.position() };
    const instruction = this.optional('instruction', source, used);
    if (instruction !== undefined) record.instruction = instruction;
    const parent = this.parent(source, used);
    if (parent !== undefined) record.parent = parent;
    const type = this.optional('type', source, used);
    if (type !== undefined) record.type = type;
    const split = this.optional('split', source, used);
    if (split !== undefined) record.split = split;
    const gold = this.goldIds(source, used);
    if (gold !== undefined) record.gold = gold;
    record.metadata = source.metadata(used);
    this.checkUnique(qid, source, idField, 'a unique query id', () => shown(qid));
    return record;
  }

  private document(source: FieldSource): DocumentRecord {
    const idField = this.requiredField('id', source);
    const bodyField = this.requiredField('body', source);
    const docid = this.id('id', source, idField);
    const used = [idField, bodyField];
    let format = this.format(source, used);
    const value = source.get(bodyField);
    let body: string;
    if (typeof value === 'string') body = value;
    else if ((format === undefined || format === 'table-json') && typeof value === 'object' && value !== null) {
      // A table as nested arrays (TARGET) or an object: kept as its JSON text.
      body = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
      format = 'table-json';
    } else {
      throw new ImportError(
        source.position(bodyField),
        format === undefined
          ? `a string for body in ${shown(bodyField)} (or a JSON table: an array or object)`
          : `a string for body in ${shown(bodyField)} (format ${format})`,
        describeFound(value),
      );
    }
    const record: DocumentRecord = {
      kind: 'document',
      docid,
      body,
      format: format ?? 'plain',
      metadata: {},
      at: source.position(),
    };
    const title = this.optional('title', source, used);
    if (title !== undefined) record.title = title;
    const parent = this.parent(source, used);
    if (parent !== undefined) record.parent = parent;
    record.metadata = source.metadata(used);
    this.checkUnique(docid, source, idField, 'a unique document id', () => shown(docid));
    return record;
  }

  /** The document format: the mapped field's value, the mapping's own value (`format=markdown`), the option. */
  private format(source: FieldSource, used: string[]): DocumentFormat | undefined {
    const field = this.mapping.format;
    if (field === undefined) return this.documentFormat;
    if (!source.has(field)) {
      const literal = documentFormatNamed(field);
      if (literal !== undefined) return literal;
      throw new ImportError(source.position(), this.missingRole('format'), `fields ${fieldList(source.names())}`);
    }
    used.push(field);
    const value = source.get(field);
    if (value === null || value === undefined || value === '') return this.documentFormat;
    const format = typeof value === 'string' ? documentFormatNamed(value) : undefined;
    if (format === undefined) {
      throw new ImportError(
        source.position(field),
        `a document format in ${shown(field)}: ${knownFormats}`,
        describeFound(value),
      );
    }
    return format;
  }

  private parent(source: FieldSource, used: string[]): string | undefined {
    const field = this.fieldFor('parent', source);
    if (field === undefined || (!source.has(field) && this.mapping.parent === undefined)) return undefined;
    if (!source.has(field)) {
      throw new ImportError(source.position(), this.missingRole('parent'), `fields ${fieldList(source.names())}`);
    }
    used.push(field);
    const value = source.get(field);
    if (value === null || value === '') return undefined;
    return this.id('parent', source, field);
  }

  /**
   * A label file's `conditions` and `aspects` (JSON values, or a CSV/TSV cell holding JSON text), when present and
   * not empty: conditions an array of true/false, aspects an object of true/false or numbers. Whether they fit the
   * study (how many conditions the query has, its aspects and levels) is the store's check.
   */
  private answers(source: FieldSource, used: string[], record: JudgmentRecord): void {
    const read = (field: string, expected: string): unknown => {
      if (!source.has(field)) return undefined;
      used.push(field);
      const value = source.get(field);
      if (value === null || value === undefined || value === '') return undefined;
      if (typeof value !== 'string') return value;
      try {
        return JSON.parse(value) as unknown;
      } catch {
        throw new ImportError(source.position(field), `${expected} (JSON) in ${shown(field)}`, shown(value));
      }
    };
    const conditions = read('conditions', 'an array of true/false');
    if (conditions !== undefined) {
      if (!Array.isArray(conditions) || conditions.some((c) => typeof c !== 'boolean')) {
        throw new ImportError(
          source.position('conditions'),
          `an array of true/false in ${shown('conditions')}`,
          Array.isArray(conditions)
            ? describeFound(conditions.find((c) => typeof c !== 'boolean'))
            : describeFound(conditions),
        );
      }
      record.conditions = { values: conditions as boolean[], at: source.position('conditions') };
    }
    const aspects = read('aspects', 'an object of aspect answers');
    if (aspects !== undefined) {
      if (typeof aspects !== 'object' || aspects === null || Array.isArray(aspects)) {
        throw new ImportError(
          source.position('aspects'),
          `an object of aspect answers in ${shown('aspects')}`,
          describeFound(aspects),
        );
      }
      for (const [name, answer] of Object.entries(aspects)) {
        if (typeof answer !== 'boolean' && !(typeof answer === 'number' && Number.isFinite(answer))) {
          throw new ImportError(
            source.position('aspects'),
            `aspect '${name}' to be true, false or a level`,
            describeFound(answer),
          );
        }
      }
      record.aspects = { values: aspects as Record<string, boolean | number>, at: source.position('aspects') };
    }
  }

  private judgment(source: FieldSource): JudgmentRecord {
    const qidField = this.requiredField('query_id', source);
    const docidField = this.requiredField('doc_id', source);
    const labelField = this.requiredField('label', source);
    const qid = this.id('query_id', source, qidField);
    const docid = this.id('doc_id', source, docidField);
    const label = this.label(source, labelField);
    const used = [qidField, docidField, labelField];
    const record: JudgmentRecord = { kind: 'judgment', qid, docid, label, at: source.position() };
    if (this.requireAnnotator && this.defaultAnnotator === undefined) {
      const annotatorField = this.requiredField('annotator', source);
      used.push(annotatorField);
      record.annotator = this.id('annotator', source, annotatorField);
    } else if (this.requireAnnotator) {
      const annotator = this.optional('annotator', source, used);
      record.annotator = annotator ?? this.defaultAnnotator;
    } else {
      const annotator = this.optional('annotator', source, used);
      if (annotator !== undefined) record.annotator = annotator;
    }
    const createdAt = this.optional('created_at', source, used);
    if (createdAt !== undefined) {
      const utc = isoTimeInUtc(createdAt);
      if (utc === undefined) {
        throw new ImportError(
          source.position(this.fieldFor('created_at', source)),
          'a time in ISO 8601 (like 2025-05-01T12:00:00Z or 2025-05-01T14:00:00+02:00)',
          describeFound(createdAt),
        );
      }
      // One spelling per instant (UTC, milliseconds): times order judgments and identify them when files merge.
      record.createdAt = utc;
    }
    const provenance = this.optional('source', source, used);
    if (provenance !== undefined) record.source = provenance;
    const rationale = this.optional('rationale', source, used);
    if (rationale !== undefined) record.rationale = rationale;
    const shownField = this.fieldFor('shown_label', source);
    if (shownField !== undefined && source.has(shownField)) {
      used.push(shownField);
      const value = source.get(shownField);
      if (value !== null && value !== undefined && value !== '') record.shownLabel = this.label(source, shownField);
    }
    if (this.requireAnnotator) this.answers(source, used, record);
    // A judgment is identified by its pair, and in a label file also by annotator and time.
    const key = this.requireAnnotator
      ? `${record.annotator}\u0000${qid}\u0000${docid}\u0000${record.createdAt ?? ''}`
      : `${qid}\u0000${docid}`;
    if (this.requireAnnotator) {
      const at = createdAt === undefined ? '' : ` at ${createdAt}`;
      this.checkUnique(
        key,
        source,
        docidField,
        'one judgment per annotator, query, document and time',
        () => `a judgment by ${shown(record.annotator ?? '')} of ${shown(docid)} for query ${shown(qid)}${at}`,
      );
    } else {
      this.checkUnique(
        key,
        source,
        docidField,
        'one judgment per query and document (trec_eval refuses duplicates)',
        () => `a judgment of ${shown(docid)} for query ${shown(qid)}`,
      );
    }
    return record;
  }

  private label(source: FieldSource, field: string): number {
    const value = source.get(field);
    let label = Number.NaN;
    if (typeof value === 'number') label = value;
    else if (typeof value === 'bigint') label = Number(value);
    else if (typeof value === 'string' && /^[+-]?\d{1,15}$/.test(value)) label = Number(value);
    if (!Number.isSafeInteger(label)) {
      throw new ImportError(source.position(field), `an integer label in ${shown(field)}`, describeFound(value));
    }
    return label;
  }
}

function isRole(name: string): name is Role {
  return (
    name === 'id' ||
    name === 'text' ||
    name === 'body' ||
    name === 'title' ||
    name === 'instruction' ||
    name === 'parent' ||
    name === 'type' ||
    name === 'split' ||
    name === 'gold' ||
    name === 'format' ||
    name === 'query_id' ||
    name === 'doc_id' ||
    name === 'label' ||
    name === 'annotator' ||
    name === 'created_at' ||
    name === 'source' ||
    name === 'rationale'
  );
}

/** What an id role holds, with its article: "an id", "a query id". */
function describeRole(role: Role): string {
  switch (role) {
    case 'query_id':
      return 'a query id';
    case 'doc_id':
      return 'a document id';
    case 'parent':
      return 'a parent id';
    case 'annotator':
      return 'an annotator name';
    default:
      return 'an id';
  }
}

/**
 * An ISO 8601 time as UTC with milliseconds (`2025-05-01T10:00:00.000Z`), or undefined when it is not one. A time
 * without a zone is taken as UTC (never as this machine's local time); a date alone is its midnight UTC.
 */
export function isoTimeInUtc(text: string): string | undefined {
  const match = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?))?\s*(Z|[+-]\d{2}:?\d{2})?$/i.exec(
    text.trim(),
  );
  if (match === null) return undefined;
  const [, date, time = '00:00', zone = 'Z'] = match;
  const [seconds = '00', fraction = ''] = (time.split(':')[2] ?? '00').split('.');
  const normalizedTime = `${time.split(':').slice(0, 2).join(':')}:${seconds}.${fraction.padEnd(3, '0').slice(0, 3)}`;
  const normalizedZone =
    zone.toUpperCase() === 'Z' ? 'Z' : zone.includes(':') ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`;
  const parsed = Date.parse(`${date}T${normalizedTime}${normalizedZone}`);
  return Number.isNaN(parsed) ? undefined : new Date(parsed).toISOString();
}
