// Long-format label files as the agreement statistics read them: what `qrels-studio export --labels` writes (a CSV
// with a header, RFC 4180 quoting, a rationale column whose text may span lines), the same as TSV, or JSON Lines —
// one label per row with `query_id`, `doc_id`, `annotator` and `label`; other columns are ignored. JSON Lines is told
// by the first non-blank character, `{`. A row whose (optional) `source` is `adjudicated` is skipped: an adjudicated
// label is the decision taken after a disagreement, not one more opinion to agree with (core/agreement/studyLabels.ts
// leaves them out of a study's labels for the same reason). Every problem is an ImportError at `file:line:col` saying
// what was expected and what was found; a second label of a unit by one annotator names both lines.
//
// Built for a million rows: lines are pulled in batches (core/importers/lineSource.ts); a row on one line without a
// quote (nearly all of them) is cut at its separators and only the columns read become strings, any other row goes
// through the importers' splitter (core/data/delimitedRows.ts), which also gives every error its position; labels go
// straight into the reliability builder's typed columns — no object per row. 1M rows: ~0.8 s as CSV, ~1.3 s as JSONL.
import { DelimitedRowSplitter, type Separator } from '../data/delimitedRows.ts';
import { isJsonObject, type JsonObject } from '../data/fieldPath.ts';
import { decodeLine, type LineText } from '../data/lineText.ts';
import { isBlankText } from '../data/recordFormat.ts';
import { fieldCountError, separatorOf } from '../importers/delimited.ts';
import { describeFound, fieldList, shown } from '../importers/describe.ts';
import { columnAt } from '../importers/fieldSources.ts';
import { jsonError } from '../importers/jsonl.ts';
import { lineBatches } from '../importers/lineSource.ts';
import { ImportError, type SourcePosition } from '../importers/types.ts';
import { locateJsonValue } from '../lint/records/jsonValueSpan.ts';
import {
  type AnnotatorKind,
  DuplicateLabelError,
  ReliabilityBuilder,
  type ReliabilityData,
} from './reliabilityData.ts';

/** The columns (JSON keys) every label file has; `source` is optional. */
export const labelFileRequiredColumns = ['query_id', 'doc_id', 'annotator', 'label'] as const;

/** The `source` of the rows left out: adjudicated labels are decisions, not opinions. */
export const skippedSource = 'adjudicated';

export type LabelFileFormat = 'csv' | 'tsv' | 'jsonl';

export interface LabelFileOptions {
  /** The file's name in error positions (default: the path). */
  name?: string;
  /** The label values in order (a study's scale), when known; else the sorted labels seen. */
  scale?: readonly number[];
}

export interface LabelFileData {
  data: ReliabilityData;
  format: LabelFileFormat;
  /** Labels read (the rows skipped as adjudicated not counted). */
  labels: number;
  /** Rows skipped because their source is `adjudicated`. */
  adjudicated: number;
}

const requiredList = 'query_id, doc_id, annotator and label';

/** A decimal number as people write labels: `2`, `-1`, `0.5`, `1e2` (not `0x10`, `Infinity` or an empty field). */
const numberPattern = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A label's text as a number, or NaN when it is not a finite decimal number. */
function parseLabel(text: string): number {
  if (text.length === 1) {
    const digit = text.charCodeAt(0) - 48;
    if (digit >= 0 && digit <= 9) return digit;
  }
  const trimmed = text.trim();
  if (!numberPattern.test(trimmed)) return Number.NaN;
  return Number(trimmed);
}

/** Empty or only whitespace (a blank string starts with a blank character: most ids are refused by one test). */
function isBlankId(text: string): boolean {
  if (text.length === 0) return true;
  const first = text.charCodeAt(0);
  return (first <= 32 || first >= 127) && text.trim() === '';
}

function isSkippedSource(source: string): boolean {
  return source === skippedSource || (source.length > skippedSource.length && source.trim() === skippedSource);
}

const roleQid = 1;
const roleDocid = 2;
const roleAnnotator = 3;
const roleLabel = 4;
const roleSource = 5;
const roleKind = 6;

