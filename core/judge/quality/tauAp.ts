// τ_ap, the AP rank correlation (Yilmaz, Aslam & Robertson, SIGIR 2008): like Kendall's τ but a swap near the top
// of the ranking costs more than one near the bottom. With the evaluated ranking's systems in order 1…N,
// τ_ap = 2/(N−1) · Σ_{i=2..N} C(i)/(i−1) − 1, C(i) the systems above position i that the true ranking also puts
// above the system at i. It is asymmetric: `tauAp(truth, estimate)` takes the first scoring as the truth (the
// people's) and walks the second's (the judge's); `symmetricTauAp` is the mean of both directions.
// Ties (the paper defines τ_ap for rankings without them): a pair of systems tied in either scoring counts half a
// correct pair, as neither order is right or wrong — so a judge that ties every system gets 0, not 1 (tied
// systems of the estimate are placed in their given order; which comes first changes only the weights).
import type { QualityValue } from './judgeQualityTypes.ts';

export function tauAp(truth: readonly number[], estimate: readonly number[]): QualityValue {
  if (truth.length !== estimate.length) {
    throw new RangeError(`τ_ap needs two scorings of the same systems (${truth.length} ≠ ${estimate.length})`);
  }
  const n = truth.length;
  if (n < 2) return { value: null, reason: `τ_ap needs at least two systems (there ${n === 1 ? 'is 1' : 'are 0'})` };
  // Higher score = better = earlier.
  const order = [...truth.keys()].sort((a, b) => estimate[b]! - estimate[a]! || a - b);
  let sum = 0;
  for (let i = 1; i < n; i++) {
    const at = order[i]!;
    let correct = 0;
    for (let j = 0; j < i; j++) {
      const above = order[j]!;
      if (estimate[above] === estimate[at] || truth[above] === truth[at]) correct += 0.5;
      else if (truth[above]! > truth[at]!) correct += 1;
    }
    sum += correct / i;
  }
  return { value: (2 / (n - 1)) * sum - 1 };
}

/** The mean of τ_ap in both directions (each scoring taken as the truth once). */
export function symmetricTauAp(a: readonly number[], b: readonly number[]): QualityValue {
  const one = tauAp(a, b);
  const other = tauAp(b, a);
  if (one.value === null || other.value === null) return one.value === null ? one : other;
  return { value: (one.value + other.value) / 2 };
}
