// Who labels which pair: the study's `annotators` and `overlap k` turned into assignment rows. Round-robin, balanced
// and deterministic: the r-th pair without an assignment (by pair id, r from 0) goes to annotators (r·k + j) mod n,
// j = 0…k-1, in the order the study file lists them; k defaults to n (everyone labels everything) and is clamped to
// n. Only pairs with no assignment yet are assigned, so pooling deeper later assigns the new pairs and never moves
// work already handed out (or labelled). A study without an `annotators` list assigns nothing: every pair is
// everyone's. One write of the record (LabelsPort.assignPairs; a million pairs, two annotators each: about 2.5 s).
import { StoreError } from '../store/studyDatabase.ts';
import type { StudyStore } from '../store/studyStore.ts';

/** Assigns the study's unassigned pairs to `annotators`; returns the number of pairs assigned. */
export async function assignPairs(
  store: StudyStore,
  studyId: number,
  annotators: readonly string[],
  overlap: number | undefined,
  now: Date,
): Promise<number> {
  const n = annotators.length;
  if (n === 0) return 0;
  if (new Set(annotators).size !== n) {
    throw new StoreError(`expected each annotator once, found ${annotators.join(', ')}`);
  }
  if (overlap !== undefined && (!Number.isInteger(overlap) || overlap < 1)) {
    throw new StoreError(`expected overlap to be a whole number of annotators ≥ 1, found ${overlap}`);
  }
  return store.labels.assignPairs(studyId, annotators, Math.min(overlap ?? n, n), now.toISOString());
}
