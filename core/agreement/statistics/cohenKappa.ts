// Cohen's κ between two annotators over the units both labelled, unweighted or weighted as scikit-learn's
// cohen_kappa_score weighs: by the distance between category indices on the ordered scale, |i − j| (linear) or
// (i − j)² (quadratic) — the study's scale when there is one, else the sorted labels the two annotators gave; κ = 1 − Σ w·O / Σ w·E with E the product of the two annotators' marginals.
import type { UnitPatterns } from '../unitPatterns.ts';
import { defined, type StatisticValue, undefinedBecause } from './statisticValue.ts';

export type KappaWeighting = 'unweighted' | 'linear' | 'quadratic';
export const kappaWeightings: readonly KappaWeighting[] = ['unweighted', 'linear', 'quadratic'];

/** The confusion matrix (a's category × b's category) of the units both annotators labelled. */
export function confusionMatrix(
  patterns: UnitPatterns,
  a: number,
  b: number,
  counts: Float64Array = patterns.counts,
): Float64Array {
  const { width, categories: k, cells } = patterns;
  const matrix = new Float64Array(k * k);
  for (let p = 0; p < counts.length; p++) {
    const w = counts[p]!;
    if (w === 0) continue;
    const ca = cells[p * width + a]!;
    const cb = cells[p * width + b]!;
    if (ca >= 0 && cb >= 0) matrix[ca * k + cb]! += w;
  }
  return matrix;
}

/**
 * κ from a confusion matrix over `k` categories. `ownCategories`: weigh by index among the categories the two
 * annotators used (a row or column with a count), not among all `k`.
 */
export function kappaOfConfusion(
  matrix: Float64Array,
  k: number,
  weighting: KappaWeighting,
  ownCategories = false,
): StatisticValue {
  const rows = new Float64Array(k);
  const columns = new Float64Array(k);
  let total = 0;
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      const x = matrix[i * k + j]!;
      rows[i]! += x;
      columns[j]! += x;
      total += x;
    }
  }
  if (total === 0) return undefinedBecause('the two annotators labelled no unit in common');
  // Each category's position on the scale the weights measure distance on.
  const rank = new Float64Array(k);
  let used = 0;
  for (let i = 0; i < k; i++) {
    rank[i] = ownCategories ? used : i;
    if (!ownCategories || rows[i]! > 0 || columns[i]! > 0) used++;
  }
  let observed = 0;
  let expected = 0;
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      const d = rank[i]! - rank[j]!;
      const w = weighting === 'unweighted' ? (i === j ? 0 : 1) : weighting === 'linear' ? Math.abs(d) : d ** 2;
      if (w === 0) continue;
      observed += w * matrix[i * k + j]!;
      expected += (w * rows[i]! * columns[j]!) / total;
    }
  }
  if (expected === 0) {
    return undefinedBecause('chance agreement is 1: both annotators gave every shared unit the same one category');
  }
  return defined(1 - observed / expected);
}

export function cohenKappa(
  patterns: UnitPatterns,
  a: number,
  b: number,
  weighting: KappaWeighting,
  counts: Float64Array = patterns.counts,
): StatisticValue {
  return kappaOfConfusion(
    confusionMatrix(patterns, a, b, counts),
    patterns.categories,
    weighting,
    patterns.pairCategories,
  );
}
