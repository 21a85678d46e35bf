// Fleiss' κ (Fleiss 1971) over the units labelled by every annotator (a fixed number of raters per unit):
// κ = (P̄ − P̄_e) / (1 − P̄_e), P_i = (Σ_j n_ij² − m) / (m (m − 1)), p_j = Σ_i n_ij / (N m), P̄_e = Σ_j p_j².
import type { UnitPatterns } from '../unitPatterns.ts';
import { defined, type StatisticValue, undefinedBecause } from './statisticValue.ts';

export interface FleissResult {
  kappa: StatisticValue;
  /** Units labelled by every annotator (the ones κ is computed over). */
  units: number;
}

export function fleissKappa(patterns: UnitPatterns, counts: Float64Array = patterns.counts): FleissResult {
  const { width: m, categories: k, tallies, labelled } = patterns;
  if (m < 2) return { kappa: undefinedBecause('it needs at least two annotators'), units: 0 };
  let units = 0;
  let agreement = 0;
  const shares = new Float64Array(k);
  for (let p = 0; p < counts.length; p++) {
    const w = counts[p]!;
    if (w === 0 || labelled[p] !== m) continue;
    units += w;
    let squares = 0;
    for (let c = 0; c < k; c++) {
      const n = tallies[p * k + c]!;
      squares += n * n;
      shares[c]! += w * n;
    }
    agreement += (w * (squares - m)) / (m * (m - 1));
  }
  if (units === 0) {
    return { kappa: undefinedBecause(`no unit was labelled by all ${m} annotators`), units: 0 };
  }
  let chance = 0;
  for (let c = 0; c < k; c++) chance += (shares[c]! / (units * m)) ** 2;
  if (chance === 1) {
    return { kappa: undefinedBecause('every label is the same category: chance agreement is 1'), units };
  }
  return { kappa: defined((agreement / units - chance) / (1 - chance)), units };
}
