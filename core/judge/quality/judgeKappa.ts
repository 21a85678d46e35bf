// Cohen's κ (unweighted) of a judge against the people over the pairs both labelled, with the Agreement view's
// bootstrap: the pairs are resampled with replacement from the same seeded generator (core/agreement/bootstrap.ts:
// seed 1, 1000 samples, 95 % percentile interval unless given), κ computed as core/agreement/statistics/cohenKappa.ts
// computes it, so the same labels give the same κ and interval in both places.
import { bootstrapInterval, defaultBootstrap, resampleUnits, seededRandom } from '../../agreement/bootstrap.ts';
import { cohenKappa } from '../../agreement/statistics/cohenKappa.ts';
import type { UnitPatterns } from '../../agreement/unitPatterns.ts';
import type { JudgeConfusion, JudgeKappa } from './judgeQualityTypes.ts';

/** The confusion matrix's pairs as units of two annotators (people, judge), one pattern per non-empty cell. */
function confusionPatterns(confusion: JudgeConfusion): UnitPatterns {
  const k = confusion.labels.length;
  const cells: number[] = [];
  const counts: number[] = [];
  const unitPattern: number[] = [];
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      const n = confusion.counts[i]![j]!;
      if (n === 0) continue;
      const pattern = counts.length;
      cells.push(i, j);
      counts.push(n);
      for (let u = 0; u < n; u++) unitPattern.push(pattern);
    }
  }
  const tallies = new Int32Array(counts.length * k);
  for (let p = 0; p < counts.length; p++) {
    tallies[p * k + cells[2 * p]!]!++;
    tallies[p * k + cells[2 * p + 1]!]!++;
  }
  return {
    width: 2,
    categories: k,
    cells: Int32Array.from(cells),
    tallies,
    labelled: new Int32Array(counts.length).fill(2),
    counts: Float64Array.from(counts),
    unitPattern: Int32Array.from(unitPattern),
    pairCategories: false,
  };
}

export function judgeKappa(
  confusion: JudgeConfusion,
  bootstrap: { samples: number; seed: number; level: number } = defaultBootstrap,
): JudgeKappa {
  const patterns = confusionPatterns(confusion);
  const kappa =
    confusion.pairs === 0
      ? { value: null, reason: 'no pair both the judge and the people labelled' }
      : cohenKappa(patterns, 0, 1, 'unweighted');
  const base = {
    value: kappa.value,
    ...(kappa.value === null && { reason: kappa.reason }),
    samples: bootstrap.samples,
    seed: bootstrap.seed,
    level: bootstrap.level,
  };
  if (kappa.value === null || bootstrap.samples === 0) return { ...base, interval: null, undefinedSamples: 0 };
  const random = seededRandom(bootstrap.seed);
  const counts = new Float64Array(patterns.counts.length);
  const values: (number | null)[] = [];
  for (let s = 0; s < bootstrap.samples; s++) {
    values.push(cohenKappa(patterns, 0, 1, 'unweighted', resampleUnits(patterns, random, counts)).value);
  }
  const interval = bootstrapInterval(values, bootstrap.level);
  return { ...base, interval: interval.interval, undefinedSamples: interval.undefined };
}
