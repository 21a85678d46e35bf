// Reader of a TREC run (`qid Q0 docid rank score tag`) for evaluation against already-read qrels. As trec_eval:
// the rank column is ignored, fields after the tag are ignored, the runid is the tag of the last line, and
// queries absent from the qrels are skipped (after their lines are checked). Each retrieved document's judgment
// is looked up while reading.
//
// Runs are written query by query, so the reader hands over one query's retrieved documents as soon as the next
// query starts and keeps nothing else: memory stays that of one query, whatever the run's size. A run whose
// queries are interleaved is detected, its lines are counted per query, and it is read again once per batch of
// queries holding at most about `heldRunBytes` of lines: memory stays bounded (at 1M lines, holding the whole run
// took 1.7× trec_eval's memory), at the price of one more reading of the file per batch.
import { ByteKeyStore } from './byteKeyTable.ts';
import { FormatError } from './formatError.ts';
import { GrowableFloat64, GrowableInt32 } from './growableArrays.ts';
import { type ByteRange, estimateLineCount, readLineBlocks, readLines, readLinesSync } from './lineReader.ts';
import { QueryIdCache } from './queryIdCache.ts';
import { columnOf, FieldSplitter, fieldText, parseFloatField } from './trecFields.ts';
import type { Qrels } from './trecQrels.ts';

/** Judgment of a retrieved document that is not in the qrels (trec_eval's RELVALUE_NONPOOL). */
export const notJudged = -1;
/** Judgment of a document in the qrels with a negative label (trec_eval's RELVALUE_UNJUDGED). */
export const judgedNegative = -2;

/** The retrieved documents of one query, in file order. */
export class RunQuery {
  /** Index of the query in the qrels. */
  query = -1;
  readonly documents: ByteKeyStore;
  readonly scores: GrowableFloat64;
  /** A label ≥ 0, notJudged or judgedNegative. */
  readonly judgments: GrowableInt32;
  /** Line and 1-based docid column of each document, recorded only when the file cannot be read again (gzip, a
   * pipe); a plain file's positions are found again by `position` when an error needs one. */
  readonly lines: GrowableInt32;
  readonly documentColumns: GrowableInt32;
  /** The plain file the documents were read from, the byte offset and line number of the query's first line. */
  origin: { file: string; offset: number; line: number } | undefined;

  /** `capacity`: documents expected, `keyBytes`: their docids' bytes (storage grows past both). */
  constructor(capacity: number, keyBytes = capacity * 12) {
    this.documents = new ByteKeyStore(capacity, keyBytes);
    this.scores = new GrowableFloat64(capacity);
    this.judgments = new GrowableInt32(capacity);
    this.lines = new GrowableInt32(16);
    this.documentColumns = new GrowableInt32(16);
  }

  get count(): number {
    return this.scores.length;
  }

  /** Line and 1-based column of document i's docid (for an error message). */
  position(i: number): { line: number; column: number } {
    if (i < this.lines.length) return { line: this.lines.data[i]!, column: this.documentColumns.data[i]! };
    if (!this.origin) throw new Error(`no position of document ${i}`);
    return locateQueryDocument(this.origin, i);
  }

  /** Appends a document of qrels query `query` (a held batch's store holds several queries) and returns the hash
   * of its docid (hashBytes with group 0, computed while the docid is copied); its judgment is pushed next. */
  add(query: number, view: DataView, start: number, end: number, score: number): number {
    this.scores.push(score);
    return this.documents.hash(this.documents.addHashing(query, view, start, end, 0));
  }

  /** Appends document `i` of another RunQuery. */
  copyFrom(other: RunQuery, i: number): void {
    this.documents.copyFrom(other.documents, i);
    this.scores.push(other.scores.data[i]!);
    this.judgments.push(other.judgments.data[i]!);
    if (i < other.lines.length) {
      this.lines.push(other.lines.data[i]!);
      this.documentColumns.push(other.documentColumns.data[i]!);
    }
  }

  reset(query: number): void {
    this.query = query;
    this.documents.clear();
    this.scores.length = 0;
    this.judgments.length = 0;
    this.lines.length = 0;
    this.documentColumns.length = 0;
    this.origin = undefined;
  }
}

