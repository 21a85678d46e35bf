// Reader of TREC qrels (`qid iter docid rel`) for evaluation: streamed byte by byte, every malformed line is a
// positioned FormatError, and a duplicate (qid, docid) is an error as it is in trec_eval. Judgments are kept as
// numbers and pooled bytes (no string per line): 1M judgments take about 50 MB.
import { closeSync, openSync, readSync, type Stats, statSync } from 'node:fs';
import { ByteKeyStore, GroupedByteKeyIndex, GroupedByteKeyIndexBuilder } from './byteKeyTable.ts';
import { FormatError } from './formatError.ts';
import { type ByteRange, estimateLineCount, readLineBlocks, readLines } from './lineReader.ts';
import { displayQueryId, QueryIdCache } from './queryIdCache.ts';
import { columnOf, FieldSplitter, fieldText, isBlankLine, nextFieldStart, parseIntegerField } from './trecFields.ts';

/** Labels are kept as 32-bit integers; real qrels use -2…16, trec_eval documents -127…127. */
const maximumLabel = 2 ** 31 - 1;

export interface QrelsQuery {
  /** The qid as latin1 (byte order = string order); see displayQueryId. */
  qid: string;
  /** Line of the query's first judgment. */
  firstLine: number;
  /** Number of judged documents at each label ≥ 0: distinct labels ascending, with their counts. */
  labelCounts: { labels: number[]; counts: number[] };
}

export interface Qrels {
  file: string;
  queries: QrelsQuery[];
  queryIndex: Map<string, number>;
  /** Key: (query index, docid bytes) → entry; `labels[entry]` is the judgment. */
  judgments: ByteKeyStore;
  judgmentIndex: GroupedByteKeyIndex;
  /** One byte a judgment while every label fits (real qrels: -2…16), four once one does not. */
  labels: Int8Array | Int32Array;
}

/** Judgments' labels, one byte each until a label needs more (then copied once into 32-bit storage). */
class LabelColumn {
  data: Int8Array | Int32Array;
  length = 0;
  private readonly shared: boolean;
  constructor(expected: number, shared: boolean) {
    this.shared = shared;
    this.data = this.int8(Math.max(expected, 16));
  }
  private int8(length: number): Int8Array {
    return this.shared ? new Int8Array(new SharedArrayBuffer(length)) : new Int8Array(length);
  }
  push(label: number): void {
    if (this.length === this.data.length || (label > 127 && this.data instanceof Int8Array)) {
      const wide = this.data instanceof Int32Array || label > 127;
      const wideLength = Math.max(this.data.length * (this.length === this.data.length ? 2 : 1), 16);
      const grown = wide
        ? this.shared
          ? new Int32Array(new SharedArrayBuffer(wideLength * 4))
          : new Int32Array(wideLength)
        : this.int8(this.data.length * 2);
      grown.set(this.data.subarray(0, this.length));
      this.data = grown;
    }
    this.data[this.length++] = label;
  }
}

/** A data line is any line that is neither blank nor a comment. */
function isDataLine(bytes: Uint8Array, start: number, end: number): boolean {
  return bytes[start] !== 35 && !isBlankLine(bytes, start, end);
}

export function readQrels(file: string): Promise<Qrels> {
  return readQrelsPart(file);
}

/**
 * Reads the qrels, or only the lines in `range` of a plain file (line numbers then count from its start), with
 * the judgments on SharedArrayBuffers when `shared` (core/metrics/parallel reads two halves in two threads).
 */
