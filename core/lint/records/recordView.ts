// What the record linter's rules look at, as views the session fills once per line or row and reuses: a physical
// line (BOM, CRLF, its end), a CSV/TSV header, and a record — a JSONL line (its text, parsed value or syntax
// error) or a CSV/TSV row (its fields' positions) — with the facts every id rule shares: the id's value, its key
// for duplicate checks, and where the same id first appeared. Positions are computed when a rule asks for them.
import { type Node, parseTree } from 'jsonc-parser';
import type { DelimitedRowSplitter } from '../../data/delimitedRows.ts';
import type { JsonObject } from '../../data/fieldPath.ts';
import type { RecordFormat } from '../../data/recordFormat.ts';
import type { TextColumns } from '../../data/textColumns.ts';
import type { JsonSyntaxError } from './jsonSyntaxError.ts';
import { locateJsonValue } from './jsonValueSpan.ts';

/** 1-based, columns in characters, end exclusive. */
export interface Span {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

export class PhysicalLine {
  number = 0;
  /** Line 1 starts with a UTF-8 byte order mark. */
  bom = false;
  crlf = false;
  readonly columns: TextColumns;

  constructor(columns: TextColumns) {
    this.columns = columns;
  }

  /** The column just past the line's text (before a `\r`). */
  endColumn(): number {
    return this.columns.endColumn();
  }
}

/** The header row of a CSV/TSV file. */
export interface HeaderView {
  names: readonly string[];
  /** Each name's position, by column index. */
  spans: readonly Span[];
  /** The whole header row. */
  span: Span;
}

/**
 * `record`: a JSON object, or a CSV/TSV row; `value`: valid JSON that is not an object; `invalid`: not JSON;
 * `blank`: a JSONL line of nothing but spaces; `unterminated`: a CSV/TSV row whose quoted field never closes.
 */
export type RecordViewKind = 'record' | 'value' | 'invalid' | 'blank' | 'unterminated';

export class RecordView {
  format: RecordFormat = 'jsonl';
  kind: RecordViewKind = 'record';
  /** First and last line of the record (they differ only for a CSV/TSV row with a quoted newline). */
  line = 0;
  endLine = 0;

  // JSONL: the line.
  text = '';
  value: unknown;
  /** The parsed object, when `kind` is `record` in a JSONL file. */
  object: JsonObject | undefined;
  syntaxError: JsonSyntaxError | undefined;

  // CSV/TSV: the row, with its fields' positions.
  row: DelimitedRowSplitter | undefined;
  /** Column index of the id field in the header, or -1. */
  idColumn = -1;

  // The id, when the file has an id field.
  /** The record has the id field (its value may still be empty, or of the wrong type). */
  hasId = false;
  /** JSONL: the keys leading to the id. */
  idPath: readonly string[] | undefined;
  id: unknown;
  /** The id as duplicates are compared: a non-empty string, a number's text; else undefined. */
  idKey: string | undefined;
  /** Where the record with the same id key appeared first, when this one is a repeat. */
  first: { line: number; column: number } | undefined;

  /** The JSONL line's columns (the session resets them per line). */
  readonly columns: TextColumns;
  private idSpanCache: Span | undefined;
  private treeCache: Node | undefined | null = null;

  constructor(columns: TextColumns) {
    this.columns = columns;
  }

  /** Clears everything derived, for the next record. */
  reset(format: RecordFormat, line: number): void {
    this.format = format;
    this.kind = 'record';
    this.line = line;
    this.endLine = line;
    this.text = '';
    this.value = undefined;
    this.object = undefined;
    this.syntaxError = undefined;
    this.hasId = false;
    this.idPath = undefined;
    this.id = undefined;
    this.idKey = undefined;
    this.first = undefined;
    this.idSpanCache = undefined;
    this.treeCache = null;
  }

