// Where each record of a data file is, by id: line number and byte range. This is what lets the language server
// show a query's text on hover over a qid, complete docids, and flag docids a corpus does not have, without
// holding a corpus in memory: a record is read back from disk by its offset when asked for (a gzip file cannot be
// read at an offset, so its records' bytes are kept in memory instead).
//
// Indexing a million-line corpus must take seconds at most: a JSONL line that starts with the id field is indexed
// from its bytes (leadingIdField.ts), anything else is parsed. Lines that are not valid JSON, not objects, or have
// no usable id are skipped (the linter reports them); when an id repeats, the first record is kept (the linter
// reports the second). The file can change after loading: get() checks the record it reads back still has the id.
import { open } from 'node:fs/promises';
import { GrowableFloat64, GrowableInt32 } from '../formats/growableArrays.ts';
import { readLines } from '../formats/lineReader.ts';
import { ByteStore } from './byteStore.ts';
import { DelimitedRowSplitter, splitDelimitedText } from './delimitedRows.ts';
import { fieldValue, isJsonObject, type JsonObject } from './fieldPath.ts';
import { decodeId, LeadingIdField } from './leadingIdField.ts';
import { decodeLine, hasByteOrderMark } from './lineText.ts';
import { detectRecordFormat, formatFromFileName, isBlankText, type RecordFormat } from './recordFormat.ts';

export interface RecordIndexOptions {
  /** The field holding the id (a top-level key, or a dotted path such as `query.id`). */
  idField: string;
  /** Read as this format instead of telling it from the content. */
  format?: RecordFormat;
}

const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

export class RecordIndex {
  readonly path: string;
  readonly idField: string;
  /** The format the file was read as; undefined when it could not be told (see `problem`). */
  readonly format: RecordFormat | undefined;
  /** Why nothing could be indexed, for the user ("data/t.csv: no column 'qid' in the header: …"), if so. */
  readonly problem: string | undefined;
  /** Non-blank lines (rows for CSV/TSV) not indexed: invalid JSON, not an object, no id, an empty or repeated id. */
  readonly skipped: number;

  private readonly entries: Map<string, number>;
  private readonly lines: Int32Array;
  private readonly offsets: Float64Array;
  private readonly lengths: Int32Array;
  /** Gzip files: the indexed records' bytes (offsets point here instead of into the file). */
  private readonly store: ByteStore | undefined;
  /** CSV/TSV: the column names. */
  private readonly header: readonly string[];

  private constructor(path: string, idField: string, built: IndexBuilder) {
    this.path = path;
    this.idField = idField;
    this.format = built.format;
    this.problem = built.problem;
    this.skipped = built.skipped;
    this.entries = built.entries;
    this.lines = built.lines.data.subarray(0, built.lines.length);
    this.offsets = built.offsets.data.subarray(0, built.offsets.length);
    this.lengths = built.lengths.data.subarray(0, built.lengths.length);
    this.store = built.storing ? built.store : undefined;
    this.header = built.header;
  }

  /** Reads the file once (plain or gzip). Rejects with FileReadError when it cannot be read. */
  static async load(path: string, options: RecordIndexOptions): Promise<RecordIndex> {
    const builder = new IndexBuilder(path, options, await isGzipFile(path));
    await readLines(path, builder.onLine);
    builder.finish();
    return new RecordIndex(path, options.idField, builder);
  }

  /** Number of ids indexed. */
  get size(): number {
    return this.entries.size;
  }

  has(id: string): boolean {
    return this.entries.has(id);
  }

  /** The ids in file order. */
  ids(): IterableIterator<string> {
    return this.entries.keys();
  }

  /** 1-based line of the record (its first line, for a CSV row spanning lines). */
  lineOf(id: string): number | undefined {
    const entry = this.entries.get(id);
    return entry === undefined ? undefined : this.lines[entry];
  }

  /**
   * The record, read back from disk (from memory for gzip files): a JSON object, or for CSV/TSV the row as
   * column → text. Undefined when the id is unknown, or the file changed and the record is no longer there.
   */
  async get(id: string): Promise<Record<string, unknown> | undefined> {
    const entry = this.entries.get(id);
    if (entry === undefined) return undefined;
    const offset = this.offsets[entry]!;
    const length = this.lengths[entry]!;
    const bytes = this.store ? this.store.read(offset, length) : await readRange(this.path, offset, length);
    if (bytes === undefined) return undefined;
    const text = decoder.decode(hasByteOrderMark(bytes, 0, bytes.length) ? bytes.subarray(3) : bytes);
    const record = this.format === 'jsonl' ? parseObject(text) : this.parseRow(text);
    if (record === undefined || idOf(fieldValue(record, this.idField)) !== id) return undefined;
    return record;
  }

  private parseRow(text: string): JsonObject {
    const values = splitDelimitedText(text, this.format === 'csv' ? ',' : '\t');
    const row: JsonObject = {};
    const count = Math.min(values.length, this.header.length);
    for (let i = 0; i < count; i++) row[this.header[i]!] = values[i];
    return row;
  }
}

/** The builder of one index: the line handler readLines calls, and what it collects. */
class IndexBuilder {
  readonly path: string;
  readonly idField: string;
  format: RecordFormat | undefined;
  problem: string | undefined;
  skipped = 0;
  /** Gzip: keep the indexed records' bytes in `store`, and offsets into it. */
  readonly storing: boolean;
  readonly entries = new Map<string, number>();
  readonly lines = new GrowableInt32(4096);
  readonly offsets = new GrowableFloat64(4096);
  readonly lengths = new GrowableInt32(4096);
  readonly store = new ByteStore();
  header: string[] = [];