export async function readQrelsPart(file: string, range?: ByteRange, shared = false): Promise<Qrels> {
  const sizing = sizingOf(file);
  const part = range ? (range.end - range.start) / Math.max(1, sizing.size) : 1;
  const expected = Math.ceil((sizing.lines ?? 1 << 14) * part * 1.02);
  const reading = new QrelsReading(file, expected, sizing.docids, shared);
  const blocks = await readLineBlocks(file, (bytes, start, end) => reading.block(bytes, start, end), range);
  // gzip or a pipe: line by line.
  if (blocks === undefined) {
    await readLines(file, (bytes, start, end, line) => reading.streamedLine(bytes, start, end, line), range);
  }
  const { queries, judgments } = reading;
  const { judgmentIndex, repeat } = reading.finish();
  if (repeat) {
    const [first, again] = await locateDataLines(file, [repeat.first, repeat.entry], 2);
    const docid = judgments.keyText(repeat.entry);
    const qid = displayQueryId(queries[judgments.group(repeat.entry)]!.qid);
    throw new FormatError(
      file,
      again!.line,
      again!.column,
      `duplicate judgment of document '${docid}' for query '${qid}' (first on line ${first!.line}); trec_eval refuses duplicates`,
      { line: first!.line, column: first!.column, message: 'first judgment' },
    );
  }
  return {
    file,
    queries,
    queryIndex: reading.queryIndex,
    judgments,
    judgmentIndex,
    labels: reading.labels.data.subarray(0, reading.labels.length),
  };
}

/** Labels below this are counted in a dense array while their query is current (real qrels: 0…4). */
const denseLabels = 16;

/**
 * The state of one reading. Lines of the usual shape (`qid iter docid rel` separated by spaces or tabs, an
 * integer label, `\n` or `\r\n` right after it) are split while their end is looked for, in one pass over the
 * block; any other line (comments, blank lines, odd whitespace, errors) takes the general path, `line`, which
 * gives every message and position. While queries come one after another (a file grouped by query), each query's
 * index region is built when the query ends; a query that comes back turns that off, and the index is then built
 * once the whole file is read.
 */
class QrelsReading {
  readonly queries: QrelsQuery[] = [];
  readonly queryIndex = new Map<string, number>();
  readonly judgments: ByteKeyStore;
  readonly labels: LabelColumn;
  private readonly file: string;
  private readonly shared: boolean;
  private readonly fields = new FieldSplitter(4);
  private readonly queryIds: QueryIdCache;
  private lineNumber = 0;
  /** The query of the previous data line, the first entry it added since it became current, and whether the
   * qid just looked up was new. */
  private current = -1;
  private currentFirstEntry = 0;
  private created = false;
  /** Judgments of the current query at labels 0…denseLabels−1, added to its labelCounts when it stops being current. */
  private readonly currentCounts = new Int32Array(denseLabels);
  private builder: GroupedByteKeyIndexBuilder | undefined;
  private viewBytes: Buffer | undefined;
  private view: DataView<ArrayBufferLike> = new DataView(new ArrayBuffer(0));

  constructor(file: string, expected: number, docids: DocidSample | undefined, shared: boolean) {
    this.file = file;
    this.shared = shared;
    // Sized for the docids of the file's first lines: growing the pool from a 12-byte guess copied 12 MB and held
    // it beside the new 29 MB at 1M MS MARCO ids (the store still grows if later ids are longer). Their common
    // prefix is left out of each docid stored (the 16 bytes of `msmarco_passage_` in 28: 1M ids fill 13 MB, not
    // 29); the pool is still sized for whole ids plus word padding, in case later ids do not share it (pages never
    // written cost no memory).
    const prefix = docids && docids.commonPrefix.length >= 4 ? docids.commonPrefix : undefined;
    this.judgments = new ByteKeyStore(expected, Math.ceil(expected * ((docids?.meanBytes ?? 12) + 3) * 1.03), shared);
    if (prefix) this.judgments.leaveOutPrefix(prefix, 0, prefix.length, 0);
    this.labels = new LabelColumn(expected, shared);
    this.builder = new GroupedByteKeyIndexBuilder(this.judgments, expected, shared);
    this.queryIds = new QueryIdCache((qid) => {
      let index = this.queryIndex.get(qid);
      if (index === undefined) {
        index = this.queries.length;
        this.queryIndex.set(qid, index);
        this.queries.push({ qid, firstLine: this.lineNumber, labelCounts: { labels: [], counts: [] } });
        this.created = true;
      }
      return index;
    });
  }

