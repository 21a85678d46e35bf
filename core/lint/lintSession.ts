// The linter's one pass over a file, fed line by line (byte ranges) by lintFile (from disk, plain or gzip) or
// lintText (an editor's document). It keeps the first lines until it knows the file type, then runs every rule
// for that type on each line: the session splits each line once and derives the facts rules share (interned
// query, (query, docid) pair and its first occurrence, label, rank, score), and the rules report.
//
// Cascade guard: when more than half of the first 100 content lines are malformed for the type (detected or
// forced), the file is clearly something else; the session says so in one error and reports nothing more.
import { parseFloatField, parseIntegerField } from '../formats/trecFields.ts';
import { type Detection, detectFileType, fileTypeName, type SampleLine } from './detectFileType.ts';
import { type FileFormat, fileFormats } from './fileFormats.ts';
import { LineView } from './lineView.ts';
import { PairIndex } from './pairIndex.ts';
import { QueryIndex } from './queryIndex.ts';
import { lintRules } from './registry.ts';
import type { FileEnd, LintRule, Problem, RuleCheck, RuleContext, RuleScope } from './rule.ts';
import { emptyFile } from './rules/emptyFile.ts';
import { fileType } from './rules/fileType.ts';
import { unsupportedFormat } from './rules/unsupportedFormat.ts';
import type { StudyLintContext } from './studyContext.ts';
import {
  compareDiagnostics,
  type DetectedFileType,
  type LintDiagnostic,
  type LintFileType,
  type LintResult,
} from './types.ts';

/** Content lines looked at before deciding the type, and for the cascade guard. */
const sampleContentLines = 100;
/** Below this many sample content lines, malformed lines are reported one by one (a file being typed). */
const guardMinimumLines = 10;
const sampleMaxLines = 2000;
const sampleMaxBytes = 1 << 20;

/**
 * How much of the lint a session does. A whole lint ('all', the default) runs every rule. The editor's incremental
 * lint (incrementalLint.ts) splits it: one 'file' session over every line runs the file-scope rules, type detection
 * and the cascade guard, without interning queries and pairs; 'query' sessions over the lines of one query each
 * (type forced, no guard) run the query-scope rules.
 */
export type SessionScope = 'all' | RuleScope;

export interface SessionOptions {
  /** Lint as this type instead of detecting it. */
  type?: LintFileType;
  /** Roughly how many lines are coming, to size per-line storage once. */
  expectedLines?: number;
  scope?: SessionScope;
  /** The study that uses the file, for the study-aware rules. */
  study?: StudyLintContext;
  /**
   * Keep every (query, docid) pair, not just those of the current query's block: for a file whose queries come
   * back (see needsEveryPair).
   */
  everyPair?: boolean;
}

export class LintSession {
  readonly file: string;
  private readonly forcedType: LintFileType | undefined;
  private readonly diagnostics: LintDiagnostic[] = [];
  private readonly view = new LineView();
  private readonly queries = new QueryIndex();
  private pairs: PairIndex;
  private readonly expectedLines: number;

  private sample: SampleLine[] | undefined = [];
  private sampleContent = 0;
  private sampleBytes = 0;
  private stopped = false;
  /** The number of the last line the type was decided from (0 until then). */
  private sampleEnd = 0;
  private type: DetectedFileType = 'empty';
  private format: FileFormat | undefined;
  private lineChecks: ((line: LineView) => void)[] = [];
  /** The line checks of rules that skip plain lines (LineView.plain). */
  private unusualLineChecks: ((line: LineView) => void)[] = [];
  /** The number of the last line the rules saw (the view still shows it), for FileEnd.lastLineEndColumn. */
  private lastLine = 0;
  private endChecks: ((file: FileEnd) => void)[] = [];
  // Counted while the sample is replayed, for the cascade guard.
  private counting = false;
  private countedLines = 0;
  private malformedLines = 0;
  private firstMalformed = 0;

  private readonly scope: SessionScope;
  private readonly study: StudyLintContext | undefined;
  private readonly options: SessionOptions;
  private stoppedForEveryPair = false;
  /** Whether lines past the sample are split and their values parsed (not when no running rule reads them). */
  private splitLines = true;
  /**
   * Whether addLines may split lines itself while it looks for their ends (whitespace-separated formats once the
   * type is decided): one scan per line instead of a search for the newline, a blank test and a split.
   */
  private scanLines = false;

