// trec_eval's gains for the graded measures that walk the ideal ranking rank by rank (G, ndcg_rel, Rndcg, dcg,
// ideal_dcg; gain_init.c): a judged label gains its mapped gain (--gains) or else itself, and may gain 0 or less;
// an unjudged or negatively judged document gains 0. The ideal ranking takes the judged documents level by level
// in decreasing order of gain, and ends at the first level whose gain is not positive.

import type { LabelCounts, RankedQuery } from '../trecMeasure.ts';

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
export class IdealGains {
  private readonly levels: { gain: number; count: number }[];
  private level = 0;
  private takenAtLevel = 0;
  current: number;

  constructor(labelCounts: LabelCounts, gains: ReadonlyMap<number, number> | undefined) {
    this.levels = labelCounts.labels.map((label, i) => ({ gain: gainAt(label, gains), count: labelCounts.counts[i]! }));
    if (gains) {
      // A gain given for a label nobody judged is still a level (trec_eval lists the -m pairs first).
      for (const [label, gain] of gains) if (!labelCounts.labels.includes(label)) this.levels.push({ gain, count: 0 });
    }
    // Equal gains may come in any order: each takes the same gain, so the walk is the same. trec_eval compares gains
    // by their difference cast to an int, so two levels whose gains differ by less than 1 (-m G.1=0.5 against label
    // 0's gain 0) are "equal" to its qsort and may come in either order; here they are ordered by gain, exactly.
    this.levels.sort((a, b) => b.gain - a.gain);
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

/** DCG of the whole ranking and of the ideal ranking, as trec_eval's ndcg computes both (discount log2(rank + 1);
 * negative gains count, the ideal stops at the first non-positive gain). */
export function dcgAndIdeal(
  query: RankedQuery,
  gains: ReadonlyMap<number, number> | undefined,
): { dcg: number; ideal: number } {
  const ranking = query.ranking;
  let dcg = 0;
  for (let i = 0; i < ranking.length; i++) {
    const gain = gainAt(ranking[i]!, gains);
    if (gain !== 0) dcg += gain / Math.log2(i + 2);
  }
  const idealGains = new IdealGains(query.labelCounts, gains);
  let ideal = 0;
  for (let i = 0; idealGains.current > 0; i++) {
    const gain = idealGains.next();
    if (gain > 0) ideal += gain / Math.log2(i + 2);
  }
  return { dcg, ideal };
}
