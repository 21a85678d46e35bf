// Whether a statistic meets the target a study or review names (`agreement krippendorff ordinal target 0.67`): met
// only when the lower bound of its bootstrap interval reaches the target, so four units with α 0.708 and the
// interval [−0.50, 1.00] are "not yet", not a success. The one verdict and its one wording for the `agree` command,
// the Agreement view and the Review summary (in the CLI and the Review view); each surface formats the numbers.
import {
  type BootstrapInterval,
  bootstrapInterval,
  defaultBootstrap,
  resampleUnits,
  seededRandom,
  undefinedResamplesNote,
} from './bootstrap.ts';
import { peopleScope, type ReliabilityData } from './reliabilityData.ts';
import { type AgreementMetricId, agreementStatistic } from './statistics/registry.ts';
import type { StatisticValue } from './statistics/statisticValue.ts';
import { type UnitPatterns, unitPatterns } from './unitPatterns.ts';

export interface BootstrapSettings {
  /** Resamples of the units (0: no interval). */
  samples: number;
  seed: number;
  /** Confidence level of the interval. */
  level: number;
}

/** A statistic over the people's units, with its bootstrap interval. */
export interface ScopedStatistic {
  value: StatisticValue;
  /** Null without resamples or without a value. */
  bootstrap: BootstrapInterval | null;
  /** Units with labels from two or more of the annotators counted (the units the statistic can learn from). */
  units: number;
  level: number;
}

export interface TargetVerdict {
  target: number;
  /** met: the interval's lower bound is at or above the target; not-yet: it is below or there is no interval;
   *  unknown: the statistic is undefined. */
  state: 'met' | 'not-yet' | 'unknown';
  units: number;
  interval: [number, number] | null;
  level: number;
  /** Why there is no interval (not-yet) or no value (unknown). */
  reason?: string;
}

/** Units of `patterns` with two labels or more. */
export function pairableUnits(patterns: UnitPatterns): number {
  let n = 0;
  for (let p = 0; p < patterns.counts.length; p++) if (patterns.labelled[p]! >= 2) n += patterns.counts[p]!;
  return n;
}

/** `metric` at `level` over every annotator of `patterns` (the people's: peopleScope), with its interval. */
export function scopedStatistic(
  patterns: UnitPatterns,
  metric: AgreementMetricId,
  level: string,
  values: readonly number[],
  bootstrap: BootstrapSettings,
): ScopedStatistic {
  const statistic = agreementStatistic(metric);
  const value = statistic.compute(patterns, level, values);
  let interval: BootstrapInterval | null = null;
  if (bootstrap.samples > 0 && value.value !== null) {
    const random = seededRandom(bootstrap.seed);
    const counts = new Float64Array(patterns.counts.length);
    const drawn: (number | null)[] = [];
    for (let s = 0; s < bootstrap.samples; s++) {
      drawn.push(statistic.compute(patterns, level, values, resampleUnits(patterns, random, counts)).value);
    }
    interval = bootstrapInterval(drawn, bootstrap.level);
  }
  return { value, bootstrap: interval, units: pairableUnits(patterns), level: bootstrap.level };
}

/** The verdict on `target` of a statistic computed by scopedStatistic. */
export function targetVerdict(statistic: ScopedStatistic, target: number): TargetVerdict {
  const base = { target, units: statistic.units, level: statistic.level };
  if (statistic.value.value === null) {
    return {
      ...base,
      state: 'unknown',
      interval: null,
      reason: `undefined because ${statistic.value.reason}`,
    };
  }
  const interval = statistic.bootstrap?.interval ?? null;
  if (interval === null) {
    const reason =
      statistic.bootstrap === null ? 'no bootstrap resamples' : 'fewer than half of the bootstrap resamples define it';
    return { ...base, state: 'not-yet', interval, reason };
  }
  return { ...base, state: interval[0] >= target ? 'met' : 'not-yet', interval };
}

/**
 * The verdict as every surface words it, numbers through `format`: "target 0.67: met (n = 40, 95 % interval
 * [0.70, 0.85])", "target 0.67: not yet (n = 4, 95 % interval [−0.50, 1.00])", "target 0.67: not known (…)".
 */
export function targetVerdictText(verdict: TargetVerdict, format: (value: number) => string): string {
  const head = `target ${format(verdict.target)}: `;
  if (verdict.state === 'unknown') return `${head}not known (${verdict.reason})`;
  const where = verdict.interval
    ? `${Math.round(verdict.level * 100)} % interval [${format(verdict.interval[0])}, ${format(verdict.interval[1])}]`
    : `no interval: ${verdict.reason}`;
  return `${head}${verdict.state === 'met' ? 'met' : 'not yet'} (n = ${verdict.units}, ${where})`;
}

/** A statistic a study or review names, with its target. */
export interface DeclaredTarget {
  metric: AgreementMetricId;
  level: string;
  target: number;
}

export interface TargetResult extends DeclaredTarget {
  title: string;
  value: number | null;
  verdict: TargetVerdict;
  /** Resamples left out of the interval because the statistic was undefined on them, when any were. */
  note?: string;
}

/**
 * The declared target judged on `data`: the statistic over the people (peopleScope: judges left out unless
 * `includeLlm`), its interval from `bootstrap` (default 1,000 resamples, seed 1, 95 %).
 */
export function judgeTarget(
  data: ReliabilityData,
  declared: DeclaredTarget,
  options: { includeLlm?: boolean; bootstrap?: Partial<BootstrapSettings> } = {},
): TargetResult {
  const scoped = peopleScope(data, options.includeLlm);
  const settings = { ...defaultBootstrap, ...options.bootstrap };
  const statistic = scopedStatistic(unitPatterns(scoped), declared.metric, declared.level, data.values, settings);
  const title = agreementStatistic(declared.metric).title(declared.level);
  const note = statistic.bootstrap ? undefinedResamplesNote(title, statistic.bootstrap) : '';
  return {
    ...declared,
    title,
    value: statistic.value.value,
    verdict: targetVerdict(statistic, declared.target),
    ...(note !== '' && { note }),
  };
}
