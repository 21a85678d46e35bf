// Krippendorff's α (Krippendorff 2011, "Computing Krippendorff's Alpha-Reliability"): 1 − D_o / D_e from the
// coincidence matrix of the pairable values (units with at least two labels; missing labels allowed), with the
// difference function of the level of measurement:
//   nominal  δ² = 0 if c = k else 1
//   ordinal  δ² = (Σ_{g=c..k} n_g − (n_c + n_k) / 2)²   ranks by the ordered categories, n_g their marginals
//   interval δ² = (c − k)²                               the label values
//   ratio    δ² = ((c − k) / (c + k))²                   the label values, which must not be negative
import type { UnitPatterns } from '../unitPatterns.ts';
import { defined, type StatisticValue, undefinedBecause } from './statisticValue.ts';

export type AlphaLevel = 'nominal' | 'ordinal' | 'interval' | 'ratio';
export const alphaLevels: readonly AlphaLevel[] = ['nominal', 'ordinal', 'interval', 'ratio'];

/** The coincidence matrix (categories × categories) of the units weighted by `counts`. */
export function coincidences(patterns: UnitPatterns, counts: Float64Array = patterns.counts): Float64Array {
  const { categories: k, tallies, labelled } = patterns;
  const o = new Float64Array(k * k);
  for (let p = 0; p < counts.length; p++) {
    const w = counts[p]!;
    const m = labelled[p]!;
    if (w === 0 || m < 2) continue;
    const scale = w / (m - 1);
    const row = p * k;
    for (let c = 0; c < k; c++) {
      const nc = tallies[row + c]!;
      if (nc === 0) continue;
      for (let d = 0; d < k; d++) {
        const nd = tallies[row + d]!;
        if (nd === 0) continue;
        o[c * k + d]! += scale * (c === d ? nc * (nc - 1) : nc * nd);
      }
    }
  }
  return o;
}

/** δ² for every pair of categories. */
function differences(level: AlphaLevel, values: readonly number[], marginals: Float64Array): Float64Array {
  const k = values.length;
  const delta = new Float64Array(k * k);
  for (let c = 0; c < k; c++) {
    for (let d = 0; d < k; d++) {
      if (c === d) continue;
      let squared: number;
      if (level === 'nominal') squared = 1;
      else if (level === 'interval') squared = (values[c]! - values[d]!) ** 2;
      else if (level === 'ratio') {
        const sum = values[c]! + values[d]!;
        squared = sum === 0 ? 0 : ((values[c]! - values[d]!) / sum) ** 2;
      } else {
        const [low, high] = c < d ? [c, d] : [d, c];
        let between = 0;
        for (let g = low; g <= high; g++) between += marginals[g]!;
        squared = (between - (marginals[low]! + marginals[high]!) / 2) ** 2;
      }
      delta[c * k + d] = squared;
    }
  }
  return delta;
}

export function krippendorffAlpha(
  patterns: UnitPatterns,
  level: AlphaLevel,
  values: readonly number[],
  counts: Float64Array = patterns.counts,
): StatisticValue {
  if (level === 'ratio' && values.some((v) => v < 0)) {
    return undefinedBecause('the ratio level needs labels ≥ 0 (a ratio scale has a true zero)');
  }
  const k = values.length;
  const o = coincidences(patterns, counts);
  const marginals = new Float64Array(k);
  let n = 0;
  for (let c = 0; c < k; c++) {
    for (let d = 0; d < k; d++) marginals[c]! += o[c * k + d]!;
    n += marginals[c]!;
  }
  if (n === 0) return undefinedBecause('no unit has labels from two annotators');
  const delta = differences(level, values, marginals);
  let observed = 0;
  let expected = 0;
  for (let c = 0; c < k; c++) {
    for (let d = 0; d < k; d++) {
      observed += o[c * k + d]! * delta[c * k + d]!;
      expected += marginals[c]! * marginals[d]! * delta[c * k + d]!;
    }
  }
  if (expected === 0) {
    return undefinedBecause('every pairable label is the same category: no variation to disagree about');
  }
  return defined(1 - ((n - 1) * observed) / expected);
}
