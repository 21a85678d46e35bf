// Shared by ndcg and ndcg_cut: trec_eval's DCG with gain = label (labels < 0 and unjudged documents gain 0)
// and discount log2(rank + 1), and the ideal DCG from the query's label counts. The relevance level (-l) does not
// apply: graded gains use every label. With `gains` (--gains), a label gains what it maps to, and the ideal
// ranking orders the judged documents by gain, not by label.

import type { LabelCounts } from '../trecMeasure.ts';

/** The gain of a label ≥ 0: its mapped gain, else the label itself. */
function gainOf(label: number, gains: ReadonlyMap<number, number> | undefined): number {
  return gains?.get(label) ?? label;
}

/** DCG of the first `depth` ranks, summed in rank order as trec_eval does. */
export function rankingDcg(ranking: Int32Array, depth: number, gains?: ReadonlyMap<number, number>): number {
  const end = Math.min(depth, ranking.length);
  let dcg = 0;
  for (let i = 0; i < end; i++) {
    const label = ranking[i]!;
    if (label <= 0 && !gains) continue;
    // Unjudged (−1) and judged-negative (−2) documents gain 0 whatever the gains say.
    const gain = label < 0 ? 0 : gainOf(label, gains);
    if (gain > 0) dcg += gain / Math.log2(i + 2);
  }
  return dcg;
}

/** Ideal DCG of the first `depth` ranks: the judged documents in decreasing order of gain. */
export function idealDcg(labelCounts: LabelCounts, depth: number, gains?: ReadonlyMap<number, number>): number {
  // Without gains, gain = label: the labels are already in order (ascending), read from the top.
  const levels: { gain: number; count: number }[] = [];
  for (let i = labelCounts.labels.length - 1; i >= 0; i--) {
    const gain = gainOf(labelCounts.labels[i]!, gains);
    if (gain > 0) levels.push({ gain, count: labelCounts.counts[i]! });
  }
  if (gains) levels.sort((a, b) => b.gain - a.gain);
  let dcg = 0;
  let rank = 0;
  for (const { gain, count } of levels) {
    for (let j = 0; j < count && rank < depth; j++, rank++) dcg += gain / Math.log2(rank + 2);
    if (rank >= depth) break;
  }
  return dcg;
}
