// The record linter's one pass over a file, fed line by line (byte ranges) by lintRecordFile (from disk, plain or
// gzip) or lintRecordText (an editor's document). Like core/lint's session, it keeps the first lines until it
// knows the format (and the kind and the id field, from the first record or the header), then runs the rules for
// that format and kind: it decodes each line once, parses a JSONL line once (JSON.parse; jsonc-parser only for
// the lines JSON.parse refuses, to say where and why), splits a CSV/TSV row once, and derives the facts the id
// rules share (the id, its first occurrence). Per-line work is linear in the line's length.
//
// Cascade guard: when more than half of the first 100 records are malformed (not JSON objects; rows without the
// header's field count), the file is clearly something else; the session says so in one error and stops.
import { DelimitedRowSplitter } from '../../data/delimitedRows.ts';
import { isJsonObject, resolveFieldPath, valueAtPath } from '../../data/fieldPath.ts';
import { decodeLine, hasByteOrderMark, type LineText } from '../../data/lineText.ts';
import {
  detectRecordFormat,
  formatFromFileName,
  isBlankText,
  type RecordFormat,
  recordFormatNames,
} from '../../data/recordFormat.ts';
import { TextColumns } from '../../data/textColumns.ts';
import { GrowableInt32 } from '../../formats/growableArrays.ts';
import type { SampleLine } from '../detectFileType.ts';
import type { FileEnd } from '../rule.ts';
import type { LintDiagnostic } from '../types.ts';
import { findJsonSyntaxError } from './jsonSyntaxError.ts';
import { detectRecordKind, kindIdFields, requiredFields } from './recordKinds.ts';
import { type HeaderView, PhysicalLine, RecordView, type Span } from './recordView.ts';
import { recordRules } from './registry.ts';
import type { Problem, RecordCheck, RecordFileEnd, RecordRule, RecordRuleContext } from './rule.ts';
import { noRecords } from './rules/noRecords.ts';
import { recordFormat } from './rules/recordFormat.ts';
import { trecLookalike } from './trecLookalike.ts';
import type { RecordKind, RecordLintOptions, RecordLintResult } from './types.ts';

/** Records looked at before deciding the kind, and for the cascade guard. */
const sampleContentLines = 100;
/** Below this many sample records, malformed ones are reported one by one (a file being typed). */
const guardMinimumRecords = 10;
const sampleMaxLines = 2000;
/** Leading blank lines are kept sampling past sampleMaxLines, up to this many, to find the first record. */
const sampleMaxBlankLines = 1 << 20;
/** Content lines format detection looks at. */
const detectionLines = 20;
const sampleMaxBytes = 1 << 20;
/** CSV/TSV id values longer than this are cut (an unterminated quote can run to the end of the file). */
const idCaptureLimit = 1 << 16;

export class RecordLintSession {
  readonly file: string;
  private readonly options: RecordLintOptions;
  private readonly diagnostics: LintDiagnostic[] = [];
  private readonly columns = new TextColumns();
  private readonly physical = new PhysicalLine(this.columns);
  private readonly view = new RecordView(this.columns);

  private sample: SampleLine[] | undefined = [];
  private sampleContent = 0;
  private sampleBytes = 0;
  private stopped = false;
  private format: RecordFormat | undefined;
  private kind: RecordKind = 'records';
  private idField: string | undefined;
  private rows: DelimitedRowSplitter | undefined;
  private headerRead = false;
  private headerCount = 0;
  private headerSpan: Span | undefined;
  private idColumn = -1;
  private records = 0;
  private lastText = '';
  private lastAscii = true;

  private lineChecks: ((line: PhysicalLine) => void)[] = [];
  private headerChecks: ((header: HeaderView) => void)[] = [];
  private recordChecks: ((record: RecordView) => void)[] = [];
  private endChecks: ((file: RecordFileEnd) => void)[] = [];

  // First occurrence of each id key: index into the line and column arrays.
  private readonly firstIds = new Map<string, number>();
  private readonly firstLines = new GrowableInt32(4096);
  private readonly firstColumns = new GrowableInt32(4096);

  // Counted while the sample is replayed, for the cascade guard.
  private counting = false;
  private countedRecords = 0;
  private malformedRecords = 0;
  private firstMalformed = 0;

  constructor(file: string, options: RecordLintOptions = {}) {
    this.file = file;
    this.options = options;
  }