/**
 * Finds the line of document `index` of a query again, reading the plain run from the query's first line: its
 * documents are the data lines with its qid from there on, in order (in a grouped run no other qrels query comes
 * between them, and a held batch keeps every line of its queries).
 */
function locateQueryDocument(
  origin: { file: string; offset: number; line: number },
  index: number,
): { line: number; column: number } {
  const fields = new FieldSplitter(3);
  let qid: Buffer | undefined;
  let seen = 0;
  let found = { line: origin.line, column: 1 }; // the file changed since it was read: its first line
  readLinesSync(origin.file, origin.offset, origin.line, (bytes, start, end, line) => {
    if (fields.split(bytes, start, end) < 3 || bytes[fields.starts[0]!] === 35) return true;
    qid ??= Buffer.from(bytes.subarray(fields.starts[0]!, fields.ends[0]!));
    if (!sameBytes(qid, bytes, fields.starts[0]!, fields.ends[0]!) || seen++ < index) return true;
    found = { line, column: columnOf(bytes, start, fields.starts[2]!) };
    return false;
  });
  return found;
}

export interface RunSummary {
  /** Tag of the last line, as trec_eval reports it (bytes as latin1; see displayQueryId). */
  runid: string;
}

/**
 * The score of a run line split into `fields` (`count` of them), or the FormatError trec_eval's reader would
 * stop at: fewer than 6 fields, a score that is not a finite number. Shared by eval and pooling.
 */
export function runLineScore(
  file: string,
  line: number,
  bytes: Uint8Array,
  start: number,
  end: number,
  fields: FieldSplitter,
  count: number,
): number {
  const { starts, ends } = fields;
  if (count < 6) {
    throw new FormatError(
      file,
      line,
      columnOf(bytes, start, end),
      `expected 6 fields 'qid Q0 docid rank score tag', found ${count}`,
    );
  }
  const score = parseFloatField(bytes, starts[4]!, ends[4]!);
  if (!Number.isFinite(score)) {
    const text = fieldText(bytes, starts[4]!, ends[4]!);
    throw new FormatError(
      file,
      line,
      columnOf(bytes, start, starts[4]!),
      Number.isNaN(score)
        ? `expected a decimal score, found '${text}'`
        : `score '${text}' is beyond the range of a double`,
    );
  }
  return score;
}

/** Thrown inside the streaming pass when a query comes back after another one started. */
export class InterleavedQueries extends Error {
  constructor() {
    super('the run interleaves its queries (a query comes back after another one started)');
  }
}

/** Where a run's reader finds the qrels' queries and judgments: the qrels, or two parts of them read by two threads
 * (core/metrics/parallel). */
export interface RunJudgments {
  readonly queryCount: number;
  /** The index of the qrels query with this qid (latin1), or -1. */
  queryOf(qid: string): number;
  /** The judgment of the docid bytes[start, end) (hashed `hash` by hashBytes with group 0) for the query: a label
   * ≥ 0, notJudged or judgedNegative. */
  judgment(query: number, bytes: Uint8Array, start: number, end: number, hash: number): number;
}

/** The judgments of one Qrels (the whole file, or one thread's part of it). */
export class QrelsJudgments implements RunJudgments {
  readonly queryCount: number;
  private readonly queryIndex: Map<string, number>;
  private readonly index: Qrels['judgmentIndex'];
  private readonly labels: Qrels['labels'];
  constructor(qrels: Qrels) {
    this.queryCount = qrels.queries.length;
    this.queryIndex = qrels.queryIndex;
    this.index = qrels.judgmentIndex;
    this.labels = qrels.labels;
  }
  queryOf(qid: string): number {
    return this.queryIndex.get(qid) ?? -1;
  }
  judgment(query: number, bytes: Uint8Array, start: number, end: number, hash: number): number {
    const judged = this.index.find(query, bytes, start, end, hash);
    if (judged === -1) return notJudged;
    const label = this.labels[judged]!;
    return label < 0 ? judgedNegative : label;
  }
}

/** Bytes of held run lines per batch when a run's queries are interleaved (docid bytes plus ~36 bytes a line). 12 MB,
 * not 16: 4 MB lower peak on a 1M-line run (within trec_eval's memory) for one more pass (~10% more CPU). */
export const heldRunBytes = 12 << 20;
const heldBytesPerLine = 36;

