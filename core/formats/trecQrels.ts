// Reader of TREC qrels (`qid iter docid rel`) for evaluation: streamed byte by byte, every malformed line is a
// positioned FormatError, and a duplicate (qid, docid) is an error as it is in trec_eval. Judgments are kept as
// numbers and pooled bytes (no string per line): 1M judgments take about 50 MB.
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { ByteKeyStore, GroupedByteKeyIndex, hashBytes } from './byteKeyTable.ts';
import { FormatError } from './formatError.ts';
import { type ByteRange, estimateLineCount, readLines } from './lineReader.ts';
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
  const queries: QrelsQuery[] = [];
  const queryIndex = new Map<string, number>();
  const fileLines = estimateLineCount(file) ?? 1 << 14;
  const part = range ? (range.end - range.start) / Math.max(1, fileSize(file)) : 1;
  const expected = Math.ceil(fileLines * part * 1.02);
  // Sized for the docids of the file's first lines: growing the pool from a 12-byte guess copied 12 MB and held it
  // beside the new 29 MB at 1M MS MARCO ids (the store still grows if later ids are longer).
  const judgments = new ByteKeyStore(expected, Math.ceil(expected * (meanDocidBytes(file) ?? 12) * 1.03), shared);
  const labels = new LabelColumn(expected, shared);
  const fields = new FieldSplitter(4);
  let lineNumber = 0;
  const queryIds = new QueryIdCache((qid) => {
    let index = queryIndex.get(qid);
    if (index === undefined) {
      index = queries.length;
      queryIndex.set(qid, index);
      queries.push({ qid, firstLine: lineNumber, labelCounts: { labels: [], counts: [] } });
    }
    return index;
  });

  await readLines(
    file,
    (bytes, start, end, line) => {
      lineNumber = line;
      if (bytes[start] === 35 || isBlankLine(bytes, start, end)) return; // '#' in the first byte: a comment
      const count = fields.split(bytes, start, end);
      const { starts, ends } = fields;
      if (count !== 4) {
        throw new FormatError(
          file,
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
          file,
          line,
          columnOf(bytes, start, starts[3]!),
          `expected an integer relevance label (at most ${maximumLabel}), found '${fieldText(bytes, starts[3]!, ends[3]!)}'`,
        );
      }
      const query = queryIds.indexOf(bytes, starts[0]!, ends[0]!);
      const docStart = starts[2]!;
      const docEnd = ends[2]!;
      // Unseeded by the query (the index is partitioned by query anyway): a run's reader hashes a docid once, whatever
      // the part of the qrels that holds its query.
      const hash = hashBytes(bytes, docStart, docEnd, 0);
      judgments.add(query, bytes, docStart, docEnd, hash);
      labels.push(label < 0 ? -1 : label); // any negative label means judged-but-unusable (trec_eval's "unjudged")
      if (label >= 0) countLabel(queries[query]!.labelCounts, label);
    },
    range,
  );

  // Duplicates are found while indexing, one small region per query (see GroupedByteKeyIndex); the first
  // repeat in file order is reported. Entry n is the n-th data line, so a second read finds both lines.
  const judgmentIndex = new GroupedByteKeyIndex(judgments, queries.length, shared);
  if (judgmentIndex.repeats.length > 0) {
    const repeat = judgmentIndex.repeats.reduce((a, b) => (b.entry < a.entry ? b : a));
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
    queryIndex,
    judgments,
    judgmentIndex,
    labels: labels.data.subarray(0, labels.length),
  };
}

function fileSize(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 1;
  }
}

/** Mean length of the docid field over the data lines of the file's first 64 KiB (undefined for gzip, a pipe or
 * no data line there). */
function meanDocidBytes(file: string): number | undefined {
  let fd: number | undefined;
  try {
    if (!statSync(file).isFile()) return undefined; // a pipe: opening it here would consume what its writer wrote
    fd = openSync(file, 'r');
    const sample = Buffer.allocUnsafe(1 << 16);
    const read = readSync(fd, sample, 0, sample.length, 0);
    if (read >= 2 && sample[0] === 0x1f && sample[1] === 0x8b) return undefined;
    const fields = new FieldSplitter(4);
    let lines = 0;
    let bytes = 0;
    // Whole lines only: the last one may be cut by the sample's end.
    for (
      let start = 0, end = sample.indexOf(10);
      end !== -1 && end < read;
      start = end + 1, end = sample.indexOf(10, start)
    ) {
      if (!isDataLine(sample, start, end) || fields.split(sample, start, end) < 3) continue;
      lines++;
      bytes += fields.ends[2]! - fields.starts[2]!;
    }
    return lines > 0 ? bytes / lines : undefined;
  } catch {
    return undefined; // the reading proper reports what is wrong with the file
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Adds one judgment with this label (≥ 0) to a query's sorted label counts. */
function countLabel(labelCounts: { labels: number[]; counts: number[] }, label: number): void {
  const { labels, counts } = labelCounts;
  let i = labels.length - 1;
  while (i >= 0 && labels[i]! > label) i--;
  if (i >= 0 && labels[i] === label) counts[i]!++;
  else {
    labels.splice(i + 1, 0, label);
    counts.splice(i + 1, 0, 1);
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