  /**
   * Takes the next line: `bytes[start, end)` without its `\n`, `lineNumber` 1-based and consecutive. Returns false
   * once the session has stopped (a file it will not lint further), so the reader can stop too.
   */
  readonly addLine = (bytes: Uint8Array, start: number, end: number, lineNumber: number): boolean => {
    if (this.stopped) return false;
    const sample = this.sample;
    if (sample === undefined) {
      this.process(bytes, start, end, lineNumber);
      return !this.stopped;
    }
    const copy = bytes.slice(start, end);
    sample.push({ bytes: copy, number: lineNumber });
    this.sampleBytes += copy.length;
    if (!isBlankBytes(copy, lineNumber)) this.sampleContent++;
    if (
      this.sampleContent >= sampleContentLines ||
      (sample.length >= sampleMaxLines && this.sampleContent > 0) ||
      sample.length >= sampleMaxBlankLines ||
      this.sampleBytes >= sampleMaxBytes
    ) {
      this.decide();
    }
    return !this.stopped;
  };

  /** Ends the file and returns every diagnostic, sorted by position. */
  finish(file: FileEnd): RecordLintResult {
    if (this.sample !== undefined) this.decide();
    if (!this.stopped) {
      const rows = this.rows;
      if (rows?.open) {
        const view = this.view;
        view.reset(this.format!, rows.firstLine);
        view.kind = 'unterminated';
        view.endLine = rows.lastLine;
        view.row = rows;
        this.runRecordChecks(view);
      }
      this.columns.reset(this.lastText, this.lastAscii);
      const end: RecordFileEnd = { ...file, lastLineEndColumn: this.columns.endColumn() };
      for (const check of this.endChecks) check(end);
      if (this.format !== 'jsonl' && this.headerRead && this.records === 0 && !rows?.open) {
        const span = this.headerSpan!;
        this.report(noRecords, {
          line: span.line,
          column: span.column,
          endLine: span.endLine,
          endColumn: span.endColumn,
          message: 'no records: the file has a header and no rows',
        });
      }
    }
    this.diagnostics.sort((a, b) => a.line - b.line || a.column - b.column);
    return {
      file: this.file,
      format: this.format ?? 'unknown',
      kind: this.kind,
      diagnostics: this.diagnostics,
    };
  }

  /** Decides the format, kind and id field from the sample, then lints the sample and applies the cascade guard. */
  private decide(): void {
    const sample = this.sample!;
    this.sample = undefined;
    const firstContent = sample.find((line) => !isBlankBytes(line.bytes, line.number));
    if (firstContent === undefined) {
      this.stopped = true;
      const message =
        sample.length === 0 ? 'no records: the file is empty' : 'no records: the file holds only blank lines';
      this.report(noRecords, { line: 1, column: 1, endColumn: 1, message });
      return;
    }
    const firstText = decodeSample(firstContent);
    const forced = this.options.format;
    const format = forced ?? detectRecordFormat(detectionSample(sample)) ?? formatFromFileName(this.file);
    if (forced === undefined && format !== 'jsonl') {
      const lookalike = trecLookalike(sample, true);
      if (lookalike !== undefined) {
        this.reportFileLevel(
          firstContent,
          `this is ${lookalike}, not one record per line with named fields; lint it as that instead`,
        );
        return;
      }
    }
    if (format === undefined) {
      const lead = firstText.text.trimStart()[0];
      this.reportFileLevel(
        firstContent,
        lead === '['
          ? "cannot lint as records: the file starts with '[', a JSON array (a .json file); expected JSONL, one " +
              'JSON object per line'
          : `cannot tell the record format: line ${firstContent.number} is not a JSON object (JSONL) and has no ` +
              'commas (CSV) or tabs (TSV); not linted',
      );
      return;
    }
    this.format = format;
    const fields = format === 'jsonl' ? firstRecordFields(sample) : headerFields(sample, format);
    this.kind = this.options.kind ?? detectRecordKind(fields);
    this.idField =
      this.options.mapping?.id ??
      kindIdFields[this.kind] ??
      (fields.includes('_id') ? '_id' : fields.includes('id') ? 'id' : undefined);
    this.start(format);
    this.counting = true;
    for (const line of sample) this.process(line.bytes, 0, line.bytes.length, line.number);
    this.counting = false;
    if (this.countedRecords >= guardMinimumRecords && this.malformedRecords * 2 > this.countedRecords) {
      this.tripGuard(sample, firstText.text);
    }
  }

