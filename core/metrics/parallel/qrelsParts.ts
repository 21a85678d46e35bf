// The qrels read in two parts by two threads (the first part's queries first, then the second's), each part's
// judgments on SharedArrayBuffers so that both threads look up any query's judgments without a copy.
import { ByteKeyStore, GroupedByteKeyIndex, type SharedByteKeyStore } from '../../formats/byteKeyTable.ts';
import type { Qrels, QrelsQuery } from '../../formats/trecQrels.ts';
import { judgedNegative, notJudged, type RunJudgments } from '../../formats/trecRun.ts';

/** A part as posted to the other thread. */
export interface SharedQrelsPart {
  queries: QrelsQuery[];
  judgments: SharedByteKeyStore;
  index: ReturnType<GroupedByteKeyIndex['shareable']>;
  labels: Int8Array | Int32Array;
}

/** The part's arrays for postMessage (readQrelsPart with `shared`: nothing is copied). */
export function shareQrelsPart(qrels: Qrels): SharedQrelsPart {
  return {
    queries: qrels.queries,
    judgments: qrels.judgments.shareable(),
    index: qrels.judgmentIndex.shareable(),
    labels: qrels.labels,
  };
}

interface QrelsPart {
  queries: QrelsQuery[];
  index: GroupedByteKeyIndex;
  labels: Int8Array | Int32Array;
}

function partOf(shared: SharedQrelsPart): QrelsPart {
  const store = ByteKeyStore.fromShared(shared.judgments);
  return { queries: shared.queries, index: GroupedByteKeyIndex.fromShared(store, shared.index), labels: shared.labels };
}

/** The two parts as one qrels for a run's reader; undefined when a qid is in both parts (the file is not grouped
 * by query: its judgments of that query would be split). */
export class TwoPartJudgments implements RunJudgments {
  readonly queryCount: number;
  /** Every query, the first part's then the second's: the index a run's reader gives. */
  readonly queries: QrelsQuery[];
  private readonly queryIndex: Map<string, number>;
  private readonly firstCount: number;
  private readonly first: QrelsPart;
  private readonly second: QrelsPart;

  private constructor(first: QrelsPart, second: QrelsPart, queryIndex: Map<string, number>) {
    this.first = first;
    this.second = second;
    this.firstCount = first.queries.length;
    this.queries = first.queries.concat(second.queries);
    this.queryCount = this.queries.length;
    this.queryIndex = queryIndex;
  }

  static of(first: SharedQrelsPart, second: SharedQrelsPart): TwoPartJudgments | undefined {
    const queryIndex = new Map<string, number>();
    for (const query of first.queries) queryIndex.set(query.qid, queryIndex.size);
    for (const query of second.queries) {
      if (queryIndex.has(query.qid)) return undefined;
      queryIndex.set(query.qid, queryIndex.size);
    }
    return new TwoPartJudgments(partOf(first), partOf(second), queryIndex);
  }

  queryOf(qid: string): number {
    return this.queryIndex.get(qid) ?? -1;
  }

  judgment(query: number, bytes: Uint8Array, start: number, end: number, hash: number): number {
    const inFirst = query < this.firstCount;
    const part = inFirst ? this.first : this.second;
    const judged = part.index.find(inFirst ? query : query - this.firstCount, bytes, start, end, hash);
    if (judged === -1) return notJudged;
    const label = part.labels[judged]!;
    return label < 0 ? judgedNegative : label;
  }
}