  constructor(file: string, options: SessionOptions = {}) {
    this.file = file;
    this.options = options;
    this.forcedType = options.type;
    this.scope = options.scope ?? 'all';
    this.study = options.study;
    this.expectedLines = Math.min(Math.max(options.expectedLines ?? 4096, 1024), 1 << 22);
    // A whole-file session sizes its pairs once it has seen the docids of the first lines (decide).
    this.pairs = new PairIndex(this.scope === 'query' ? this.expectedLines : 1024);
    if (this.scope === 'query') {
      // The lines of one query of a file whose type (and cascade guard) the file-scope session decided.
      if (options.type === undefined) throw new Error('a query-scope lint session needs the file type');
      this.sample = undefined;
      this.type = options.type;
      this.start(fileFormats[options.type]);
    }
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
    // A copy: a reader's buffer is read into again (Buffer's slice would be a view of it).
    const copy = Uint8Array.prototype.slice.call(bytes, start, end);
    sample.push({ bytes: copy, number: lineNumber });
    this.sampleBytes += copy.length;
    if (!isBlankOrComment(copy)) this.sampleContent++;
    if (
      this.sampleContent >= sampleContentLines ||
      sample.length >= sampleMaxLines ||
      this.sampleBytes >= sampleMaxBytes
    ) {
      this.decide();
    }
    return !this.stopped;
  };

  /**
   * Takes whole lines at once: `bytes[start, end)` holds lines each ending with `\n` (a last line without one goes
   * to addLine), the first numbered `firstLineNumber`. Returns the number of the line after them, or -1 once the
   * session has stopped (the reader can stop too).
   */
  addLines(bytes: Uint8Array, start: number, end: number, firstLineNumber: number): number {
    if (end > start && bytes[end - 1] !== 10) throw new Error('addLines takes whole lines, each ending with \\n');
    let lineNumber = firstLineNumber;
    let position = start;
    while (position < end) {
      if (this.scanLines) {
        const next = this.scanLine(bytes, position, lineNumber);
        if (next >= 0) {
          position = next;
          lineNumber++;
          continue;
        }
      }
      let newline = position;
      while (bytes[newline] !== 10) newline++;
      if (!this.addLine(bytes, position, newline, lineNumber++)) return -1;
      position = newline + 1;
    }
    return this.stopped ? -1 : lineNumber;
  }

  /**
   * Splits the line at `start` (whitespace-separated format, type decided) while finding its end, then derives and
   * checks it as process() would, and returns the offset of the next line — or -1, having done nothing, for a line
   * process() must see: blank, a possible comment, line 1 (a byte order mark) or a control byte other than tab
   * (CR, vertical tab, form feed: process() knows what they mean). The view ends up as process() leaves it.
   */
  private scanLine(bytes: Uint8Array, start: number, lineNumber: number): number {
    if (lineNumber === 1 || bytes[start] === 35) return -1;
    const line = this.view;
    const starts = line.starts;
    const ends = line.ends;
    let all = 0;
    let count = 0;
    let i = start;
    let c = bytes[i]!;
    while (c === 32 || c === 9) c = bytes[++i]!;
    while (c !== 10) {
      if (c < 32) return -1;
      const fieldStart = i;
      do {
        all |= c;
        c = bytes[++i]!;
      } while (c > 32);
      if (count < starts.length) {
        starts[count] = fieldStart;
        ends[count] = i;
      }
      count++;
      while (c === 32 || c === 9) c = bytes[++i]!;
    }
    if (count === 0 || bytes[starts[0]!] === 35) return -1;
    line.bytes = bytes;
    line.number = lineNumber;
    line.bom = false;
    line.crlf = false;
    line.start = start;
    line.end = i;
    line.ascii = all < 0x80;
    line.kind = 'content';
    line.fieldCount = count;
    line.wellFormed = false;
    line.qid = -1;
    line.pair = -1;
    line.firstPair = -1;
    line.label = Number.NaN;
    line.rank = Number.NaN;
    line.score = Number.NaN;
    line.plain = false;
    this.derive(line, this.format!);
    this.lastLine = lineNumber;
    const checks = this.lineChecks;
    for (let k = 0; k < checks.length; k++) checks[k]!(line);
    if (!line.plain) {
      const unusual = this.unusualLineChecks;
      for (let k = 0; k < unusual.length; k++) unusual[k]!(line);
    }
    return i + 1;
  }

  /** Ends the file and returns every diagnostic, sorted by position. */
  finish(file: FileEnd): LintResult {
    if (this.sample !== undefined) this.decide();
    if (!this.stopped) {
      const end: FileEnd = this.lastLine === 0 ? file : { ...file, lastLineEndColumn: this.view.endColumn() };
      for (const check of this.endChecks) check(end);
    }
    this.diagnostics.sort(compareDiagnostics);
    return { file: this.file, type: this.type, diagnostics: this.diagnostics };
  }

  /**
   * The session stopped because a query came back after other queries while it kept only the current query's
   * pairs (the default: nearly every file is grouped by query, and then a million lines need no memory per line).
   * Its findings are incomplete: lint the file again with the session `again()` gives.
   */
  get needsEveryPair(): boolean {
    return this.stoppedForEveryPair;
  }

