// One annotator's queue: the pair ids of a study in a QueueOrder (types.ts), limited to the pairs assigned to them
// (all pairs when the study assigns none, and for the adjudicator) and, with `unlabelledOnly`, to the pairs they
// have no current label for. The record sorts it (LabelsPort.labelQueue; core/store/sqlite/labels/labelQueueSql.ts
// for SQLite) and hands it over as a typed array: a million pairs take about a second.
//
// Every order ends in the query order: query import order (a pair whose query is not in the study's queries after
// all of them, by qid), then best pool rank (pairs no run ranked last), then docid.
// - confidence: the least confidence among the pair's suggestions first — a suggestion's confidence, 1 when a
//   parsed label has none (the judge did not vote), 0 for output that could not be parsed into a label (the judge
//   could not decide: look first); pairs without suggestions last.
// - disagreement: the number of distinct labels among the pair's current labels (every annotator, LLM judges
//   included) and its parsed suggestions, most first; pairs with fewer than two distinct labels last.
// A judge's suggestions are its latest one per pair (the one the Label view shows): a judge run again replaces
// what it said before, and does not disagree with itself.
import { StoreError } from '../store/studyDatabase.ts';
import type { StudyStore } from '../store/studyStore.ts';
import type { QueueOrder } from './types.ts';

export const queueOrders: readonly QueueOrder[] = ['query', 'rank', 'confidence', 'disagreement'];

export interface QueueScope {
  studyId: number;
  annotatorId: number;
  /** Only the pairs assigned to the annotator (false: every pair of the study). */
  assignedOnly: boolean;
  /** Only the pairs the annotator has no current label for. */
  unlabelledOnly: boolean;
}

/** The pair ids of the queue, in order. */
export async function buildLabelQueue(store: StudyStore, order: QueueOrder, scope: QueueScope): Promise<Int32Array> {
  if (!queueOrders.includes(order)) {
    throw new StoreError(`unknown queue order '${order}' (expected one of: ${queueOrders.join(', ')})`);
  }
  return store.labels.labelQueue(scope, order);
}