/**
 * Reads a run and calls `onQuery` once per qrels query it retrieves documents for (the RunQuery object is
 * reused after the call returns). If the run interleaves queries, `onQuery` may be called again for a query
 * with its complete list: the later call supersedes the earlier.
 */
export async function readRunByQuery(
  file: string,
  qrels: Qrels,
  onQuery: (query: RunQuery) => void,
  /** Bytes of lines held per batch when the run is interleaved (tests make it small). */
  heldBytes = heldRunBytes,
): Promise<RunSummary> {
  const judgments = new QrelsJudgments(qrels);
  try {
    return await readRunPass(file, judgments, onQuery, undefined);
  } catch (error) {
    if (!(error instanceof InterleavedQueries)) throw error;
  }
  // Batches of whole queries in qrels order, each holding at most about heldRunBytes (one query may exceed it),
  // read into one store reused from batch to batch (a new one each time would hold two batches until collected).
  const { lines, docidBytes, lineQueries } = await countRunLinesByQuery(file, qrels);
  const queryCount = qrels.queries.length;
  const batches: { first: number; end: number; lines: number; keyBytes: number }[] = [];
  for (let first = 0; first < queryCount || batches.length === 0; ) {
    let held = 0;
    let heldLines = 0;
    let keyBytes = 0;
    let end = first;
    while (end < queryCount) {
      const size = docidBytes[end]! + lines[end]! * heldBytesPerLine;
      if (heldLines > 0 && held + size > heldBytes) break;
      held += size;
      heldLines += lines[end]!;
      keyBytes += docidBytes[end]!;
      end++;
    }
    batches.push({ first, end, lines: heldLines, keyBytes });
    first = end;
  }
  const store = new RunQuery(
    Math.max(...batches.map((b) => b.lines)) + 16,
    Math.max(...batches.map((b) => b.keyBytes)) + 64,
  );
  const batch = new Uint8Array(queryCount);
  let summary: RunSummary | undefined;
  // A batch whose queries retrieve nothing needs no pass of its own (one pass is always made: it returns the runid).
  const reading = batches.filter((b) => b.lines > 0);
  for (const [pass, { first, end }] of (reading.length > 0 ? reading : batches.slice(-1)).entries()) {
    batch.fill(0);
    batch.fill(1, first, end);
    store.reset(-1);
    // The first pass reads every line, so its runid (the last line's tag) is the run's; later passes skip lines.
    const passSummary = await readRunPass(file, judgments, onQuery, { batch, store, validated: pass > 0, lineQueries });
    summary ??= passSummary;
  }
  return summary!;
}

/**
 * Per qrels query: the run's lines and their docids' bytes (blank, comment and malformed lines are not counted); and
 * the query of each line that is neither blank nor a comment, in file order (-1: not a qrels query, or malformed),
 * so that the passes over the batches need not look the qid of every line up again (4 bytes a line).
 */
async function countRunLinesByQuery(
  file: string,
  qrels: Qrels,
): Promise<{ lines: Int32Array; docidBytes: Float64Array; lineQueries: Int32Array }> {
  const lines = new Int32Array(qrels.queries.length);
  const docidBytes = new Float64Array(qrels.queries.length);
  const lineQueries = new GrowableInt32(estimateLineCount(file) ?? 1024);
  const fields = new LeadingFields(3);
  const queryIds = new QueryIdCache((qid) => qrels.queryIndex.get(qid) ?? -1);
  const countLine = (bytes: Buffer, start: number, end: number): void => {
    // The first three fields are enough: a line with 3 to 5 fields is counted too, and the first pass stops at it.
    const count = fields.split(bytes, start, end);
    if (count === 0 || bytes[fields.starts[0]!] === 35) return;
    const query = count < 3 ? -1 : queryIds.indexOf(bytes, fields.starts[0]!, fields.ends[0]!);
    lineQueries.push(query);
    if (query === -1) return;
    lines[query]!++;
    docidBytes[query]! += fields.ends[2]! - fields.starts[2]!;
  };
  const read = await readLineBlocks(file, (bytes, start, end) => {
    if (bytes[end - 1] !== 10) {
      countLine(bytes, start, end); // the file's last line without its '\n', alone in its block
      return;
    }
    // Lines ending with '\n': countLine's three fields found while the line's end is looked for (one scan).
    for (let i = start; i < end; ) {
      const qidStart = skipBlanks(bytes, i);
      if (bytes[qidStart] === 10 || bytes[qidStart] === 35) {
        i = qidStart;
        if (bytes[qidStart] === 35) while (bytes[i] !== 10) i++; // a '#' comment line
        i++;
        continue;
      }
      const qidEnd = fieldEnd(bytes, qidStart);
      const docStart = skipBlanks(bytes, fieldEnd(bytes, skipBlanks(bytes, qidEnd)));
      const docEnd = fieldEnd(bytes, docStart);
      i = docEnd;
      while (bytes[i] !== 10) i++;
      i++;
      const query = docEnd === docStart ? -1 : queryIds.indexOf(bytes, qidStart, qidEnd); // fewer than 3 fields
      lineQueries.push(query);
      if (query === -1) continue;
      lines[query]!++;
      docidBytes[query]! += docEnd - docStart;
    }
  });
  if (read === undefined) await readLines(file, countLine);
  return { lines, docidBytes, lineQueries: lineQueries.data.subarray(0, lineQueries.length) };
}

