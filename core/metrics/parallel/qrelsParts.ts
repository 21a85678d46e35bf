// A part of the qrels as one thread posts it to the other (core/metrics/parallel reads the qrels in chunks): its
// judgments on SharedArrayBuffers, so that both threads look up any query's judgments without a copy.
import type { GroupedByteKeyIndex, SharedByteKeyStore } from '../../formats/byteKeyTable.ts';
import type { Qrels, QrelsQuery } from '../../formats/trecQrels.ts';

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
