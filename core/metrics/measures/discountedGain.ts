// Shared by ndcg and ndcg_cut: trec_eval's DCG with gain = label (labels < 0 and unjudged documents gain 0)
// and discount log2(rank + 1), and the ideal DCG from the query's label counts. The relevance level (-l) does not
// apply: graded gains use every label.

import type { LabelCounts } from '../trecMeasure.ts';

/** DCG of the first `depth` ranks, summed in rank order as trec_eval does. */
export function rankingDcg(ranking: Int32Array, depth: number): number {
  const end = Math.min(depth, ranking.length);
  let dcg = 0;
  for (let i = 0; i < end; i++) {
    const gain = ranking[i]!;
    if (gain > 0) dcg += gain / Math.log2(i + 2);
  }
  return dcg;
}

/** Ideal DCG of the first `depth` ranks: the judged labels in decreasing order. */
export function idealDcg(labelCounts: LabelCounts, depth: number): number {
  let dcg = 0;
  let rank = 0;
  for (let i = labelCounts.labels.length - 1; i >= 0 && rank < depth; i--) {
    const label = labelCounts.labels[i]!;
    if (label <= 0) break;
    const count = labelCounts.counts[i]!;
    for (let j = 0; j < count && rank < depth; j++, rank++) dcg += label / Math.log2(rank + 2);
  }
  return dcg;
}