/** The first fields of a line, without scanning the rest of it (FieldSplitter counts every field). */
class LeadingFields {
  readonly starts: Int32Array;
  readonly ends: Int32Array;
  constructor(count: number) {
    this.starts = new Int32Array(count);
    this.ends = new Int32Array(count);
  }

  /** Records the first fields of bytes[start, end) and returns how many were found (at most the capacity). */
  split(bytes: Uint8Array, start: number, end: number): number {
    const capacity = this.starts.length;
    let count = 0;
    let i = start;
    while (count < capacity) {
      while (i < end && isSpace(bytes[i]!)) i++;
      if (i === end) break;
      this.starts[count] = i;
      while (i < end && !isSpace(bytes[i]!)) i++;
      this.ends[count++] = i;
    }
    return count;
  }
}

// The two scans below need no bound: the line ends with a '\n', where both stop.

/** The first byte at or after `i` that is not a space (C's isspace) other than '\n'. */
function skipBlanks(bytes: Uint8Array, i: number): number {
  for (;;) {
    const c = bytes[i]!;
    if (c !== 32 && (c < 9 || c > 13 || c === 10)) return i;
    i++;
  }
}

/** The end of the field starting at `i`: its first space (C's isspace; '\n' is one). */
function fieldEnd(bytes: Uint8Array, i: number): number {
  for (;;) {
    const c = bytes[i]!;
    if (c <= 32 && (c === 32 || (c >= 9 && c <= 13))) return i;
    i++;
  }
}

/** The line bytes[start, end) followed by a '\n', in a new buffer (a last line without one, or a line of a stream
 * whose '\n' is not in its buffer), so that it can be scanned as the others. */
function withNewline(bytes: Uint8Array, start: number, end: number): Buffer {
  const line = Buffer.allocUnsafe(end - start + 1);
  line.set(bytes.subarray(start, end));
  line[end - start] = 10;
  return line;
}

/** C's isspace: space, \t, \n, \v, \f, \r. */
function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

/** Queries held by one pass over an interleaved run (1 = held), and the store that holds their lines. */
interface HeldBatch {
  batch: Uint8Array;
  store: RunQuery;
  /** True after the first pass, which has checked every line: the lines of other batches are skipped unparsed. */
  validated: boolean;
  /** The query of each line that is neither blank nor a comment (countRunLinesByQuery). */
  lineQueries: Int32Array;
}

/**
 * Streams the lines in `range` of a plain run file (one thread's part, core/metrics/parallel): `onQuery` once per
 * qrels query, as readRunByQuery does. Throws InterleavedQueries when a query comes back after another started (the
 * caller then reads the whole run with readRunByQuery), and lets any error of `onQuery` through at once. A part may
 * have no data line (`dataLines` 0); `runid` is then ''.
 */
export async function readRunRange(
  file: string,
  judgments: RunJudgments,
  range: ByteRange,
  onQuery: (query: RunQuery) => void,
): Promise<RunSummary & { dataLines: number }> {
  return readRunPass(file, judgments, onQuery, undefined, range);
}