  /** Whole lines bytes[start, end), each ending with \n; or the file's last line alone, without its \n. */
  block(bytes: Buffer, start: number, end: number): void {
    this.viewOf(bytes);
    if (bytes[end - 1] === 10) this.terminatedLines(bytes, start, end);
    else this.line(bytes, start, end, ++this.lineNumber);
  }

  /**
   * Lines each ending with \n: every scan stops at it at the latest. Nothing follows the loop here: a comparison
   * after it, reached only once the loop was optimised, had no type feedback and deoptimised the loop at the end
   * of every block (80 times in 41 MB, each followed by slower code until optimised again).
   */
  private terminatedLines(bytes: Buffer, start: number, end: number): void {
    for (let i = start; i < end; ) {
      this.lineNumber++;
      const next = this.usualLine(bytes, i);
      if (next !== -1) {
        i = next;
        continue;
      }
      let lineEnd = i;
      while (bytes[lineEnd] !== 10) lineEnd++;
      this.line(bytes, i, lineEnd, this.lineNumber);
      i = lineEnd + 1;
    }
  }

  /**
   * Adds the line at `i` and returns where the next one starts when it has the usual shape: `qid iter docid rel`
   * separated by spaces or tabs, rel an integer of at most 9 digits (below maximumLabel) right before \n or \r\n.
   * Else -1, having added nothing: the general path reads the line.
   */
  private usualLine(bytes: Buffer, i: number): number {
    if (bytes[i]! <= 32 || bytes[i] === 35) return -1; // whitespace first, a blank line or a comment
    const qidEnd = fieldEnd(bytes, i);
    const iterStart = afterSeparators(bytes, qidEnd);
    if (iterStart === qidEnd || bytes[iterStart]! <= 32) return -1;
    const iterEnd = fieldEnd(bytes, iterStart);
    const docStart = afterSeparators(bytes, iterEnd);
    if (docStart === iterEnd || bytes[docStart]! <= 32) return -1;
    const docEnd = fieldEnd(bytes, docStart);
    const labelStart = afterSeparators(bytes, docEnd);
    if (labelStart === docEnd) return -1;
    const negative = bytes[labelStart] === 45;
    let j = negative ? labelStart + 1 : labelStart;
    let label = 0;
    const digitsEnd = j + 9;
    for (let digit = bytes[j]! - 48; digit >= 0 && digit <= 9; digit = bytes[++j]! - 48) {
      if (j === digitsEnd) return -1;
      label = label * 10 + digit;
    }
    if (j === labelStart + (negative ? 1 : 0)) return -1; // no digit
    if (bytes[j] === 13) j++;
    if (bytes[j] !== 10) return -1; // trailing text or whitespace
    this.add(bytes, i, qidEnd, docStart, docEnd, negative ? -label : label);
    return j + 1;
  }

  /** A line of readLines: through the usual-shape scan when its \n follows it in the buffer (every line but an
   * unterminated last one), which stops the scan. */
  streamedLine(bytes: Buffer, start: number, end: number, line: number): void {
    this.lineNumber = line;
    this.viewOf(bytes);
    if (bytes[end] !== 10 || this.usualLine(bytes, start) === -1) this.line(bytes, start, end, line);
  }

  /** One line without its \n: any line, with every message and position. */
  private line(bytes: Buffer, start: number, end: number, line: number): void {
    this.lineNumber = line;
    if (bytes[start] === 35 || isBlankLine(bytes, start, end)) return; // '#' in the first byte: a comment
    const fields = this.fields;
    const count = fields.split(bytes, start, end);
    const { starts, ends } = fields;
    if (count !== 4) {
      throw new FormatError(
        this.file,
        line,
        columnOf(bytes, start, count > 4 ? nextFieldStart(bytes, ends[3]!, end) : end),
        count > 4
          ? `expected 4 fields 'qid iter docid rel', found ${count}: unexpected text after the relevance label`
          : `expected 4 fields 'qid iter docid rel', found ${count}`,
      );
    }
    const label = parseIntegerField(bytes, starts[3]!, ends[3]!);
    if (Number.isNaN(label) || label > maximumLabel) {
      throw new FormatError(
        this.file,
        line,
        columnOf(bytes, start, starts[3]!),
        `expected an integer relevance label (at most ${maximumLabel}), found '${fieldText(bytes, starts[3]!, ends[3]!)}'`,
      );
    }
    this.add(bytes, starts[0]!, ends[0]!, starts[2]!, ends[2]!, label);
  }

