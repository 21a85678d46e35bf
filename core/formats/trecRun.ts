// Reader of a TREC run (`qid Q0 docid rank score tag`) for evaluation against already-read qrels. As trec_eval:
// the rank column is ignored, fields after the tag are ignored, the runid is the tag of the last line, and
// queries absent from the qrels are skipped (after their lines are checked). Each retrieved document's judgment
// is looked up while reading, so nothing but numbers is kept per line.
import { ByteKeyTable, hashBytes } from './byteKeyTable.ts';
import { FormatError } from './formatError.ts';
import { GrowableFloat64, GrowableInt32 } from './growableArrays.ts';
import { readLines } from './lineReader.ts';
import { QueryIdCache } from './queryIdCache.ts';
import { columnOf, FieldSplitter, fieldText, isBlankLine, parseFloatField } from './trecFields.ts';
import type { Qrels } from './trecQrels.ts';

/** Judgment of a retrieved document that is not in the qrels (trec_eval's RELVALUE_NONPOOL). */
export const notJudged = -1;
/** Judgment of a document in the qrels with a negative label (trec_eval's RELVALUE_UNJUDGED). */
export const judgedNegative = -2;

export interface Run {
  file: string;
  /** Tag of the last line, as trec_eval reports it. */
  runid: string;
  /** Retrieved documents of queries that are in the qrels; group = the qrels' query index. */
  documents: ByteKeyTable;
  scores: Float64Array;
  /** Judgment of each retrieved document: a label ≥ 0, notJudged or judgedNegative. */
  judgments: Int32Array;
  lines: Int32Array;
  /** 1-based column of each line's docid, for messages. */
  documentColumns: Int32Array;
  /** A docid retrieved twice for one query: the later entry and the first. */
  duplicates: { entry: number; first: number }[];
  /** Number of lines of queries the qrels do not have (ignored, as trec_eval does). */
  ignoredLines: number;
}

export async function readRun(file: string, qrels: Qrels): Promise<Run> {
  const documents = new ByteKeyTable();
  const scores = new GrowableFloat64();
  const judgments = new GrowableInt32();
  const lines = new GrowableInt32();
  const documentColumns = new GrowableInt32();
  const duplicates: { entry: number; first: number }[] = [];
  const fields = new FieldSplitter(6);
  const qrelsLabels = qrels.labels;
  let ignoredLines = 0;
  let runid: string | undefined;
  let runidBytes: Buffer | undefined;
  const queryIds = new QueryIdCache((qid) => qrels.queryIndex.get(qid) ?? -1);

  await readLines(file, (bytes, start, end, line) => {
    if (isBlankLine(bytes, start, end)) return;
    const count = fields.split(bytes, start, end);
    const { starts, ends } = fields;
    if (bytes[starts[0]!] === 35) return; // '#' comment line
    if (count < 6) {
      throw new FormatError(
        file,
        line,
        columnOf(bytes, start, end),
        `expected 6 fields 'qid Q0 docid rank score tag', found ${count}`,
      );
    }
    const score = parseFloatField(bytes, starts[4]!, ends[4]!);
    if (Number.isNaN(score) || !Number.isFinite(score)) {
      throw new FormatError(
        file,
        line,
        columnOf(bytes, start, starts[4]!),
        `expected a decimal score, found '${fieldText(bytes, starts[4]!, ends[4]!)}'`,
      );
    }
    // The runid is the last line's tag; keep its bytes only when they change (rarely).
    const tagLength = ends[5]! - starts[5]!;
    if (!runidBytes || runidBytes.length !== tagLength || runidBytes.compare(bytes, starts[5]!, ends[5]!) !== 0) {
      runidBytes = Buffer.from(bytes.subarray(starts[5]!, ends[5]!));
      runid = undefined;
    }
    const query = queryIds.indexOf(bytes, starts[0]!, ends[0]!);
    if (query === -1) {
      ignoredLines++;
      return;
    }
    const docStart = starts[2]!;
    const docEnd = ends[2]!;
    const hash = hashBytes(bytes, docStart, docEnd, query);
    const judged = qrels.judgments.find(query, bytes, docStart, docEnd, hash);
    const label = judged === -1 ? notJudged : qrelsLabels[judged]!;
    const first = documents.find(query, bytes, docStart, docEnd, hash);
    const entry = documents.append(query, bytes, docStart, docEnd, hash, first === -1);
    if (first !== -1) duplicates.push({ entry, first });
    scores.push(score);
    judgments.push(label < 0 ? judgedNegative : label);
    lines.push(line);
    documentColumns.push(columnOf(bytes, start, docStart));
  });

  runid ??= runidBytes ? runidBytes.toString('utf8') : '';
  return {
    file,
    runid,
    documents,
    scores: scores.data.subarray(0, scores.length),
    judgments: judgments.data.subarray(0, judgments.length),
    lines: lines.data.subarray(0, lines.length),
    documentColumns: documentColumns.data.subarray(0, documentColumns.length),
    duplicates,
    ignoredLines,
  };
}

/** Text of a retrieved docid, for messages. */
export function runDocumentId(run: Run, entry: number): string {
  return run.documents.keyText(entry);
}

export function duplicateDocumentError(run: Run, later: number, first: number, qid: string): FormatError {
  const docid = runDocumentId(run, later);
  return new FormatError(
    run.file,
    run.lines[later]!,
    run.documentColumns[later]!,
    `document '${docid}' is retrieved twice for query '${qid}' (first on line ${run.lines[first]}); trec_eval refuses duplicate documents in a ranking`,
    { line: run.lines[first]!, column: run.documentColumns[first]!, message: 'first retrieval' },
  );
}