/** Streams the run (`held` undefined) or holds the lines of `held`'s queries and hands them over at the end. */
async function readRunPass(
  file: string,
  judgments: RunJudgments,
  onQuery: (query: RunQuery) => void,
  held: HeldBatch | undefined,
  range?: ByteRange,
): Promise<RunSummary & { dataLines: number }> {
  const pass = new RunPass(file, judgments, onQuery, held, range);
  const summary = await readLineBlocks(
    file,
    (bytes, start, end) =>
      bytes[end - 1] === 10
        ? pass.scanLines(bytes, start, end)
        : pass.scanLines(withNewline(bytes, start, end), 0, end - start + 1),
    range,
  );
  if (summary === undefined) {
    // gzip or a pipe: line by line through the stream, each document's position recorded (no reading again).
    pass.blockOffset = -1;
    await readLines(file, (bytes, start, end) =>
      end < bytes.length && bytes[end] === 10
        ? pass.scanLines(bytes, start, end + 1)
        : pass.scanLines(withNewline(bytes, start, end), 0, end - start + 1),
    );
  }
  return pass.finish();
}

/**
 * The state of one pass over a run, carried from block to block. A class, not closures over readRunPass's
 * variables: the optimised code of scanLines then serves every pass and every part of a run (code compiled for a
 * closure is bound to its context, and each pass or part compiled it again, 20-40 ms each).
 */
class RunPass {
  private readonly file: string;
  private readonly judgments: RunJudgments;
  private readonly onQuery: (query: RunQuery) => void;
  private readonly range: ByteRange | undefined;
  private readonly streaming: boolean;
  /** A pass after the first over an interleaved run: the first pass checked every line. */
  private readonly validated: boolean;
  private readonly batch: Uint8Array | undefined;
  private readonly lineQueries: Int32Array | undefined;
  private readonly finished: Uint8Array;
  private readonly reusable = new RunQuery(1024);
  /** Later passes: the batch's documents in one columnar store, handed over query by query at the end. */
  private readonly whole: RunQuery | undefined;
  /** Where each held query's first line is, for RunQuery.position: its byte offset (-1 in gzip or a pipe, which
   * record positions; -2 before it is seen) and line number. */
  private readonly firstOffsets: Float64Array | undefined;
  private readonly firstLines: Int32Array | undefined;
  private readonly queryIds: QueryIdCache;
  private current: RunQuery | undefined;
  private lineNumber = 0;
  /** Lines neither blank nor comments so far (an index of lineQueries). */
  private heldLine = 0;
  private dataLines = 0;
  private runidBytes: Buffer | undefined = undefined;
  /** The tag of the block's last data line so far (-1: none yet). */
  private tagStart = -1;
  private tagEnd = -1;
  /** In the streaming pass an error about a query (a duplicate within -M, say) waits for the end of the file: if the
   * query comes back later, the second pass judges it whole, as trec_eval does. */
  private heldError: { error: unknown } | undefined = undefined;
  /** The block's buffer as a DataView (ByteKeyStore.addHashing reads a docid four bytes at a time). */
  private view: DataView | undefined = undefined;
  private viewBytes: Buffer | undefined = undefined;
  /** Byte offset in the file of the block being scanned (blocks are consecutive); -1 when the file cannot be read
   * again (gzip, a pipe: positions are then recorded per document). */
  blockOffset: number;

  constructor(
    file: string,
    judgments: RunJudgments,
    onQuery: (query: RunQuery) => void,
    held: HeldBatch | undefined,
    range: ByteRange | undefined,
  ) {
    this.file = file;
    this.judgments = judgments;
    this.onQuery = onQuery;
    this.range = range;
    this.streaming = held === undefined;
    this.validated = held?.validated === true;
    this.batch = held?.batch;
    this.lineQueries = held?.lineQueries;
    const queryCount = judgments.queryCount;
    this.finished = new Uint8Array(queryCount);
    this.whole = held?.store;
    this.current = this.whole;
    this.firstOffsets = held ? new Float64Array(queryCount).fill(-2) : undefined;
    this.firstLines = held ? new Int32Array(queryCount) : undefined;
    this.queryIds = new QueryIdCache((qid) => judgments.queryOf(qid));
    this.blockOffset = range ? range.start : 0;
  }

