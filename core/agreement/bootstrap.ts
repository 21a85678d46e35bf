// Bootstrap over units: a sample draws as many units as there are, with replacement, from a seeded generator, so
// the same seed gives the same interval on any machine (seed 1 unless one is given). The interval is the
// percentile one (the (1 − level) / 2 and (1 + level) / 2 quantiles of the samples, interpolated linearly between
// order statistics — R's type 7). A resample on which the statistic is undefined (every label the same category,
// say) has no value to rank: the interval is over the resamples that define it, which leans away from what those
// resamples would have said, so every caller reports how many were left out (BootstrapInterval.undefined).
import type { UnitPatterns } from './unitPatterns.ts';

/** Bootstrap samples, seed and level when none are given. */
export const defaultBootstrap = { samples: 1000, seed: 1, level: 0.95 } as const;
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

/** One resample of the units of `patterns`: how many times each pattern was drawn, written into `counts`. */
export function resampleUnits(patterns: UnitPatterns, random: () => number, counts: Float64Array): Float64Array {
  counts.fill(0);
  const units = patterns.unitPattern.length;
  for (let i = 0; i < units; i++) counts[patterns.unitPattern[Math.floor(random() * units)]!]!++;
  return counts;
}

export interface BootstrapInterval {
  /** Null when fewer than half the resamples define the statistic. */
  interval: [number, number] | null;
  samples: number;
  /** Resamples on which the statistic was undefined (left out of the interval). */
  undefined: number;
}

/** The percentile interval of the samples, with how many were undefined. */
export function bootstrapInterval(samples: readonly (number | null)[], level: number): BootstrapInterval {
  const undefinedCount = samples.filter((s) => s === null).length;
  return { interval: percentileInterval(samples, level), samples: samples.length, undefined: undefinedCount };
}

/** What a note says about resamples left out: "" when none were. */
export function undefinedResamplesNote(what: string, result: BootstrapInterval): string {
  if (result.undefined === 0 || result.interval === null) return '';
  return (
    `${what}: ${result.undefined} of ${result.samples} bootstrap resamples left it undefined and are not in its ` +
    `interval (the interval is over the ${result.samples - result.undefined} that define it)`
  );
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
