// A TREC run read for pooling: each query's documents in the order trec_eval ranks them (score descending, ties
// broken by docid descending, byte by byte; the rank column is ignored), cut at a depth. Pooling and evaluation
// then agree on what "the top 20" of a run is. Every query of the run is kept (pooling has no qrels to filter by);
// a malformed line is a FormatError at its position, as in eval.
import { FormatError } from '../formats/formatError.ts';
import { readLines } from '../formats/lineReader.ts';
import { columnOf, FieldSplitter, fieldString, fieldText, isBlankLine } from '../formats/trecFields.ts';
import { runLineScore } from '../formats/trecRun.ts';

export interface RankedDocument {
  docid: string;
  /** 1-based rank in trec_eval's order. */
  rank: number;
}

export interface RunRanking {
  /** The run tag of the last line (what trec_eval reports as runid). */
  tag: string;
  /** Query id → its documents in trec_eval's order, at most `depth` of them. */
  queries: Map<string, RankedDocument[]>;
  /** Lines read (not blank, not comments). */
  lines: number;
}

interface Retrieved {
  docid: string;
  score: number;
}

function compareTrecEval(a: Retrieved, b: Retrieved): number {
  // Score descending; ties by docid descending, compared as UTF-8 bytes (strcmp). Ties are rare: the bytes are
  // made only for them.
  return b.score - a.score || Buffer.compare(Buffer.from(b.docid), Buffer.from(a.docid));
}

/**
 * Reads `file` and keeps each query's top `depth` documents in trec_eval's order. Memory is that of the kept
 * documents, not of the run: a query's list is cut back to `depth` whenever it doubles. A docid ranked twice for
 * a query is an error (trec_eval aborts on it too); it is found within each stretch of a query's lines (runs are
 * written query by query), and a query that comes back later keeps the better of its two rankings of a document.
 */
export async function readRunRanking(file: string, depth: number): Promise<RunRanking> {
  const fields = new FieldSplitter(6);
  const byQuery = new Map<string, Retrieved[]>();
  let currentQid: string | undefined;
  let currentLines = new Map<string, number>();
  let tag = '';
  let lines = 0;
  await readLines(file, (bytes, start, end, line) => {
    if (isBlankLine(bytes, start, end)) return;
    const count = fields.split(bytes, start, end);
    const { starts, ends } = fields;
    if (bytes[starts[0]!] === 35) return;
    const score = runLineScore(file, line, bytes, start, end, fields, count);
    lines++;
    const qid = fieldString(bytes, starts[0]!, ends[0]!);
    const docid = fieldString(bytes, starts[2]!, ends[2]!);
    tag = fieldString(bytes, starts[5]!, ends[5]!);
    if (qid !== currentQid) {
      currentQid = qid;
      currentLines = new Map();
    }
    const first = currentLines.get(docid);
    if (first !== undefined) {
      throw new FormatError(
        file,
        line,
        columnOf(bytes, start, starts[2]!),
        `document '${fieldText(bytes, starts[2]!, ends[2]!)}' is ranked again for query '${fieldText(bytes, starts[0]!, ends[0]!)}' (first on line ${first})`,
      );
    }
    currentLines.set(docid, line);
    let documents = byQuery.get(qid);
    if (documents === undefined) {
      documents = [];
      byQuery.set(qid, documents);
    }
    documents.push({ docid, score });
    if (documents.length >= 2 * depth + 64) keepTop(documents, depth);
  });
  if (lines === 0) throw new FormatError(file, 1, 1, 'the run has no results (it is empty or only comments)');
  const queries = new Map<string, RankedDocument[]>();
  for (const [qid, documents] of byQuery) {
    keepTop(documents, depth);
    queries.set(
      qid,
      documents.map((d, i) => ({ docid: d.docid, rank: i + 1 })),
    );
  }
  return { tag, queries, lines };
}

/** Sorts `documents` in trec_eval's order, drops repeats of a docid (a query that came back), cuts at `depth`. */
function keepTop(documents: Retrieved[], depth: number): void {
  documents.sort(compareTrecEval);
  const kept = new Set<string>();
  let write = 0;
  for (const document of documents) {
    if (write === depth) break;
    if (kept.has(document.docid)) continue;
    kept.add(document.docid);
    documents[write++] = document;
  }
  documents.length = write;
}