  private start(format: RecordFormat): void {
    if (format !== 'jsonl') {
      this.rows = new DelimitedRowSplitter(format === 'csv' ? ',' : '\t');
      this.rows.captureAll = true;
    }
    const context: RecordRuleContext = {
      file: this.file,
      format,
      kind: this.kind,
      idField: this.idField,
      requiredFields: requiredFields(this.kind, this.options.mapping),
      report: () => {},
    };
    for (const rule of recordRules) {
      if (!rule.create || !rule.formats.includes(format)) continue;
      if (rule.kinds && !rule.kinds.includes(this.kind)) continue;
      const check: RecordCheck = rule.create({ ...context, report: (problem) => this.report(rule, problem) });
      if (check.line) this.lineChecks.push(check.line);
      if (check.header) this.headerChecks.push(check.header);
      if (check.record) this.recordChecks.push(check.record);
      if (check.end) this.endChecks.push(check.end);
    }
  }

  private process(bytes: Uint8Array, start: number, end: number, lineNumber: number): void {
    const line = decodeLine(bytes, start, end, lineNumber);
    this.lastText = line.text;
    this.lastAscii = line.ascii;
    this.columns.reset(line.text, line.ascii);
    const physical = this.physical;
    physical.number = lineNumber;
    physical.bom = line.bom;
    physical.crlf = line.crlf;
    const lineChecks = this.lineChecks;
    for (let i = 0; i < lineChecks.length; i++) lineChecks[i]!(physical);
    if (this.format === 'jsonl') this.processJsonLine(line, lineNumber);
    else this.processRowLine(line, lineNumber);
  }

  private processJsonLine(line: LineText, lineNumber: number): void {
    const view = this.view;
    view.reset('jsonl', lineNumber);
    const text = line.text;
    view.text = text;
    if (isBlankText(text)) {
      view.kind = 'blank';
    } else {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (error) {
        view.kind = 'invalid';
        view.syntaxError = findJsonSyntaxError(text, error);
      }
      if (view.kind !== 'invalid') {
        view.value = value;
        if (isJsonObject(value)) {
          view.object = value;
          this.records++;
          const path = this.idField === undefined ? undefined : resolveFieldPath(value, this.idField);
          if (path !== undefined) {
            view.hasId = true;
            view.idPath = path;
            view.id = valueAtPath(value, path);
            this.noteId(view);
          }
        } else {
          view.kind = 'value';
        }
      }
      this.count(view.kind !== 'record', lineNumber);
    }
    this.runRecordChecks(view);
  }

  private processRowLine(line: LineText, lineNumber: number): void {
    const rows = this.rows!;
    if (!rows.open && isBlankText(line.text)) return; // csv and pandas skip blank lines between rows
    if (!rows.addLine(line.text, line.ascii, lineNumber, line.crlf)) return;
    if (!this.headerRead) {
      this.readHeader(rows);
      return;
    }
    const view = this.view;
    view.reset(this.format!, rows.firstLine);
    view.endLine = rows.lastLine;
    view.row = rows;
    view.idColumn = this.idColumn;
    this.records++;
    if (this.idColumn >= 0 && this.idColumn < rows.fieldCount) {
      view.hasId = true;
      view.id = rows.values[this.idColumn];
      this.noteId(view);
    }
    this.count(rows.fieldCount !== this.headerCount, rows.firstLine);
    this.runRecordChecks(view);
  }

  private readHeader(rows: DelimitedRowSplitter): void {
    this.headerRead = true;
    const names = rows.capturedValues();
    this.headerCount = names.length;
    this.idColumn = this.idField === undefined ? -1 : names.indexOf(this.idField);
    rows.captureAll = false;
    rows.captureField = this.idColumn;
    rows.captureLimit = idCaptureLimit;
    const spans: Span[] = [];
    for (let i = 0; i < names.length; i++) {
      spans.push({
        line: rows.startLines[i]!,
        column: rows.startColumns[i]!,
        endLine: rows.endLines[i]!,
        endColumn: rows.endColumns[i]!,
      });
    }
    this.headerSpan = { line: rows.firstLine, column: 1, endLine: rows.lastLine, endColumn: rows.rowEndColumn };
    const header: HeaderView = { names, spans, span: this.headerSpan };
    for (const check of this.headerChecks) check(header);
  }

  /** Derives the id key and, for a repeat, where the id was first seen. */
  private noteId(view: RecordView): void {
    const key = idKeyOf(view.id);
    if (key === undefined) return;
    view.idKey = key;
    const first = this.firstIds.get(key);
    if (first !== undefined) {
      view.first = { line: this.firstLines.data[first]!, column: this.firstColumns.data[first]! };
      return;
    }
    const span = view.idSpan();
    // A CSV value is a slice of its line: copy it, so the map does not keep every line alive.
    this.firstIds.set(view.format === 'jsonl' ? key : detach(key), this.firstLines.length);
    this.firstLines.push(span.line);
    this.firstColumns.push(span.column);
  }

  private count(malformed: boolean, lineNumber: number): void {
    if (!this.counting) return;
    this.countedRecords++;
    if (malformed && this.malformedRecords++ === 0) this.firstMalformed = lineNumber;
  }

