// trec_eval's gains for the graded measures that walk the ideal ranking rank by rank (G, ndcg_rel, Rndcg, dcg,
// ideal_dcg; gain_init.c): a judged label gains its mapped gain (--gains) or else itself, and may gain 0 or less;
// an unjudged or negatively judged document gains 0. The ideal ranking takes the judged documents level by level
// in decreasing order of gain, and ends at the first level whose gain is not positive.

import type { LabelCounts, RankedQuery } from '../trecMeasure.ts';
import { rankDiscounts, rankingDcgSums } from './discountedGain.ts';

/** Up to this label, the labels nobody judged are listed as trec_eval lists them (see IdealGains). */
const maximumListedLabel = 1 << 16;

/** The gain of one rank's judgment (notJudged −1 and judgedNegative −2 gain 0). */
export function gainAt(label: number, gains: ReadonlyMap<number, number> | undefined): number {
  if (label < 0) return 0;
  return gains?.get(label) ?? label;
}

/**
 * The ideal ranking's gain rank after rank. `current` starts at the best level's gain before any rank is taken,
 * because trec_eval's loops test it first: a mapped gain with no judged document can head the levels (then the
 * first `next()` already moves past it), and Rndcg counts a change of level against that first gain.
 */
/** A level of the ideal ranking: its gain and how many judged documents have it. */
interface GainLevel {
  gain: number;
  count: number;
}

// Kept for the last label counts and gains asked: G, ndcg, ndcg_rel and Rndcg each walk the same query's ideal.
let levelsCounts: LabelCounts | undefined;
let levelsGains: ReadonlyMap<number, number> | undefined;
let levelsKept: readonly GainLevel[] = [];

/** The ideal ranking's levels, best first, as trec_eval orders them (see IdealGains). */
function idealLevels(labelCounts: LabelCounts, gains: ReadonlyMap<number, number> | undefined): readonly GainLevel[] {
  if (labelCounts === levelsCounts && gains === levelsGains) return levelsKept;
  const labels = labelCounts.labels;
  const counts = labelCounts.counts;
  const levels: GainLevel[] = [];
  if (!gains) {
    // Every label gains itself: the labels nobody judged do not matter to the order (see below), and the labels are
    // distinct and ascending, so the order is simply from the top.
    for (let i = labels.length - 1; i >= 0; i--) levels.push({ gain: labels[i]!, count: counts[i]! });
  } else {
    // trec_eval's list before sorting: the mapped labels in the order given, then every label from 0 up to the
    // largest judged one that is not mapped, gaining itself (a label nobody judged has no document).
    const countOf = new Map(labels.map((label, i) => [label, counts[i]!]));
    const unsorted: GainLevel[] = [];
    for (const [label, gain] of gains) unsorted.push({ gain, count: countOf.get(label) ?? 0 });
    // The labels nobody judged only matter to the order when a gain is not whole (see below); they are listed then,
    // up to a bound, so that a huge label (a qrels may use 2^31) costs nothing per query.
    const wholeGains = [...gains.values()].every(Number.isInteger);
    let largest = -1;
    for (let i = 0; i < labels.length; i++) if (counts[i]! > 0) largest = labels[i]!;
    if (!wholeGains && largest <= maximumListedLabel) {
      for (let label = 0; label <= largest; label++) {
        if (!gains.has(label)) unsorted.push({ gain: label, count: countOf.get(label) ?? 0 });
      }
    } else {
      for (const label of labels) if (!gains.has(label)) unsorted.push({ gain: label, count: countOf.get(label)! });
    }
    // trec_eval sorts the levels by increasing gain with a comparison that casts the difference to an int, so gains
    // less than 1 apart (-m G.1=0.5 against label 0's 0) compare equal and the outcome depends on the sort: glibc's
    // qsort, a stable top-down merge sort (msort.c), which is reproduced here. With whole gains the order is simply
    // by gain. The ideal ranking reads the sorted list from its end.
    levels.push(...glibcMergeSort(unsorted, (a, b) => Math.trunc(a.gain - b.gain)).reverse());
  }
  levelsCounts = labelCounts;
  levelsGains = gains;
  levelsKept = levels;
  return levels;
}

/**
 * The ideal ranking's gain rank after rank. `current` starts at the best level's gain before any rank is taken,
 * because trec_eval's loops test it first: a mapped gain with no judged document can head the levels (then the
 * first `next()` already moves past it), and Rndcg counts a change of level against that first gain.
 */
export class IdealGains {
  private readonly levels: readonly GainLevel[];
  private level = 0;
  private takenAtLevel = 0;
  current: number;

  constructor(labelCounts: LabelCounts, gains: ReadonlyMap<number, number> | undefined) {
    this.levels = idealLevels(labelCounts, gains);
    this.current = this.levels.length > 0 ? this.levels[0]!.gain : 0;
  }

  /** The ideal gain at the next rank (0 once every level is used). */
  next(): number {
    this.takenAtLevel++;
    while (this.level < this.levels.length && this.takenAtLevel > this.levels[this.level]!.count) {
      this.takenAtLevel = 1;
      this.level++;
      this.current = this.level < this.levels.length ? this.levels[this.level]!.gain : 0;
    }
    return this.current;
  }
}

/** glibc's qsort on small arrays (msort.c): split at n/2, sort both halves, merge taking the left element unless
 * it compares greater — stable, and with a comparison that is not transitive, this exact order. */
function glibcMergeSort<T>(items: T[], compare: (a: T, b: T) => number): T[] {
  if (items.length <= 1) return items;
  const half = Math.floor(items.length / 2);
  const left = glibcMergeSort(items.slice(0, half), compare);
  const right = glibcMergeSort(items.slice(half), compare);
  const merged: T[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length && j < right.length) merged.push(compare(left[i]!, right[j]!) <= 0 ? left[i++]! : right[j++]!);
  while (i < left.length) merged.push(left[i++]!);
  while (j < right.length) merged.push(right[j++]!);
  return merged;
}

// The last ideal DCG computed, with the levels it was computed from (the ideal depends on the qrels only).
let idealOfLevels: readonly GainLevel[] | undefined;
let idealKept = 0;

/** DCG of the whole ranking and of the ideal ranking, as trec_eval's ndcg computes both (discount log2(rank + 1);
 * negative gains count, the ideal stops at the first non-positive gain). */
export function dcgAndIdeal(
  query: RankedQuery,
  gains: ReadonlyMap<number, number> | undefined,
): { dcg: number; ideal: number } {
  const ranking = query.ranking;
  let dcg = 0;
  if (!gains) {
    // Gain = label: no gain is negative, so this is ndcg_cut's DCG of the whole ranking (summed in the same order).
    dcg = rankingDcgSums(query, undefined, ranking.length)[ranking.length]!;
  } else {
    const discounts = rankDiscounts(ranking.length);
    for (let i = 0; i < ranking.length; i++) {
      const gain = gainAt(ranking[i]!, gains);
      if (gain !== 0) dcg += gain / discounts[i]!;
    }
  }
  const levels = idealLevels(query.labelCounts, gains);
  if (levels !== idealOfLevels) {
    const idealGains = new IdealGains(query.labelCounts, gains);
    let ideal = 0;
    for (let i = 0; idealGains.current > 0; i++) {
      const gain = idealGains.next();
      if (gain > 0) ideal += gain / rankDiscounts(i + 1)[i]!;
    }
    idealOfLevels = levels;
    idealKept = ideal;
  }
  return { dcg, ideal: idealKept };
}