  /** A new session for the same file, with the same options, that keeps every pair. */
  again(): LintSession {
    return new LintSession(this.file, { ...this.options, everyPair: true });
  }

  /** Whether the session stopped linting: a file-level verdict (empty, unknown, prels) or the cascade guard. */
  get hasStopped(): boolean {
    return this.stopped;
  }

  /** The last line of the first lines the file type and the cascade guard were decided from. */
  get sampleLastLine(): number {
    return this.sampleEnd;
  }

  /** Decides the file type from the sample, then lints the sample lines and applies the cascade guard. */
  private decide(): void {
    const sample = this.sample!;
    this.sample = undefined;
    this.sampleEnd = sample.at(-1)?.number ?? 0;
    const detection = detectFileType(sample);
    const type = this.forcedType ?? detection.type;
    this.type = type;
    if (detection.type === 'empty') {
      this.reportFileLevel(
        emptyFile,
        sample,
        'no judgment or ranking lines: the file is empty or holds only blank and comment lines',
      );
      return;
    }
    if (type === 'prels') {
      this.reportFileLevel(unsupportedFormat, sample, 'this is a prels file (statAP), not a qrels file; not linted');
      return;
    }
    if (type === 'hf-viewer') {
      this.reportFileLevel(
        unsupportedFormat,
        sample,
        `this is a Hugging Face dataset-viewer copy (${detection.description}), a corpus or queries file, not ` +
          'qrels or a run; not linted. A study reads it as `corpus "FILE" from hf-viewer { body: text }` ' +
          '(ids <source>#<n>)',
      );
      return;
    }
    if (type === 'unknown' || type === 'empty') {
      this.reportFileLevel(
        fileType,
        sample,
        `cannot tell what kind of file this is: ${detection.description}; TREC qrels have 4 columns ` +
          '(qid iter docid rel), TREC runs 6 (qid Q0 docid rank score tag), BEIR qrels 3 tab-separated ' +
          '(query-id corpus-id score) under a header; not linted',
      );
      return;
    }
    const format = fileFormats[type];
    if (this.scope !== 'file') this.pairs = new PairIndex(this.expectedLines, averageDocidBytes(sample, format));
    this.start(format);
    this.counting = true;
    for (const line of sample) this.process(line.bytes, 0, line.bytes.length, line.number);
    this.counting = false;
    if (this.countedLines >= guardMinimumLines && this.malformedLines * 2 > this.countedLines) {
      this.tripGuard(detection);
    }
  }

  private start(format: FileFormat): void {
    this.format = format;
    const context: RuleContext = {
      file: this.file,
      format,
      queries: this.queries,
      pairs: this.pairs,
      expectedLines: this.expectedLines,
      study: this.study,
      report: () => {},
    };
    let readsFields = this.scope !== 'file';
    // A query-scope session sees one query's lines: keeping them all costs nothing and never needs a second pass.
    let everyPair = this.options.everyPair === true || this.scope === 'query';
    for (const rule of lintRules) {
      if (!rule.create || !rule.fileTypes.includes(format.type)) continue;
      if (this.scope !== 'all' && rule.scope !== this.scope) continue;
      if (rule.readsFields) readsFields = true;
      if (rule.readsPairsLater) everyPair = true;
      const check: RuleCheck = rule.create({ ...context, report: (problem) => this.report(rule, problem) });
      if (check.line) (rule.skipsPlainLines ? this.unusualLineChecks : this.lineChecks).push(check.line);
      if (check.end) this.endChecks.push(check.end);
    }
    if (everyPair) this.pairs.keepEveryPair();
    this.splitLines = readsFields;
    this.scanLines = readsFields && format.separator === 'whitespace' && !format.header;
  }

  private process(bytes: Uint8Array, start: number, end: number, lineNumber: number): void {
    const format = this.format!;
    const line = this.view;
    line.reset(bytes, start, end, lineNumber);
    if (format.header && lineNumber === 1) {
      line.kind = 'header';
    } else if (line.isBlank()) {
      line.kind = 'blank';
    } else if (
      (format.comments === 'first-byte' && bytes[line.start] === 35) ||
      (format.comments === 'first-non-blank' && line.firstNonSpace() === 35)
    ) {
      line.kind = 'comment';
    }
    if ((line.kind === 'content' || line.kind === 'header') && (this.splitLines || this.counting)) {
      if (format.separator === 'tab') line.splitOnTabs();
      else line.splitOnWhitespace();
    }
    if (line.kind === 'content' && (this.splitLines || this.counting)) this.derive(line, format);
    this.lastLine = lineNumber;
    const checks = this.lineChecks;
    for (let i = 0; i < checks.length; i++) checks[i]!(line);
    if (line.plain) return;
    const unusual = this.unusualLineChecks;
    for (let i = 0; i < unusual.length; i++) unusual[i]!(line);
  }