  private runRecordChecks(view: RecordView): void {
    const checks = this.recordChecks;
    for (let i = 0; i < checks.length; i++) checks[i]!(view);
  }

  private tripGuard(sample: readonly SampleLine[], firstText: string): void {
    const format = this.format!;
    const example = this.diagnostics.find((d) => d.line === this.firstMalformed && d.severity === 'error');
    this.diagnostics.length = 0;
    this.lineChecks = [];
    this.headerChecks = [];
    this.recordChecks = [];
    this.endChecks = [];
    this.stopped = true;
    let looksLike = '';
    if (format === 'jsonl' && /^\s*[[{]\s*$/.test(firstText)) {
      looksLike = '; it looks like pretty-printed JSON (one value over many lines), not JSONL';
    } else {
      const lookalike = trecLookalike(sample, false);
      if (lookalike !== undefined) looksLike = `; it looks like ${lookalike}`;
    }
    const firstProblem = example ? ` (line ${example.line}: ${example.message})` : '';
    const what =
      format === 'jsonl' ? `lines are not JSON objects` : `rows do not have the header's ${this.headerCount} fields`;
    this.report(recordFormat, {
      line: example?.line ?? this.firstMalformed,
      column: example?.column ?? 1,
      endLine: example?.endLine,
      endColumn: example?.endColumn ?? 1,
      message:
        `${this.malformedRecords} of the first ${this.countedRecords} ${what}${firstProblem}${looksLike}; not ` +
        `${recordFormatNames[format]} records, the rest of the file is not linted`,
    });
  }

  private reportFileLevel(line: SampleLine, message: string): void {
    this.stopped = true;
    const { text, ascii } = decodeSample(line);
    this.columns.reset(text, ascii);
    this.report(recordFormat, { line: line.number, column: 1, endColumn: this.columns.endColumn(), message });
  }

  private report(rule: RecordRule, problem: Problem): void {
    this.diagnostics.push({
      file: this.file,
      line: problem.line,
      column: problem.column,
      endLine: problem.endLine ?? problem.line,
      endColumn: problem.endColumn,
      severity: rule.severity,
      rule: rule.id,
      message: problem.message,
      ...(problem.related ? { related: problem.related } : {}),
    });
  }
}

/** The key duplicates are compared by: a string with more than spaces, or a finite number's text. */
function idKeyOf(id: unknown): string | undefined {
  if (typeof id === 'string') return id.trim() === '' ? undefined : id;
  if (typeof id === 'number' && Number.isFinite(id)) return String(id);
  return undefined;
}

function detach(text: string): string {
  return text.length < 16 ? text : (JSON.parse(JSON.stringify(text)) as string);
}

/** The text of the first content lines, for format detection. */
function detectionSample(sample: readonly SampleLine[]): string[] {
  const texts: string[] = [];
  for (const line of sample) {
    if (isBlankBytes(line.bytes, line.number)) continue;
    texts.push(decodeSample(line).text);
    if (texts.length >= detectionLines) break;
  }
  return texts;
}

function decodeSample(line: SampleLine): LineText {
  return decodeLine(line.bytes, 0, line.bytes.length, line.number);
}

/** Only spaces, tabs, CRs (and line 1's byte order mark). */
function isBlankBytes(bytes: Uint8Array, lineNumber: number): boolean {
  const start = lineNumber === 1 && hasByteOrderMark(bytes, 0, bytes.length) ? 3 : 0;
  for (let i = start; i < bytes.length; i++) {
    const c = bytes[i];
    if (c !== 32 && c !== 9 && c !== 13) return false;
  }
  return true;
}

/** The keys of the first JSON object among the sample lines. */
function firstRecordFields(sample: readonly SampleLine[]): string[] {
  for (const line of sample) {
    const { text } = decodeSample(line);
    if (isBlankText(text)) continue;
    try {
      const value: unknown = JSON.parse(text);
      if (isJsonObject(value)) return Object.keys(value);
    } catch {
      // Not this line: the rules will say why.
    }
  }
  return [];
}

/** The names in the header (the first non-blank row) of a CSV/TSV sample. */
function headerFields(sample: readonly SampleLine[], format: RecordFormat): string[] {
  const rows = new DelimitedRowSplitter(format === 'csv' ? ',' : '\t');
  rows.captureAll = true;
  for (const line of sample) {
    const { text, ascii, crlf } = decodeSample(line);
    if (!rows.open && isBlankText(text)) continue;
    if (rows.addLine(text, ascii, line.number, crlf)) return rows.capturedValues();
  }
  return [];
}
