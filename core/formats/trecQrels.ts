// Reader of TREC qrels (`qid iter docid rel`) for evaluation: streamed byte by byte, every malformed line is a
// positioned FormatError, and a duplicate (qid, docid) is an error as it is in trec_eval. Judgments are kept as
// numbers and pooled bytes (no string per line): 1M judgments take about 50 MB.
import { ByteKeyIndex, ByteKeyStore, hashBytes } from './byteKeyTable.ts';
import { FormatError } from './formatError.ts';
import { GrowableInt32 } from './growableArrays.ts';
import { estimateLineCount, readLines } from './lineReader.ts';
import { displayQueryId, QueryIdCache } from './queryIdCache.ts';
import { columnOf, FieldSplitter, fieldText, isBlankLine, nextFieldStart, parseIntegerField } from './trecFields.ts';

/** Labels index per-query count arrays; real qrels use 0–16, trec_eval documents -127…127. */
const maximumLabel = 65535;

export interface QrelsQuery {
  /** The qid as latin1 (byte order = string order); see displayQueryId. */
  qid: string;
  /** Line of the query's first judgment. */
  firstLine: number;
  /** Number of judged documents at each label ≥ 0 (index = label). */
  labelCounts: number[];
}

export interface Qrels {
  file: string;
  queries: QrelsQuery[];
  queryIndex: Map<string, number>;
  /** Key: (query index, docid bytes) → entry; `labels[entry]` is the judgment. */
  judgments: ByteKeyStore;
  judgmentIndex: ByteKeyIndex;
  labels: Int32Array;
}

/** A data line is any line that is neither blank nor a comment. */
function isDataLine(bytes: Uint8Array, start: number, end: number): boolean {
  return bytes[start] !== 35 && !isBlankLine(bytes, start, end);
}

export async function readQrels(file: string): Promise<Qrels> {
  const queries: QrelsQuery[] = [];
  const queryIndex = new Map<string, number>();
  const expected = Math.ceil((estimateLineCount(file) ?? 1 << 14) * 1.02);
  const judgments = new ByteKeyStore(expected);
  const judgmentIndex = new ByteKeyIndex(judgments, expected);
  const labels = new GrowableInt32(expected);
  const fields = new FieldSplitter(4);
  let lineNumber = 0;
  let duplicate: { line: number; column: number; entry: number; docid: string; qid: string } | undefined;
  const queryIds = new QueryIdCache((qid) => {
    let index = queryIndex.get(qid);
    if (index === undefined) {
      index = queries.length;
      queryIndex.set(qid, index);
      queries.push({ qid, firstLine: lineNumber, labelCounts: [] });
    }
    return index;
  });

  await readLines(file, (bytes, start, end, line) => {
    lineNumber = line;
    if (isBlankLine(bytes, start, end)) return;
    const count = fields.split(bytes, start, end);
    const { starts, ends } = fields;
    if (bytes[start] === 35) return; // '#' in the first byte: a comment (trec_eval's get_qrels.c)
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
    const hash = hashBytes(bytes, docStart, docEnd, query);
    const previous = judgmentIndex.find(query, bytes, docStart, docEnd, hash);
    if (previous !== -1) {
      // Positioned below, after this pass: finding the first occurrence's line needs another read.
      duplicate = {
        line,
        column: columnOf(bytes, start, docStart),
        entry: previous,
        docid: fieldText(bytes, docStart, docEnd),
        qid: displayQueryId(queries[query]!.qid),
      };
      return false;
    }
    judgmentIndex.insert(judgments.add(query, bytes, docStart, docEnd, hash));
    labels.push(label);
    if (label >= 0) {
      const counts = queries[query]!.labelCounts;
      while (counts.length <= label) counts.push(0);
      counts[label]!++;
    }
  });

  if (duplicate) {
    const first = await locateDataLine(file, duplicate.entry, 2);
    throw new FormatError(
      file,
      duplicate.line,
      duplicate.column,
      `duplicate judgment of document '${duplicate.docid}' for query '${duplicate.qid}' (first on line ${first.line}); trec_eval refuses duplicates`,
      { line: first.line, column: first.column, message: 'first judgment' },
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

/** Line and the column of field `field` (0-based) of the `index`-th data line (0-based) of a file. */
async function locateDataLine(file: string, index: number, field: number): Promise<{ line: number; column: number }> {
  let seen = 0;
  let found = { line: 0, column: 1 };
  const fields = new FieldSplitter(field + 1);
  await readLines(file, (bytes, start, end, line) => {
    if (!isDataLine(bytes, start, end) || seen++ !== index) return true;
    fields.split(bytes, start, end);
    found = { line, column: columnOf(bytes, start, fields.starts[field]!) };
    return false;
  });
  return found;
}