  /**
   * The lines of bytes[blockStart, blockEnd), each ending with '\n': each is split into its first six fields while
   * its end is looked for (one pass over the bytes, no call per line).
   */
  scanLines(bytes: Buffer, blockStart: number, blockEnd: number): void {
    if (this.viewBytes !== bytes) {
      this.viewBytes = bytes;
      this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
    }
    this.tagStart = -1;
    this.scanLineLoop(bytes, blockStart, blockEnd);
    // The runid is the last data line's tag: looked at once per block, not on every line (but for gzip and pipes,
    // which come line by line).
    const { tagStart, tagEnd, blockOffset } = this;
    if (tagStart >= 0 && !sameBytes(this.runidBytes, bytes, tagStart, tagEnd)) {
      this.runidBytes = Buffer.from(bytes.subarray(tagStart, tagEnd));
    }
    if (blockOffset >= 0) this.blockOffset = blockOffset + blockEnd - blockStart;
  }

  /**
   * scanLines' loop. Nothing follows it here, and the pass's counters are kept in fields line by line instead of
   * written back after it: a statement after the loop, first reached once the loop was OSR-optimised, had no type
   * feedback and deoptimised scanLines at the end of every block (109 bailouts per eval of the bench run).
   */
  private scanLineLoop(bytes: Buffer, blockStart: number, blockEnd: number): void {
    const { lineQueries, validated, batch, streaming, judgments, blockOffset } = this;
    const view = this.view!;
    let current = this.current;
    // The previous data line's qid in this block, and its query.
    let previousQidStart = 0;
    let previousQidLength = -1;
    let previousQuery = -1;
    let i = blockStart;
    while (i < blockEnd) {
      const lineStart = i;
      const lineNumber = ++this.lineNumber;
      // The qid, or a blank line.
      i = skipBlanks(bytes, i);
      if (bytes[i] === 10) {
        i++;
        continue;
      }
      const qidStart = i;
      i = fieldEnd(bytes, i);
      const qidEnd = i;
      let query = -2; // not looked up yet
      if (lineQueries !== undefined) {
        // A pass over an interleaved run, whose line queries were counted: a pass after the first skips the lines of
        // other batches unparsed (the first pass checked them).
        if (bytes[qidStart] !== 35) query = lineQueries[this.heldLine++]!;
        if (bytes[qidStart] === 35 || (validated && (query === -1 || batch![query] === 0))) {
          while (bytes[i] !== 10) i++;
          i++;
          continue;
        }
      } else if (bytes[qidStart] === 35) {
        while (bytes[i] !== 10) i++; // a '#' comment line
        i++;
        continue;
      } else if (qidEnd - qidStart === previousQidLength) {
        let k = 0;
        while (k < previousQidLength && bytes[qidStart + k] === bytes[previousQidStart + k]) k++;
        if (k === previousQidLength) query = previousQuery;
      }
      // The other five fields; past the line's end, a field is empty (both scans stop at the '\n').
      i = fieldEnd(bytes, skipBlanks(bytes, i)); // Q0
      const docStart = skipBlanks(bytes, i);
      const docEnd = fieldEnd(bytes, docStart);
      i = fieldEnd(bytes, skipBlanks(bytes, docEnd)); // the rank, ignored as trec_eval does
      const scoreStart = skipBlanks(bytes, i);
      const scoreEnd = fieldEnd(bytes, scoreStart);
      const lineTagStart = skipBlanks(bytes, scoreEnd);
      i = fieldEnd(bytes, lineTagStart);
      const lineTagEnd = i;
      while (bytes[i] !== 10) i++; // fields after the tag are ignored, as trec_eval does
      const lineEnd = i++;
      const score = lineTagEnd > lineTagStart ? parseFloatField(bytes, scoreStart, scoreEnd) : Number.NaN;
      if (!Number.isFinite(score)) this.throwMalformedLine(bytes, lineStart, lineEnd, lineNumber);
      this.dataLines++;
      this.tagStart = lineTagStart;
      this.tagEnd = lineTagEnd;
      if (query === -2) query = this.queryIds.indexOf(bytes, qidStart, qidEnd);
      previousQidStart = qidStart;
      previousQidLength = qidEnd - qidStart;
      previousQuery = query;
      if (query === -1) continue; // a query the qrels do not have: ignored, as trec_eval does
      if (batch !== undefined && batch[query] === 0) continue; // read by another pass
      if (streaming ? current?.query !== query : this.firstOffsets![query] === -2) {
        this.startQuery(query, blockOffset < 0 ? -1 : blockOffset + lineStart - blockStart, lineNumber);
        current = this.current;
      }
      const hash = current!.add(query, view, docStart, docEnd, score);
      current!.judgments.push(judgments.judgment(query, bytes, docStart, docEnd, hash));
      if (blockOffset < 0) {
        current!.lines.push(lineNumber);
        current!.documentColumns.push(columnOf(bytes, lineStart, docStart));
      }
    }
  }

