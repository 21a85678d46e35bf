// The two shapes a record comes in, as FieldSources for the converter: an object (a JSONL line, a Parquet row;
// fields by name or dotted path) and a row of named columns (CSV/TSV, the dataset-viewer copy).
import { type JsonObject, resolveFieldPath, valueAtPath } from '../data/fieldPath.ts';
import { TextColumns } from '../data/textColumns.ts';
import { locateJsonValue } from '../lint/records/jsonValueSpan.ts';
import type { FieldSource } from './convert.ts';
import type { SourcePosition } from './types.ts';

/** A JSON object; with the line's text, positions of fields are character columns in it. */
export class ObjectFieldSource implements FieldSource {
  readonly line: number;
  private readonly file: string;
  private readonly record: JsonObject;
  private readonly text: string | undefined;
  private readonly ascii: boolean;

  constructor(file: string, line: number, record: JsonObject, text?: string, ascii = true) {
    this.file = file;
    this.line = line;
    this.record = record;
    this.text = text;
    this.ascii = ascii;
  }

  has(field: string): boolean {
    return resolveFieldPath(this.record, field) !== undefined;
  }

  get(field: string): unknown {
    const path = resolveFieldPath(this.record, field);
    return path === undefined ? undefined : valueAtPath(this.record, path);
  }

  names(): readonly string[] {
    return Object.keys(this.record);
  }

  position(field?: string): SourcePosition {
    const at: SourcePosition = { file: this.file, line: this.line };
    if (this.text === undefined) {
      if (field !== undefined) at.field = field;
      return at;
    }
    at.column = columnAt(this.text, this.ascii, firstNonSpace(this.text));
    if (field === undefined) return at;
    at.field = field;
    const path = resolveFieldPath(this.record, field);
    const range = path === undefined ? undefined : locateJsonValue(this.text, path);
    if (range !== undefined) at.column = columnAt(this.text, this.ascii, range.start);
    return at;
  }

  metadata(used: readonly string[]): Record<string, unknown> {
    const metadata: Record<string, unknown> = {};
    for (const key of Object.keys(this.record)) if (!used.includes(key)) metadata[key] = this.record[key];
    return metadata;
  }
}

/** A row of named columns, each value at its own line and column. */
export class ColumnFieldSource implements FieldSource {
  readonly line: number;
  private readonly file: string;
  private readonly columns: ReadonlyMap<string, number>;
  private readonly header: readonly string[];
  private readonly values: readonly unknown[];
  private readonly lines: ArrayLike<number>;
  private readonly starts: ArrayLike<number> | undefined;

  /** `columns`: name → index; `lines[i]`/`starts[i]`: where value i is (no columns: the value is a whole line). */
  constructor(
    file: string,
    line: number,
    header: readonly string[],
    columns: ReadonlyMap<string, number>,
    values: readonly unknown[],
    lines: ArrayLike<number>,
    starts?: ArrayLike<number>,
  ) {
    this.file = file;
    this.line = line;
    this.header = header;
    this.columns = columns;
    this.values = values;
    this.lines = lines;
    this.starts = starts;
  }

  has(field: string): boolean {
    return this.columns.has(field);
  }

  get(field: string): unknown {
    const index = this.columns.get(field);
    return index === undefined ? undefined : this.values[index];
  }

  names(): readonly string[] {
    return this.header;
  }

  position(field?: string): SourcePosition {
    const index = field === undefined ? undefined : this.columns.get(field);
    if (field === undefined || index === undefined) {
      const at: SourcePosition = { file: this.file, line: this.line, column: 1 };
      if (field !== undefined) at.field = field;
      return at;
    }
    return {
      file: this.file,
      line: this.lines[index] ?? this.line,
      column: this.starts?.[index] ?? 1,
      field,
    };
  }

  metadata(used: readonly string[]): Record<string, unknown> {
    const metadata: Record<string, unknown> = {};
    for (const [name, index] of this.columns) if (!used.includes(name)) metadata[name] = this.values[index];
    return metadata;
  }
}

function firstNonSpace(text: string): number {
  let i = 0;
  while (i < text.length && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++;
  return i;
}

/** 1-based character column of a UTF-16 offset. */
export function columnAt(text: string, ascii: boolean, offset: number): number {
  if (ascii) return Math.min(offset, text.length) + 1;
  const columns = new TextColumns();
  columns.reset(text, false);
  return columns.column(offset);
}