/**
 * A `kind` column's value (export --labels writes it; core/store/labelKind.ts): gold rows are skipped (gold never
 * joins agreement), LLM labels (`llm`, `judge`) are the LLM's, people's (`person`, `crowd`) human; otherwise (no
 * column, empty, another word) the annotator's name says (`llm:…` is an LLM judge).
 */
function kindOfRow(kind: string | undefined): AnnotatorKind | 'gold' | undefined {
  if (kind === 'gold') return 'gold';
  if (kind === 'llm' || kind === 'judge') return 'llm';
  if (kind === 'person' || kind === 'crowd') return 'human';
  return undefined;
}

const idNames = { query_id: 'a query id', doc_id: 'a document id', annotator: 'an annotator name' } as const;
type IdColumn = keyof typeof idNames;

/** The rows of a label file into `builder`; one instance per file. */
class LabelFileReader {
  readonly file: string;
  readonly builder = new ReliabilityBuilder();
  format: LabelFileFormat | undefined;
  adjudicated = 0;
  private splitter: DelimitedRowSplitter | undefined;
  private header: string[] | undefined;
  private qidColumn = -1;
  private docidColumn = -1;
  private annotatorColumn = -1;
  private labelColumn = -1;
  private sourceColumn = -1;
  private kindColumn = -1;
  /** What each column is read as (role* below; 0: ignored). */
  private roles = new Uint8Array(0);

  constructor(file: string) {
    this.file = file;
  }

  addLine(line: LineText, number: number): void {
    if (this.format === undefined) {
      if (isBlankText(line.text)) return;
      if (line.text.trimStart().startsWith('{')) this.format = 'jsonl';
      else {
        const separator: Separator = separatorOf(line.text);
        this.format = separator === '\t' ? 'tsv' : 'csv';
        this.splitter = new DelimitedRowSplitter(separator);
        this.splitter.captureAll = true;
      }
    }
    if (this.format === 'jsonl') this.jsonLine(line, number);
    else this.delimitedLine(line, number);
  }

  /** At the end of the file: a quote still open is an error; an empty file is not a label file. */
  finish(): void {
    if (this.format === undefined) {
      throw new ImportError(
        { file: this.file, line: 1, column: 1 },
        `a label file: a CSV/TSV header naming ${requiredList}, or JSON lines`,
        'an empty file',
      );
    }
    const splitter = this.splitter;
    if (splitter?.open) {
      throw new ImportError(
        { file: this.file, line: splitter.quoteLine, column: splitter.quoteColumn },
        `a closing '"' for the quote opened here`,
        'the end of the file (the quoted field takes in every line after it)',
      );
    }
  }

  private delimitedLine(line: LineText, number: number): void {
    const splitter = this.splitter!;
    if (!splitter.open && isBlankText(line.text)) return;
    if (
      this.header !== undefined &&
      !splitter.open &&
      line.text.indexOf('"') === -1 &&
      this.plainRow(line.text, number)
    ) {
      return;
    }
    if (!splitter.addLine(line.text, line.ascii, number, line.crlf)) return;
    const header = this.header;
    if (header === undefined) {
      this.readHeader(splitter);
      return;
    }
    if (splitter.fieldCount !== header.length) throw fieldCountError(this.file, splitter, header);
    const values = splitter.values as string[];
    if (this.sourceColumn >= 0 && isSkippedSource(values[this.sourceColumn]!)) {
      this.adjudicated++;
      return;
    }
    const qid = values[this.qidColumn]!;
    const docid = values[this.docidColumn]!;
    const annotator = values[this.annotatorColumn]!;
    if (isBlankId(qid)) throw this.emptyField('query_id', this.qidColumn, qid);
    if (isBlankId(docid)) throw this.emptyField('doc_id', this.docidColumn, docid);
    if (isBlankId(annotator)) throw this.emptyField('annotator', this.annotatorColumn, annotator);
    const kind = kindOfRow(this.kindColumn >= 0 ? values[this.kindColumn] : undefined);
    if (kind === 'gold') return;
    const labelText = values[this.labelColumn]!;
    const label = parseLabel(labelText);
    if (!Number.isFinite(label)) {
      throw new ImportError(
        this.fieldPosition(this.labelColumn, 'label'),
        "a label that is a finite number in 'label'",
        describeFound(labelText),
      );
    }
    this.builder.add(qid, docid, annotator, label, splitter.firstLine, kind);
  }

