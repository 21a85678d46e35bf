// Shared by ndcg and ndcg_cut: trec_eval's DCG with gain = label (labels < 0 and unjudged documents gain 0)
// and discount log2(rank + 1), and the ideal DCG from the query's label counts. The relevance level (-l) does not
// apply: graded gains use every label. With `gains` (--gains), a label gains what it maps to, and the ideal
// ranking orders the judged documents by gain, not by label.

import { type LabelCounts, type RankedQuery, ReusedFloat64Array } from '../trecMeasure.ts';

let discountTable = new Float64Array(0);

/** Math.log2(i + 2) at index i (the discount of rank i + 1), for i below at least `length`: the same doubles as
 * calling Math.log2, computed once for all queries. Read only. */
export function rankDiscounts(length: number): Float64Array {
  if (discountTable.length < length) {
    let size = Math.max(1024, discountTable.length);
    while (size < length) size *= 2;
    discountTable = Float64Array.from({ length: size }, (_, i) => Math.log2(i + 2));
  }
  return discountTable;
}

/** The gain of a label ≥ 0: its mapped gain, else the label itself. */
function gainOf(label: number, gains: ReadonlyMap<number, number> | undefined): number {
  return gains?.get(label) ?? label;
}

// Kept for the last query and gains asked (ndcg_cut reads them at every cutoff; see relevantCounts).
let dcgQuery: RankedQuery | undefined;
let dcgGains: ReadonlyMap<number, number> | undefined;
let dcgSums = new Float64Array(1);
const dcgMemory = new ReusedFloat64Array();

/**
 * DCG of the first i ranks at index i, positive gains summed in rank order as trec_eval's ndcg_cut does, for i up
 * to `depth` or the ranking's length, whichever is less (ndcg_cut.10 sums 10 ranks, ndcg all). Read only.
 */
export function rankingDcgSums(
  query: RankedQuery,
  gains: ReadonlyMap<number, number> | undefined,
  depth: number,
): Float64Array {
  const ranking = query.ranking;
  const length = Math.min(depth, ranking.length);
  if (query === dcgQuery && gains === dcgGains && dcgSums.length > length) return dcgSums;
  const discounts = rankDiscounts(length);
  const sums = dcgMemory.view(length + 1);
  sums[0] = 0;
  let dcg = 0;
  for (let i = 0; i < length; i++) {
    const label = ranking[i]!;
    if (label > 0 || (gains && label === 0)) {
      const gain = gainOf(label, gains);
      if (gain > 0) dcg += gain / discounts[i]!;
    }
    sums[i + 1] = dcg;
  }
  dcgQuery = query;
  dcgGains = gains;
  dcgSums = sums;
  return sums;
}

// Kept for the last label counts and gains asked: the ideal depends on the qrels only.
let idealCounts: LabelCounts | undefined;
let idealGains: ReadonlyMap<number, number> | undefined;
let idealSums = new Float64Array(1);
const idealMemory = new ReusedFloat64Array();
/** idealSums runs to the last positive gain (so is right for any depth). */
let idealWhole = false;

/**
 * Ideal DCG of the first i ranks at index i, for i up to `depth` or the number of judged documents with a positive
 * gain, whichever is less (the sums stop there: read index min(k, length − 1)): the judged documents in decreasing
 * order of gain. Read only.
 */
export function idealDcgSums(
  labelCounts: LabelCounts,
  depth: number,
  gains?: ReadonlyMap<number, number>,
): Float64Array {
  if (labelCounts === idealCounts && gains === idealGains && (idealWhole || idealSums.length > depth)) return idealSums;
  const labels = labelCounts.labels;
  const counts = labelCounts.counts;
  // Without gains, gain = label: the labels are already in order (ascending), read from the top. With gains, the
  // levels are sorted by gain.
  const levels: { gain: number; count: number }[] | undefined = gains ? [] : undefined;
  let positive = 0;
  for (let i = labels.length - 1; i >= 0; i--) {
    const gain = gainOf(labels[i]!, gains);
    if (gain > 0) {
      levels?.push({ gain, count: counts[i]! });
      positive += counts[i]!;
    }
  }
  levels?.sort((a, b) => b.gain - a.gain);
  const length = Math.min(depth, positive);
  const discounts = rankDiscounts(length);
  const sums = idealMemory.view(length + 1);
  sums[0] = 0;
  let dcg = 0;
  let rank = 0;
  const levelCount = levels ? levels.length : labels.length;
  for (let level = 0; level < levelCount && rank < length; level++) {
    const gain = levels ? levels[level]!.gain : labels[labels.length - 1 - level]!;
    const count = levels ? levels[level]!.count : counts[labels.length - 1 - level]!;
    if (gain <= 0) break; // without gains: the labels below are 0
    for (let j = 0; j < count && rank < length; j++, rank++) {
      dcg += gain / discounts[rank]!;
      sums[rank + 1] = dcg;
    }
  }
  idealCounts = labelCounts;
  idealGains = gains;
  idealSums = sums;
  idealWhole = length === positive;
  return sums;
}
