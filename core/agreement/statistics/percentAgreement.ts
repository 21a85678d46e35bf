// Percent agreement: the share of equal pairs among all pairs of labels given to the same unit, over the units
// with at least two labels (each unit weighs by its number of label pairs).
import type { UnitPatterns } from '../unitPatterns.ts';
import { defined, type StatisticValue, undefinedBecause } from './statisticValue.ts';

export function percentAgreement(patterns: UnitPatterns, counts: Float64Array = patterns.counts): StatisticValue {
  const { categories, tallies, labelled } = patterns;
  let pairs = 0;
  let equal = 0;
  for (let p = 0; p < counts.length; p++) {
    const w = counts[p]!;
    const m = labelled[p]!;
    if (w === 0 || m < 2) continue;
    pairs += (w * m * (m - 1)) / 2;
    for (let c = 0; c < categories; c++) {
      const n = tallies[p * categories + c]!;
      equal += (w * n * (n - 1)) / 2;
    }
  }
  if (pairs === 0) return undefinedBecause('no unit has labels from two annotators');
  return defined(equal / pairs);
}
