// Reader of TREC qrels (`qid iter docid rel`) for evaluation: streamed byte by byte, every malformed line is a
// positioned FormatError, and a duplicate (qid, docid) is an error as it is in trec_eval.
import { ByteKeyTable, hashBytes } from './byteKeyTable.ts';
import { FormatError } from './formatError.ts';
import { GrowableInt32 } from './growableArrays.ts';
import { readLines } from './lineReader.ts';
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
  judgments: ByteKeyTable;
  labels: Int32Array;
  lines: Int32Array;
  /** 1-based column of each judgment's docid, for messages. */
  documentColumns: Int32Array;
}

export async function readQrels(file: string): Promise<Qrels> {
  const queries: QrelsQuery[] = [];
  const queryIndex = new Map<string, number>();
  const judgments = new ByteKeyTable();
  const labels = new GrowableInt32();
  const lines = new GrowableInt32();
  const documentColumns = new GrowableInt32();
  const fields = new FieldSplitter(4);
  let lineNumber = 0;
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
    if (bytes[starts[0]!] === 35) return; // '#' comment line
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
    const previous = judgments.find(query, bytes, docStart, docEnd, hash);
    if (previous !== -1) {
      const qid = displayQueryId(queries[query]!.qid);
      throw new FormatError(
        file,
        line,
        columnOf(bytes, start, docStart),
        `duplicate judgment of document '${fieldText(bytes, docStart, docEnd)}' for query '${qid}' (first on line ${lines.data[previous]}); trec_eval refuses duplicates`,
        { line: lines.data[previous]!, column: documentColumns.data[previous]!, message: 'first judgment' },
      );
    }
    judgments.append(query, bytes, docStart, docEnd, hash, true);
    labels.push(label);
    lines.push(line);
    documentColumns.push(columnOf(bytes, start, docStart));
    if (label >= 0) {
      const counts = queries[query]!.labelCounts;
      while (counts.length <= label) counts.push(0);
      counts[label]!++;
    }
  });

  return {
    file,
    queries,
    queryIndex,
    judgments,
    labels: labels.data.subarray(0, labels.length),
    lines: lines.data.subarray(0, lines.length),
    documentColumns: documentColumns.data.subarray(0, documentColumns.length),
  };
}
