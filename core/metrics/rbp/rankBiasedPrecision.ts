// Rank-biased precision (Moffat and Zobel, 2008) with its residual, as rbp_eval 0.2 computes them: the same
// weights, the same treatment of ties and depth cutoffs, and the same order of floating-point operations, so that
// its printed digits are ours.
//
// RBP = (1 − p) · Σᵢ rel(i) · p^(i−1). The residual is what the documents we know nothing about could still add:
// the weight of each unjudged document retrieved above the depth, plus p^depth for everything below it.

/** rbp_eval's "full" depth: every retrieved document (its DEPTH_FULL, C's UINT_MAX). */
export const fullDepth = 4294967295;

/** A document's effective relevance (0‥1 binary, or scaled fractional), or undefined when it is unjudged. */
export type Relevance = number | undefined;

/** RBP at one persistence: the base value, and how much the unjudged documents and the tail could add to it. */
export interface RbpValue {
  value: number;
  residual: number;
}

/** One depth cutoff of a topic: its relevance retrieved (fractional through ties) and RBP at each persistence. */
export interface RbpAtDepth {
  depth: number;
  relevantRetrieved: number;
  byPersistence: RbpValue[];
}

/**
 * RBP of one topic's ranking at each depth (ascending; fullDepth for all) and each persistence p ∈ [0, 1].
 * `tiedGroups` is the ranking split into ties, best first: each group holds the relevance of its documents.
 *
 * A tie shares out the weights of the positions it spans: each of its documents gets their mean — the mean RBP
 * over the orders the tie could be broken in. A depth that cuts a tie takes every document of the tie with that
 * mean weight times the fraction of the tie above the cut: rbp_eval's expectation when the tied documents that
 * make up the depth are drawn at random, which is not the mean over orders (those would weight the documents
 * above the cut by the positions above it only). The residual at depth d is always the unjudged weight plus p^d
 * (d the depth, or the ranking's length if shorter), even when a tie straddles d.
 */
export function rbpAtDepths(
  tiedGroups: readonly (readonly Relevance[])[],
  persistences: readonly number[],
  depths: readonly number[],
): RbpAtDepth[] {
  const length = tiedGroups.reduce((total, group) => total + group.length, 0);
  // Per persistence: the next position's weight (1 − p)·p^i, the relevant and the unjudged weight so far.
  const nextWeight = persistences.map((p) => 1 - p);
  const relevantWeight = persistences.map(() => 0);
  const unjudgedWeight = persistences.map(() => 0);
  let residuals = persistences.map(() => 0);
  let relevantRetrieved = 0;
  let groupIndex = 0;
  let groupStart = 0; // the position of the current group's first document
  let groupWeights: number[] | undefined; // the current group's mean weight per persistence, once computed
  let evaluatedTo = 0; // the depth the sums stand at (rbp_eval's rbp->depth)
  const results: RbpAtDepth[] = [];
  for (const depth of depths) {
    const reached = Math.min(length, depth);
    // rbp_eval stops at an assertion when a depth follows one already past the ranking's end (-d 10,20 on a
    // 5-document ranking); the sums cannot change there, so the values are the previous depth's.
    const exhausted = reached === evaluatedTo || evaluatedTo > length;
    if (!exhausted) {
      let groupEnd: number;
      do {
        const group = tiedGroups[groupIndex]!;
        if (groupWeights === undefined) {
          groupWeights = persistences.map((p, k) => {
            let sum = 0;
            for (let t = 0; t < group.length; t++) {
              sum += nextWeight[k]!;
              nextWeight[k]! *= p;
            }
            return sum / group.length;
          });
        }
        groupEnd = groupStart + group.length;
        const fraction = (Math.min(groupEnd, depth) - Math.max(groupStart, evaluatedTo)) / group.length;
        for (const relevance of group) {
          if (relevance !== undefined) relevantRetrieved += relevance * fraction;
          for (let k = 0; k < persistences.length; k++) {
            if (relevance === undefined) unjudgedWeight[k]! += groupWeights[k]! * fraction;
            else relevantWeight[k]! += groupWeights[k]! * relevance * fraction;
          }
        }
        if (groupEnd <= reached) {
          groupIndex++;
          groupStart = groupEnd;
          groupWeights = undefined;
        }
      } while (groupEnd < reached);
      residuals = persistences.map((p, k) => unjudgedWeight[k]! + p ** reached);
      evaluatedTo = depth;
    }
    results.push({
      depth,
      relevantRetrieved,
      byPersistence: persistences.map((_, k) => ({ value: relevantWeight[k]!, residual: residuals[k]! })),
    });
  }
  return results;
}

/** RBP at persistence p over the whole ranking, with its residual (rbp_eval's `d= full` line). */
export function rankBiasedPrecision(tiedGroups: readonly (readonly Relevance[])[], persistence: number): RbpValue {
  return rbpAtDepths(tiedGroups, [persistence], [fullDepth])[0]!.byPersistence[0]!;
}

/** How rbp_eval orders a topic's documents: by score (its default), by the rank column, or by line order. */
export type RbpOrdering = 'score' | 'rank' | 'occurrence';

export interface RunDocument {
  docid: string;
  score: number;
  rank: number;
}

/**
 * A topic's documents as tied groups, best first. Score: descending, equal scores tied; rank: ascending, equal
 * ranks tied; occurrence: the run's line order, no ties. (Within a tie the order cannot change any number.)
 */
export function tiedGroupsOf(
  documents: readonly RunDocument[],
  ordering: RbpOrdering,
  relevanceOf: (docid: string) => Relevance,
): Relevance[][] {
  if (ordering === 'occurrence') return documents.map((document) => [relevanceOf(document.docid)]);
  const key = ordering === 'score' ? (d: RunDocument) => -d.score : (d: RunDocument) => d.rank;
  const sorted = [...documents].sort((a, b) => {
    const keyA = key(a);
    const keyB = key(b);
    return keyA < keyB ? -1 : keyA > keyB ? 1 : 0; // not keyA − keyB: infinite scores would give NaN
  });
  const groups: Relevance[][] = [];
  let previousKey: number | undefined;
  for (const document of sorted) {
    const documentKey = key(document);
    if (groups.length === 0 || documentKey !== previousKey) groups.push([]);
    groups[groups.length - 1]!.push(relevanceOf(document.docid));
    previousKey = documentKey;
  }
  return groups;
}