  /** One judgment; `lineNumber` is its line. */
  private add(bytes: Buffer, qidStart: number, qidEnd: number, docStart: number, docEnd: number, label: number): void {
    const query = this.queryIds.indexOf(bytes, qidStart, qidEnd);
    if (query !== this.current) this.switchQuery(query);
    // Unseeded by the query (the index is partitioned by query anyway): a run's reader hashes a docid once, whatever
    // the part of the qrels that holds its query.
    this.judgments.addHashing(query, this.view, docStart, docEnd, 0); // made for this buffer by block/streamedLine
    if (label < 0)
      this.labels.push(-1); // any negative label means judged-but-unusable (trec_eval's "unjudged")
    else {
      this.labels.push(label);
      if (label < denseLabels) this.currentCounts[label]!++;
      else countLabel(this.queries[query]!.labelCounts, label, 1);
    }
  }

  /** A DataView of the buffer being read (one per buffer, not per line). */
  private viewOf(bytes: Buffer): DataView {
    if (bytes !== this.viewBytes) {
      this.viewBytes = bytes;
      this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
    }
    return this.view;
  }

  private switchQuery(query: number): void {
    const finished = this.current;
    if (finished !== -1) {
      this.flushCounts(finished);
      this.builder?.addGroup(this.currentFirstEntry, this.judgments.count);
    }
    if (!this.created) this.builder = undefined; // a query that comes back: the file is not grouped by query
    this.created = false;
    this.current = query;
    this.currentFirstEntry = this.judgments.count;
  }

  private flushCounts(query: number): void {
    const counts = this.currentCounts;
    const labelCounts = this.queries[query]!.labelCounts;
    // A query seen for the first time with no label ≥ denseLabels yet (the usual case): appended in order.
    const fresh = labelCounts.labels.length === 0;
    for (let label = 0; label < denseLabels; label++) {
      const count = counts[label]!;
      if (count === 0) continue;
      counts[label] = 0;
      if (fresh) {
        labelCounts.labels.push(label);
        labelCounts.counts.push(count);
      } else countLabel(labelCounts, label, count);
    }
  }

  /** The index of the judgments, and the first judgment repeated (in file order). */
  finish(): { judgmentIndex: GroupedByteKeyIndex; repeat: { entry: number; first: number } | undefined } {
    if (this.current !== -1) {
      this.flushCounts(this.current);
      this.builder?.addGroup(this.currentFirstEntry, this.judgments.count);
    }
    if (this.builder) return { judgmentIndex: this.builder.finish(), repeat: this.builder.repeat };
    // Duplicates are found while indexing, one small region per query (see GroupedByteKeyIndex). Entry n is the
    // n-th data line, so a second read finds both lines.
    const judgmentIndex = new GroupedByteKeyIndex(this.judgments, this.queries.length, this.shared);
    const repeat =
      judgmentIndex.repeats.length > 0
        ? judgmentIndex.repeats.reduce((a, b) => (b.entry < a.entry ? b : a))
        : undefined;
    return { judgmentIndex, repeat };
  }
}

interface Sizing {
  file: string;
  size: number;
  mtimeMs: number;
  /** The file's estimated line count (undefined for gzip or a pipe). */
  lines: number | undefined;
  docids: DocidSample | undefined;
}

/** The last plain file's sizing: core/metrics/parallel reads one file in up to ~30 chunks, each sized alike. */
let lastSizing: Sizing | undefined;