  /**
   * The fast path for a row on one line without a quote (nearly every row): fields are the text between
   * separators, and only the columns read become strings. Returns false when the row is not well formed — the
   * splitter then reads it again and the error gets its exact position.
   */
  private plainRow(text: string, number: number): boolean {
    const roles = this.roles;
    const separator = this.splitter!.separator;
    const length = text.length;
    let qid = '';
    let docid = '';
    let annotator = '';
    let labelText = '';
    let source = '';
    let kindText: string | undefined;
    let field = 0;
    let start = 0;
    for (;;) {
      let end = text.indexOf(separator, start);
      if (end === -1) end = length;
      const role = field < roles.length ? roles[field]! : 0;
      if (role !== 0) {
        const value = text.slice(start, end);
        if (role === roleQid) qid = value;
        else if (role === roleDocid) docid = value;
        else if (role === roleAnnotator) annotator = value;
        else if (role === roleLabel) labelText = value;
        else if (role === roleKind) kindText = value;
        else source = value;
      }
      field++;
      if (end === length) break;
      start = end + 1;
    }
    if (field !== roles.length) return false;
    if (this.sourceColumn >= 0 && isSkippedSource(source)) {
      this.adjudicated++;
      return true;
    }
    if (isBlankId(qid) || isBlankId(docid) || isBlankId(annotator)) return false;
    const label = parseLabel(labelText);
    if (!Number.isFinite(label)) return false;
    const kind = kindOfRow(kindText);
    if (kind !== 'gold') this.builder.add(qid, docid, annotator, label, number, kind);
    return true;
  }

  private readHeader(splitter: DelimitedRowSplitter): void {
    const header = splitter.capturedValues().map((name) => name.trim());
    const at: SourcePosition = { file: this.file, line: splitter.firstLine, column: 1 };
    const missing = labelFileRequiredColumns.filter((column) => !header.includes(column));
    if (missing.length > 0) {
      throw new ImportError(
        at,
        `${missing.length === 1 ? 'a column' : 'columns'} ${missing.map((c) => shown(c)).join(', ')} ` +
          `(a label file's header names ${requiredList})`,
        `columns ${fieldList(header)}`,
      );
    }
    const indexOf = (name: string): number => {
      const index = header.indexOf(name);
      const again = index < 0 ? -1 : header.indexOf(name, index + 1);
      if (again >= 0) {
        throw new ImportError(
          { file: this.file, line: splitter.startLines[again]!, column: splitter.startColumns[again]!, field: name },
          'a header of distinct column names',
          `${shown(name)} again (first as column ${index + 1})`,
        );
      }
      return index;
    };
    this.qidColumn = indexOf('query_id');
    this.docidColumn = indexOf('doc_id');
    this.annotatorColumn = indexOf('annotator');
    this.labelColumn = indexOf('label');
    this.sourceColumn = indexOf('source');
    this.kindColumn = indexOf('kind');
    this.roles = new Uint8Array(header.length);
    this.roles[this.qidColumn] = roleQid;
    this.roles[this.docidColumn] = roleDocid;
    this.roles[this.annotatorColumn] = roleAnnotator;
    this.roles[this.labelColumn] = roleLabel;
    if (this.sourceColumn >= 0) this.roles[this.sourceColumn] = roleSource;
    if (this.kindColumn >= 0) this.roles[this.kindColumn] = roleKind;
    this.header = header;
  }

  private fieldPosition(column: number, field: string): SourcePosition {
    const splitter = this.splitter!;
    return { file: this.file, line: splitter.startLines[column]!, column: splitter.startColumns[column]!, field };
  }

  private emptyField(field: IdColumn, column: number, value: string): ImportError {
    return new ImportError(
      this.fieldPosition(column, field),
      `${idNames[field]} in ${shown(field)} that is not empty`,
      describeFound(value),
    );
  }

