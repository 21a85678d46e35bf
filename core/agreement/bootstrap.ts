// Bootstrap over units: a sample draws as many units as there are, with replacement, from a seeded generator, so
// the same seed gives the same interval on any machine. The interval is the percentile one (the (1 − level) / 2
// and (1 + level) / 2 quantiles of the samples, interpolated linearly between order statistics — R's type 7).
/** mulberry32: a small, fast, well-mixed 32-bit generator; returns numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The quantile `q` of sorted `values` (type 7). */
export function quantile(sorted: readonly number[], q: number): number {
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  const high = Math.ceil(at);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (at - low);
}

/**
 * The percentile interval of the samples; null when fewer than half the samples had a defined value (a statistic
 * undefined on most resamples has no meaningful interval).
 */
export function percentileInterval(samples: readonly (number | null)[], level: number): [number, number] | null {
  const defined = samples.filter((s): s is number => s !== null).sort((a, b) => a - b);
  if (defined.length === 0 || defined.length * 2 < samples.length) return null;
  return [quantile(defined, (1 - level) / 2), quantile(defined, (1 + level) / 2)];
}