  private readonly leading: LeadingIdField;
  private readonly idRange = { idStart: 0, idEnd: 0 };
  /** Offset of the next line in the (decompressed) content. */
  private position = 0;
  private rows: DelimitedRowSplitter | undefined;
  private idColumn = -1;
  private headerRead = false;
  private rowLine = 0;
  private rowOffset = 0;
  private rowStored = 0;

  constructor(path: string, options: RecordIndexOptions, gzip: boolean) {
    this.path = path;
    this.storing = gzip;
    this.idField = options.idField;
    this.format = options.format;
    this.leading = new LeadingIdField(options.idField);
  }

  readonly onLine = (bytes: Buffer, start: number, end: number, lineNumber: number): boolean => {
    const offset = this.position;
    this.position += end - start + 1;
    if (this.format === undefined && !this.detect(bytes, start, end, lineNumber)) return this.problem === undefined;
    if (this.format === 'jsonl') {
      this.addJsonLine(bytes, start, end, lineNumber, offset);
      return true;
    }
    return this.addRowLine(bytes, start, end, lineNumber, offset);
  };

  finish(): void {
    if (this.rows?.open) this.skipped++;
    if (this.format !== undefined && this.format !== 'jsonl' && !this.headerRead && this.problem === undefined) {
      this.problem = `${this.path}: no header line`;
    }
  }

  /** Tells the format from the first non-blank line; false while there is none yet, or when it cannot. */
  private detect(bytes: Buffer, start: number, end: number, lineNumber: number): boolean {
    const { text } = decodeLine(bytes, start, end, lineNumber);
    if (isBlankText(text)) return false;
    this.format = detectRecordFormat([text]) ?? formatFromFileName(this.path);
    if (this.format !== undefined) return true;
    this.problem =
      `${this.path}: cannot tell the format: line ${lineNumber} is neither a JSON object (JSONL) nor a header ` +
      'with commas (CSV) or tabs (TSV)';
    return false;
  }

  private addJsonLine(bytes: Buffer, start: number, end: number, lineNumber: number, offset: number): void {
    let id: string | undefined;
    if (this.leading.match(bytes, start, end, this.idRange)) {
      id = decodeId(bytes, this.idRange.idStart, this.idRange.idEnd);
    } else {
      const { text } = decodeLine(bytes, start, end, lineNumber);
      if (isBlankText(text)) return;
      const record = parseObject(text);
      id = record === undefined ? undefined : idOf(fieldValue(record, this.idField));
    }
    if (id === undefined || id === '' || this.entries.has(id)) {
      this.skipped++;
      return;
    }
    this.add(id, lineNumber, this.storing ? this.store.append(bytes, start, end) : offset, end - start);
  }

  private addRowLine(bytes: Buffer, start: number, end: number, lineNumber: number, offset: number): boolean {
    const line = decodeLine(bytes, start, end, lineNumber);
    let rows = this.rows;
    if (rows === undefined) {
      rows = new DelimitedRowSplitter(this.format === 'csv' ? ',' : '\t');
      rows.captureAll = true;
      this.rows = rows;
    }
    if (!rows.open) {
      if (isBlankText(line.text)) return true;
      this.rowLine = lineNumber;
      this.rowOffset = offset;
      this.rowStored = this.store.length;
    } else if (this.headerRead && this.storing) {
      this.store.append(newline, 0, 1);
    }
    if (this.headerRead && this.storing) this.store.append(bytes, start, end);
    if (!rows.addLine(line.text, line.ascii, lineNumber, line.crlf)) return true;
    if (!this.headerRead) {
      this.header = rows.capturedValues();
      this.headerRead = true;
      this.idColumn = this.header.indexOf(this.idField);
      if (this.idColumn === -1) {
        this.problem = `${this.path}: no column '${this.idField}' in the header (${this.header.join(', ')})`;
        return false;
      }
      rows.captureAll = false;
      rows.captureField = this.idColumn;
      return true;
    }
    const id = rows.values[this.idColumn];
    if (id === undefined || id === '' || this.entries.has(id)) {
      this.skipped++;
      this.store.truncate(this.rowStored);
      return true;
    }
    const length = offset + (end - start) - this.rowOffset;
    this.add(id, this.rowLine, this.storing ? this.rowStored : this.rowOffset, length);
    return true;
  }

  /** `offset`: into the file, or into the store for gzip files. */
  private add(id: string, line: number, offset: number, length: number): void {
    this.entries.set(id, this.lines.length);
    this.lines.push(line);
    this.offsets.push(offset);
    this.lengths.push(length);
  }
}

const newline = new Uint8Array([10]);

function parseObject(text: string): JsonObject | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isJsonObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** An id as the index keys it: a string, or a number as its decimal text (loaders differ; qrels hold text). */
function idOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** True when the file starts with gzip's magic bytes; false too when it cannot be read (readLines says why). */
async function isGzipFile(path: string): Promise<boolean> {
  try {
    const handle = await open(path, 'r');
    try {
      const magic = Buffer.alloc(2);
      const { bytesRead } = await handle.read(magic, 0, 2, 0);
      return bytesRead === 2 && magic[0] === 0x1f && magic[1] === 0x8b;
    } finally {
      await handle.close();
    }
  } catch {
    return false;
  }
}

async function readRange(path: string, offset: number, length: number): Promise<Buffer | undefined> {
  try {
    const handle = await open(path, 'r');
    try {
      const buffer = Buffer.allocUnsafe(length);
      const { bytesRead } = await handle.read(buffer, 0, length, offset);
      return bytesRead === length ? buffer : undefined;
    } catch {
      return undefined;
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
}