  /** Too few fields or not a score: the error trec_eval's reader stops at. */
  private throwMalformedLine(bytes: Buffer, lineStart: number, lineEnd: number, line: number): never {
    const fields = new FieldSplitter(6);
    runLineScore(this.file, line, bytes, lineStart, lineEnd, fields, fields.split(bytes, lineStart, lineEnd));
    throw new Error('unreachable: runLineScore accepts no malformed line');
  }

  /** Line `line` is the first of `query` in this pass: hand the previous query over (streaming) or note where the
   * query starts (a held batch). `offset`: the line's byte offset in the file, or -1 (gzip, a pipe). */
  private startQuery(query: number, offset: number, line: number): void {
    if (!this.streaming) {
      this.firstOffsets![query] = offset;
      this.firstLines![query] = line;
      return;
    }
    const current = this.current;
    if (current) {
      this.deliver(current);
      this.finished[current.query] = 1;
    }
    if (this.finished[query]) throw new InterleavedQueries();
    this.current = this.reusable;
    this.reusable.reset(query);
    if (offset >= 0) this.reusable.origin = { file: this.file, offset, line };
  }

  private deliver(query: RunQuery): void {
    // A part's caller reads the whole run again after any error: it needs no holding.
    if (this.range) {
      this.onQuery(query);
      return;
    }
    if (this.heldError) return;
    try {
      this.onQuery(query);
    } catch (error) {
      this.heldError = { error };
    }
  }

  /** After the last block: the last query handed over (streaming) or every held query; the pass's summary. */
  finish(): RunSummary & { dataLines: number } {
    if (this.dataLines === 0 && !this.validated && !this.range) {
      throw new FormatError(this.file, 1, 1, 'the run has no results (it is empty or only comments)');
    }
    if (this.streaming && this.current) this.deliver(this.current);
    if (this.heldError) throw this.heldError.error;
    const { whole, firstOffsets, firstLines, file, onQuery } = this;
    if (whole) {
      deliverByQuery(whole, this.judgments.queryCount, this.reusable, (query) => {
        if (firstOffsets![query.query]! >= 0) {
          query.origin = { file, offset: firstOffsets![query.query]!, line: firstLines![query.query]! };
        }
        onQuery(query);
      });
    }
    return { runid: this.runidBytes ? this.runidBytes.toString('latin1') : '', dataLines: this.dataLines };
  }
}

/** Hands over the documents of `whole` query by query (file order within a query), copied into `into`. */
function deliverByQuery(whole: RunQuery, queryCount: number, into: RunQuery, onQuery: (query: RunQuery) => void): void {
  const documents = whole.documents;
  const starts = new Int32Array(queryCount + 1);
  for (let i = 0; i < whole.count; i++) starts[documents.group(i) + 1]!++;
  for (let q = 0; q < queryCount; q++) starts[q + 1]! += starts[q]!;
  const order = new Int32Array(whole.count);
  const fill = starts.slice(0, queryCount);
  for (let i = 0; i < whole.count; i++) order[fill[documents.group(i)]!++] = i;
  for (let q = 0; q < queryCount; q++) {
    if (starts[q] === starts[q + 1]) continue;
    into.reset(q);
    for (let k = starts[q]!; k < starts[q + 1]!; k++) into.copyFrom(whole, order[k]!);
    onQuery(into);
  }
}

function sameBytes(known: Buffer | undefined, bytes: Uint8Array, start: number, end: number): boolean {
  if (!known || known.length !== end - start) return false;
  for (let i = 0; i < known.length; i++) if (known[i] !== bytes[start + i]) return false;
  return true;
}
