// Kendall's τ between two scorings of the same systems, as τ_b (Kendall 1945; scipy.stats.kendalltau's default):
// (concordant − discordant) / √((n₀ − n₁)(n₀ − n₂)), n₀ = n(n−1)/2 and n₁, n₂ the pairs tied in the first and in
// the second scoring. Without ties it is τ_a. A pair tied in either scoring is neither concordant nor discordant.
// Undefined for fewer than two systems or when either scoring ties every system (nothing to order).
import type { QualityValue } from './judgeQualityTypes.ts';

export function kendallTau(x: readonly number[], y: readonly number[]): QualityValue {
  if (x.length !== y.length)
    throw new RangeError(`τ needs two scorings of the same systems (${x.length} ≠ ${y.length})`);
  const n = x.length;
  if (n < 2) return { value: null, reason: `τ needs at least two systems (there ${n === 1 ? 'is 1' : 'are 0'})` };
  let score = 0;
  let tiedX = 0;
  let tiedY = 0;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const dx = Math.sign(x[i]! - x[j]!);
      const dy = Math.sign(y[i]! - y[j]!);
      if (dx === 0) tiedX++;
      if (dy === 0) tiedY++;
      score += dx * dy;
    }
  }
  const pairs = (n * (n - 1)) / 2;
  const denominator = Math.sqrt((pairs - tiedX) * (pairs - tiedY));
  if (denominator === 0) return { value: null, reason: 'one of the rankings ties every system' };
  return { value: score / denominator };
}