  private jsonLine(line: LineText, number: number): void {
    const text = line.text;
    if (isBlankText(text)) return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw jsonError(this.file, number, line, error);
    }
    if (!isJsonObject(value)) {
      throw new ImportError(
        { file: this.file, line: number, column: columnAt(text, line.ascii, text.length - text.trimStart().length) },
        "a JSON object ('{') with query_id, doc_id, annotator and label",
        describeFound(value),
      );
    }
    if (value.source === skippedSource) {
      this.adjudicated++;
      return;
    }
    const qid = this.jsonId(value, 'query_id', line, number);
    const docid = this.jsonId(value, 'doc_id', line, number);
    const annotator = this.jsonId(value, 'annotator', line, number);
    const kind = kindOfRow(typeof value.kind === 'string' ? value.kind : undefined);
    if (kind === 'gold') return;
    const raw = this.jsonField(value, 'label', line, number);
    const label = typeof raw === 'number' ? raw : typeof raw === 'string' ? parseLabel(raw) : Number.NaN;
    if (!Number.isFinite(label)) {
      throw new ImportError(
        this.jsonPosition(line, number, 'label'),
        "a label that is a finite number (or a string holding one) in 'label'",
        describeFound(raw),
      );
    }
    this.builder.add(qid, docid, annotator, label, number, kind);
  }

  /** The value of a required key, or an error listing the keys the object has. */
  private jsonField(record: JsonObject, key: string, line: LineText, number: number): unknown {
    if (Object.hasOwn(record, key)) return record[key];
    throw new ImportError(
      this.jsonPosition(line, number),
      `a field ${shown(key)} (a label file's objects have ${requiredList})`,
      `fields ${fieldList(Object.keys(record))}`,
    );
  }

  /** An id: a string that is not blank, or a number (as its decimal text). */
  private jsonId(record: JsonObject, key: IdColumn, line: LineText, number: number): string {
    const value = this.jsonField(record, key, line, number);
    if (typeof value === 'string') {
      if (value.trim() !== '') return value;
      throw new ImportError(
        this.jsonPosition(line, number, key),
        `${idNames[key]} in ${shown(key)} that is not empty`,
        describeFound(value),
      );
    }
    if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
    throw new ImportError(
      this.jsonPosition(line, number, key),
      `${idNames[key]} in ${shown(key)} (a string, or a whole number)`,
      describeFound(value),
    );
  }

  /** Where a key's value is on a JSON line (only computed for an error); without a key, where the object starts. */
  private jsonPosition(line: LineText, number: number, key?: string): SourcePosition {
    const text = line.text;
    const range = key === undefined ? undefined : locateJsonValue(text, [key]);
    const offset = range?.start ?? text.length - text.trimStart().length;
    const at: SourcePosition = { file: this.file, line: number, column: columnAt(text, line.ascii, offset) };
    if (key !== undefined) at.field = key;
    return at;
  }
}

/**
 * Reads a label file into reliability data. Rejects with ImportError (every malformed row, a missing column, a
 * second label of a unit by one annotator — naming both lines) and with FileReadError when the file cannot be read.
 */
export async function readLabelFile(path: string, options: LabelFileOptions = {}): Promise<LabelFileData> {
  const reader = new LabelFileReader(options.name ?? path);
  for await (const batch of lineBatches(path)) {
    for (const raw of batch) reader.addLine(decodeLine(raw.bytes, raw.start, raw.end, raw.number), raw.number);
  }
  reader.finish();
  let data: ReliabilityData;
  try {
    data = reader.builder.build(options.scale);
  } catch (error) {
    if (!(error instanceof DuplicateLabelError)) throw error;
    throw new ImportError(
      { file: reader.file, line: error.secondLine, column: 1 },
      'one label per annotator for each query and document',
      `a second label by ${shown(error.annotator)} for query ${shown(error.qid)}, document ` +
        `${shown(error.docid)} (the first on line ${error.firstLine})`,
      { file: reader.file, line: error.firstLine },
    );
  }
  return { data, format: reader.format!, labels: reader.builder.labelCount, adjudicated: reader.adjudicated };
}
