// The agreement statistics a study can name (`agreement krippendorff ordinal target 0.67`) and the dashboard
// headlines. Adding one: a module in this folder and an entry here.
import type { UnitPatterns } from '../unitPatterns.ts';
import { cohenKappa, type KappaWeighting } from './cohenKappa.ts';
import { fleissKappa } from './fleissKappa.ts';
import { type AlphaLevel, krippendorffAlpha } from './krippendorffAlpha.ts';
import { percentAgreement } from './percentAgreement.ts';
import { defined, type StatisticValue, undefinedBecause } from './statisticValue.ts';

export type AgreementMetricId = 'krippendorff' | 'cohen' | 'fleiss' | 'percent';

export interface AgreementStatistic {
  id: AgreementMetricId;
  /** As a heading shows it, with the level: "Krippendorff's α (ordinal)". */
  title(level: string): string;
  /** Levels the DSL accepts, the default first. */
  levels: readonly string[];
  /** Over every annotator of the patterns, the units weighted by `counts`. */
  compute(patterns: UnitPatterns, level: string, values: readonly number[], counts?: Float64Array): StatisticValue;
}

/** The DSL's `agreement cohen nominal` is the unweighted κ. */
export function kappaWeighting(level: string): KappaWeighting {
  return level === 'linear' || level === 'quadratic' ? level : 'unweighted';
}

/**
 * Cohen's κ is defined for two annotators; over more, the mean of every pair's κ (Light's κ, 1971), over the pairs
 * whose κ is defined.
 */
function meanPairwiseKappa(patterns: UnitPatterns, weighting: KappaWeighting, counts?: Float64Array): StatisticValue {
  if (patterns.width < 2) return undefinedBecause('it needs at least two annotators');
  let sum = 0;
  let pairs = 0;
  let reason = '';
  for (let a = 0; a < patterns.width; a++) {
    for (let b = a + 1; b < patterns.width; b++) {
      const kappa = cohenKappa(patterns, a, b, weighting, counts);
      if (kappa.value === null) reason = kappa.reason;
      else {
        sum += kappa.value;
        pairs++;
      }
    }
  }
  return pairs === 0 ? undefinedBecause(`no pair of annotators has a defined κ (${reason})`) : defined(sum / pairs);
}

export const agreementStatistics: readonly AgreementStatistic[] = [
  {
    id: 'krippendorff',
    title: (level) => `Krippendorff's α (${level})`,
    levels: ['nominal', 'ordinal', 'interval', 'ratio'],
    compute: (patterns, level, values, counts) => krippendorffAlpha(patterns, level as AlphaLevel, values, counts),
  },
  {
    id: 'cohen',
    title: (level) => `Cohen's κ (${kappaWeighting(level)}; the mean over pairs of annotators)`,
    levels: ['nominal', 'linear', 'quadratic'],
    compute: (patterns, level, _values, counts) => meanPairwiseKappa(patterns, kappaWeighting(level), counts),
  },
  {
    id: 'fleiss',
    title: () => "Fleiss' κ",
    levels: ['nominal'],
    compute: (patterns, _level, _values, counts) => fleissKappa(patterns, counts).kappa,
  },
  {
    id: 'percent',
    title: () => 'Percent agreement',
    levels: ['nominal'],
    compute: (patterns, _level, _values, counts) => percentAgreement(patterns, counts),
  },
];

export function agreementStatistic(id: string): AgreementStatistic {
  const found = agreementStatistics.find((s) => s.id === id);
  if (!found) throw new Error(`unknown agreement statistic '${id}'`);
  return found;
}