/** What the storage of a file's judgments is sized by; only sizes and the prefix left out depend on it. */
function sizingOf(file: string): Sizing {
  let stat: Stats | undefined;
  try {
    stat = statSync(file);
  } catch {
    // estimateLineCount reports what is wrong with the file
  }
  const plain = stat?.isFile() === true;
  const last = lastSizing;
  if (plain && last?.file === file && last.size === stat!.size && last.mtimeMs === stat!.mtimeMs) return last;
  const sizing = {
    file,
    size: stat?.size ?? 1,
    mtimeMs: stat?.mtimeMs ?? 0,
    lines: estimateLineCount(file),
    docids: plain ? sampleDocids(file) : undefined, // a pipe: opening it here would consume what its writer wrote
  };
  if (plain) lastSizing = sizing;
  return sizing;
}

interface DocidSample {
  meanBytes: number;
  commonPrefix: Buffer;
}

/** The docids of the data lines in the first 16 KiB of a regular file: their mean length and their longest common
 * prefix (undefined for gzip or no data line there). */
function sampleDocids(file: string): DocidSample | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const sample = Buffer.allocUnsafe(1 << 14);
    const read = readSync(fd, sample, 0, sample.length, 0);
    if (read >= 2 && sample[0] === 0x1f && sample[1] === 0x8b) return undefined;
    const fields = new FieldSplitter(4);
    let lines = 0;
    let bytes = 0;
    let prefixStart = 0;
    let prefixLength = 0;
    // Whole lines only: the last one may be cut by the sample's end.
    for (
      let start = 0, end = sample.indexOf(10);
      end !== -1 && end < read;
      start = end + 1, end = sample.indexOf(10, start)
    ) {
      if (!isDataLine(sample, start, end) || fields.split(sample, start, end) < 3) continue;
      const docStart = fields.starts[2]!;
      const docLength = fields.ends[2]! - docStart;
      if (lines === 0) [prefixStart, prefixLength] = [docStart, docLength];
      let same = 0;
      while (same < Math.min(prefixLength, docLength) && sample[prefixStart + same] === sample[docStart + same]) same++;
      prefixLength = same;
      lines++;
      bytes += docLength;
    }
    if (lines === 0) return undefined;
    return {
      meanBytes: bytes / lines,
      commonPrefix: Buffer.from(sample.subarray(prefixStart, prefixStart + prefixLength)),
    };
  } catch {
    return undefined; // the reading proper reports what is wrong with the file
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The end of the field starting at `i`: its first byte that is whitespace or a control character. */
function fieldEnd(bytes: Buffer, i: number): number {
  let end = i;
  while (bytes[end]! > 32) end++;
  return end;
}

/** The first byte at or after `i` that is neither a space nor a tab. */
function afterSeparators(bytes: Buffer, i: number): number {
  let at = i;
  while (bytes[at] === 32 || bytes[at] === 9) at++;
  return at;
}

/** Adds `count` judgments with this label (≥ 0) to a query's sorted label counts. */
function countLabel(labelCounts: { labels: number[]; counts: number[] }, label: number, count: number): void {
  const { labels, counts } = labelCounts;
  let i = labels.length - 1;
  while (i >= 0 && labels[i]! > label) i--;
  if (i >= 0 && labels[i] === label) counts[i]! += count;
  else {
    labels.splice(i + 1, 0, label);
    counts.splice(i + 1, 0, count);
  }
}

/** Line and column of field `field` (0-based) of the data lines with these indexes (0-based), in that order. */
async function locateDataLines(
  file: string,
  indexes: number[],
  field: number,
): Promise<{ line: number; column: number }[]> {
  const found = new Map<number, { line: number; column: number }>();
  const last = Math.max(...indexes);
  const fields = new FieldSplitter(field + 1);
  let seen = 0;
  await readLines(file, (bytes, start, end, line) => {
    if (!isDataLine(bytes, start, end)) return true;
    const index = seen++;
    if (indexes.includes(index)) {
      fields.split(bytes, start, end);
      found.set(index, { line, column: columnOf(bytes, start, fields.starts[field]!) });
    }
    return index < last;
  });
  return indexes.map((index) => found.get(index) ?? { line: 0, column: 1 });
}