  /** JSONL: the span of UTF-16 offsets `[start, end)` of the line. */
  span(start: number, end: number): Span {
    const column = this.columns.column(start);
    return { line: this.line, column, endLine: this.line, endColumn: this.columns.column(end) };
  }

  /** The whole record: a JSONL line without surrounding spaces (`{…}`), a CSV/TSV row from its first field. */
  recordSpan(): Span {
    const row = this.row;
    if (this.format !== 'jsonl' && row) {
      return { line: this.line, column: row.startColumns[0] ?? 1, endLine: this.endLine, endColumn: row.rowEndColumn };
    }
    const text = this.text;
    let start = 0;
    let end = text.length;
    while (start < end && isJsonSpace(text.charCodeAt(start))) start++;
    while (end > start && isJsonSpace(text.charCodeAt(end - 1))) end--;
    return this.span(start, end);
  }

  /** CSV/TSV: the span of field `index` as written (quotes included). */
  fieldSpan(index: number): Span {
    const row = this.row!;
    return {
      line: row.startLines[index]!,
      column: row.startColumns[index]!,
      endLine: row.endLines[index]!,
      endColumn: row.endColumns[index]!,
    };
  }

  /** JSONL: the id's value as written in the line (`3.0`, `"d1"`). */
  idText(): string | undefined {
    const range = this.idPath ? locateJsonValue(this.text, this.idPath) : undefined;
    return range === undefined ? undefined : this.text.slice(range.start, range.end);
  }

  /** The id's value as written (the record when it cannot be found). */
  idSpan(): Span {
    if (this.idSpanCache) return this.idSpanCache;
    let span: Span | undefined;
    if (this.format === 'jsonl') {
      const range = this.idPath ? locateJsonValue(this.text, this.idPath) : undefined;
      if (range) span = this.span(range.start, range.end);
    } else if (this.row && this.idColumn >= 0 && this.idColumn < this.row.fieldCount) {
      span = this.fieldSpan(this.idColumn);
    }
    this.idSpanCache = span ?? this.recordSpan();
    return this.idSpanCache;
  }

  /** JSONL: the span of the value at `path` (keys, array indexes), from the line's syntax tree. */
  valueSpan(path: readonly (string | number)[]): Span | undefined {
    let node = this.tree();
    for (const step of path) {
      if (node === undefined) return undefined;
      node = childNode(node, step);
    }
    return node === undefined ? undefined : this.nodeSpan(node);
  }

  /** JSONL: the line's syntax tree (jsonc-parser), built once, only for records a rule needs positions inside. */
  tree(): Node | undefined {
    // jsonc-parser's parseTree recurses once per level: a line nesting thousands of arrays would overflow the stack.
    // Past maxTreeDepth no positions inside the record are given; rules fall back to the whole record.
    if (this.treeCache === null)
      this.treeCache = nestingDepth(this.text) > maxTreeDepth ? undefined : parseTree(this.text);
    return this.treeCache;
  }

  nodeSpan(node: Node): Span {
    return this.span(node.offset, node.offset + node.length);
  }
}

/** Deeper JSON than this gets no syntax tree (see RecordView.tree). */
const maxTreeDepth = 512;

/** The deepest nesting of arrays and objects in a JSON text (brackets inside strings do not count). */
export function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \\ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 /* [ */ || c === 123 /* { */) deepest = Math.max(deepest, ++depth);
    else if (c === 93 /* ] */ || c === 125 /* } */) depth--;
  }
  return deepest;
}

/** The child of an object (by key) or array (by index) node. */
export function childNode(node: Node, step: string | number): Node | undefined {
  if (typeof step === 'number') return node.type === 'array' ? node.children?.[step] : undefined;
  if (node.type !== 'object') return undefined;
  // The last of duplicate keys, the one JSON.parse keeps.
  let found: Node | undefined;
  for (const property of node.children ?? []) {
    if (property.children?.[0]?.value === step) found = property.children[1];
  }
  return found;
}

function isJsonSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}