  /** The facts of a content line every rule shares. */
  private derive(line: LineView, format: FileFormat): void {
    const columns = format.columns.length;
    line.wellFormed = line.fieldCount === columns || (line.fieldCount > columns && format.extraColumns === 'ignored');
    let valid = line.wellFormed;
    if (line.wellFormed) {
      if (this.scope !== 'file') {
        line.qid = this.queries.intern(line, 0);
        this.pairs.add(line, format.docidField);
        if (this.pairs.scattered) this.stopForEveryPair();
      }
      const bytes = line.bytes;
      if (format.labelField >= 0) {
        let from = line.starts[format.labelField]!;
        let to = line.ends[format.labelField]!;
        if (format.separator === 'tab') {
          // Python's int() accepts surrounding spaces.
          while (from < to && bytes[from] === 32) from++;
          while (to > from && bytes[to - 1] === 32) to--;
        }
        line.label = parseIntegerField(bytes, from, to);
        valid = !Number.isNaN(line.label);
      }
      if (format.scoreField >= 0) {
        line.rank = parseIntegerField(bytes, line.starts[format.rankField]!, line.ends[format.rankField]!);
        line.score = parseFloatField(bytes, line.starts[format.scoreField]!, line.ends[format.scoreField]!);
        valid = !Number.isNaN(line.score);
      }
    }
    if (
      line.fieldCount === columns &&
      line.firstPair < 0 &&
      !line.crlf &&
      !line.bom &&
      (format.labelField < 0 || !Number.isNaN(line.label)) &&
      (format.scoreField < 0 || !Number.isNaN(line.score)) &&
      (format.rankField < 0 || !Number.isNaN(line.rank))
    ) {
      const last = line.bytes[line.end - 1];
      line.plain = last !== 32 && last !== 9;
    }
    if (this.counting) {
      this.countedLines++;
      if (!valid && this.malformedLines++ === 0) this.firstMalformed = line.number;
    }
  }

  private stopForEveryPair(): void {
    this.stopped = true;
    this.stoppedForEveryPair = true;
    this.scanLines = false;
    this.lineChecks = [];
    this.unusualLineChecks = [];
    this.endChecks = [];
  }

  private tripGuard(detection: Detection): void {
    const format = this.format!;
    const example = this.diagnostics.find((d) => d.line === this.firstMalformed && d.severity === 'error');
    this.diagnostics.length = 0;
    this.lineChecks = [];
    this.unusualLineChecks = [];
    this.endChecks = [];
    this.stopped = true;
    this.scanLines = false;
    const looksLike =
      detection.type !== format.type && detection.type !== 'unknown' && detection.type !== 'empty'
        ? `; it looks like ${fileTypeName(detection.type)} (${detection.description})`
        : '';
    const firstProblem = example ? ` (line ${example.line}: ${example.message})` : '';
    this.report(fileType, {
      line: example?.line ?? this.firstMalformed,
      column: example?.column ?? 1,
      endColumn: example?.endColumn ?? 1,
      message:
        `${this.malformedLines} of the first ${this.countedLines} lines are not valid ${format.name} lines` +
        `${firstProblem}${looksLike}; the rest of the file is not linted`,
    });
  }

  private reportFileLevel(rule: LintRule, sample: readonly SampleLine[], message: string): void {
    this.stopped = true;
    const first = sample.find((line) => !isBlankOrComment(line.bytes));
    const line = this.view;
    if (first) line.reset(first.bytes, 0, first.bytes.length, first.number);
    this.report(rule, {
      line: first?.number ?? 1,
      column: 1,
      endColumn: first ? line.endColumn() : 1,
      message,
    });
  }

  private report(rule: LintRule, problem: Problem): void {
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

/** The average length of the docids of the sample's lines that have one (12 when none has), rounded up. */
function averageDocidBytes(sample: readonly SampleLine[], format: FileFormat): number {
  const view = new LineView();
  let bytes = 0;
  let docids = 0;
  for (const line of sample) {
    view.reset(line.bytes, 0, line.bytes.length, line.number);
    if (format.separator === 'tab') view.splitOnTabs();
    else view.splitOnWhitespace();
    if (view.fieldCount <= format.docidField) continue;
    bytes += view.ends[format.docidField]! - view.starts[format.docidField]!;
    docids++;
  }
  return docids === 0 ? 12 : Math.ceil(bytes / docids);
}

function isBlankOrComment(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]!;
    if (c === 32 || (c >= 9 && c <= 13)) continue;
    return c === 35;
  }
  return true;
}
