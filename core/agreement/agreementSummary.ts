// Every agreement statistic of a set of labels at once: what `qrels-studio agree --json` prints and the Agreement
// view headlines. Percent agreement, Krippendorff's α and Fleiss' κ are over the human annotators (inter-annotator
// agreement is about people; LLM judges are compared with them pair by pair) unless `includeLlm` says otherwise, or
// there are no humans at all; Cohen's κ is given for every pair of annotators, judges included, each pair marked
// human-human, human-llm or llm-llm. Keys are snake_case because they are a published output format.
import {
  type BootstrapInterval,
  bootstrapInterval,
  defaultBootstrap,
  resampleUnits,
  seededRandom,
  undefinedResamplesNote,
} from './bootstrap.ts';
import {
  type AgreementAnnotator,
  binarise,
  peopleScope,
  type ReliabilityData,
  selectUnits,
} from './reliabilityData.ts';
import { cohenKappa, type KappaWeighting, kappaWeightings } from './statistics/cohenKappa.ts';
import { fleissKappa } from './statistics/fleissKappa.ts';
import { type AlphaLevel, alphaLevels, krippendorffAlpha } from './statistics/krippendorffAlpha.ts';
import { percentAgreement } from './statistics/percentAgreement.ts';
import type { StatisticValue } from './statistics/statisticValue.ts';
import { type UnitPatterns, unitPatterns } from './unitPatterns.ts';

export interface AgreementOptions {
  /** Also every statistic on labels binarised at this threshold (relevant = label ≥ threshold). */
  threshold?: number;
  /** Bootstrap samples for confidence intervals (0 or absent: none). */
  bootstrap?: number;
  /** Seed of the bootstrap (default 1). */
  seed?: number;
  /** Confidence level of the intervals (default 0.95). */
  confidence?: number;
  /** Count LLM judges in percent agreement, α and Fleiss' κ too. */
  includeLlm?: boolean;
  /** Also every statistic per query (`per_query`). */
  perQuery?: boolean;
}

export type PairKind = 'human-human' | 'human-llm' | 'llm-llm';
export type Interval = [number, number];

export interface CohenPair {
  a: string;
  b: string;
  kind: PairKind;
  /** Units both labelled. */
  n: number;
  unweighted: number | null;
  linear: number | null;
  quadratic: number | null;
  percent_agreement: number | null;
}

export interface AgreementIntervals {
  level: number;
  samples: number;
  seed: number;
  percent_agreement: Interval | null;
  krippendorff: Record<AlphaLevel, Interval | null>;
  fleiss: Interval | null;
  cohen: { a: string; b: string; unweighted: Interval | null; linear: Interval | null; quadratic: Interval | null }[];
}

export interface AgreementStatistics {
  n_units: number;
  n_annotators: number;
  percent_agreement: number | null;
  krippendorff: Record<AlphaLevel, number | null>;
  fleiss: { kappa: number | null; n_units: number };
  cohen: CohenPair[];
  /** The mean κ of the pairs of each kind (pairs whose κ is defined). */
  cohen_mean: Partial<Record<PairKind, { pairs: number } & Record<KappaWeighting, number | null>>>;
  /** Why each null is null, and what was counted how. */
  notes: string[];
  ci?: AgreementIntervals;
}

export interface AgreementSummary extends AgreementStatistics {
  /** The annotators percent agreement, α and Fleiss' κ are over. */
  annotators: string[];
  /** Every annotator in the labels, with their kind. */
  all_annotators: AgreementAnnotator[];
  /** The ordered categories (weighted κ weighs by index in this list). */
  values: number[];
  threshold?: number;
  binary?: AgreementStatistics;
  /** With `perQuery`: the same statistics over each query's units (no intervals), in the order queries first appear. */
  per_query?: (AgreementStatistics & { query_id: string })[];
}

function pairKind(a: AgreementAnnotator, b: AgreementAnnotator): PairKind {
  if (a.kind === 'human' && b.kind === 'human') return 'human-human';
  return a.kind === 'llm' && b.kind === 'llm' ? 'llm-llm' : 'human-llm';
}

/** Annotator columns in pairs (a, b) with a's name before b's. */
function annotatorPairs(annotators: readonly AgreementAnnotator[]): [number, number][] {
  const order = annotators.map((_, i) => i).sort((i, j) => compareNames(annotators[i]!.name, annotators[j]!.name));
  const pairs: [number, number][] = [];
  for (let x = 0; x < order.length; x++) for (let y = x + 1; y < order.length; y++) pairs.push([order[x]!, order[y]!]);
  return pairs;
}

function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The two-annotator percent agreement of a confusion-free pair: the share of shared units with equal labels. */
function pairPercent(patterns: UnitPatterns, a: number, b: number, counts: Float64Array): StatisticValue {
  let shared = 0;
  let equal = 0;
  for (let p = 0; p < counts.length; p++) {
    const ca = patterns.cells[p * patterns.width + a]!;
    const cb = patterns.cells[p * patterns.width + b]!;
    if (ca < 0 || cb < 0) continue;
    shared += counts[p]!;
    if (ca === cb) equal += counts[p]!;
  }
  return shared === 0 ? { value: null, reason: 'no shared unit' } : { value: equal / shared };
}

function sharedUnits(patterns: UnitPatterns, a: number, b: number): number {
  let n = 0;
  for (let p = 0; p < patterns.counts.length; p++) {
    if (patterns.cells[p * patterns.width + a]! >= 0 && patterns.cells[p * patterns.width + b]! >= 0) {
      n += patterns.counts[p]!;
    }
  }
  return n;
}

/** A pair's κ is computed over the people's units when both are people (so a judge cannot move it), else over all. */
interface PairPlan {
  over: 'scoped' | 'everyone';
  /** Columns in the patterns it is computed over. */
  a: number;
  b: number;
}

interface Computed {
  percent: StatisticValue;
  alpha: Record<AlphaLevel, StatisticValue>;
  fleiss: StatisticValue;
  kappas: Record<KappaWeighting, StatisticValue>[];
}

/** Every statistic for one set of pattern counts (the data's own, or a bootstrap sample's). */
function computeAll(
  scoped: UnitPatterns,
  everyone: UnitPatterns,
  plans: readonly PairPlan[],
  values: readonly number[],
  scopedCounts: Float64Array,
  everyoneCounts: Float64Array,
): Computed {
  const alpha = {} as Record<AlphaLevel, StatisticValue>;
  for (const level of alphaLevels) alpha[level] = krippendorffAlpha(scoped, level, values, scopedCounts);
  return {
    percent: percentAgreement(scoped, scopedCounts),
    alpha,
    fleiss: fleissKappa(scoped, scopedCounts).kappa,
    kappas: plans.map(({ over, a, b }) => {
      const [patterns, counts] = over === 'scoped' ? [scoped, scopedCounts] : [everyone, everyoneCounts];
      const k = {} as Record<KappaWeighting, StatisticValue>;
      for (const w of kappaWeightings) k[w] = cohenKappa(patterns, a, b, w, counts);
      return k;
    }),
  };
}

function statistics(data: ReliabilityData, options: AgreementOptions, notes: string[]): AgreementStatistics {
  // The people's statistics see only the people's labels and units (peopleScope), so an LLM judge's labels on
  // units no person labelled cannot move them or their intervals.
  const scopedData = peopleScope(data, options.includeLlm);
  const everyone = unitPatterns(data);
  const scoped = unitPatterns(scopedData);
  const pairs = annotatorPairs(data.annotators);
  const columnInScope = data.annotators.map((a) => scopedData.annotators.indexOf(a));
  const plans: PairPlan[] = pairs.map(([a, b]) => {
    const sa = columnInScope[a]!;
    const sb = columnInScope[b]!;
    return sa >= 0 && sb >= 0 ? { over: 'scoped', a: sa, b: sb } : { over: 'everyone', a, b };
  });
  const computed = computeAll(scoped, everyone, plans, data.values, scoped.counts, everyone.counts);
  const note = (what: string, value: StatisticValue): number | null => {
    if (value.value === null) notes.push(`${what} is undefined: ${value.reason}`);
    return value.value;
  };
  const krippendorff = {} as Record<AlphaLevel, number | null>;
  for (const level of alphaLevels) krippendorff[level] = note(`krippendorff.${level}`, computed.alpha[level]);
  const cohen: CohenPair[] = pairs.map(([a, b], i) => {
    const name = `cohen ${data.annotators[a]!.name}–${data.annotators[b]!.name}`;
    const kappa = computed.kappas[i]!;
    // One note per pair when the three weightings are undefined for the same reason (no shared unit, one category).
    const unweighted = note(name, kappa.unweighted);
    const weighted = (w: 'linear' | 'quadratic') =>
      unweighted === null ? kappa[w].value : note(`${name} (${w})`, kappa[w]);
    return {
      a: data.annotators[a]!.name,
      b: data.annotators[b]!.name,
      kind: pairKind(data.annotators[a]!, data.annotators[b]!),
      n: sharedUnits(everyone, a, b),
      unweighted,
      linear: weighted('linear'),
      quadratic: weighted('quadratic'),
      percent_agreement: pairPercent(everyone, a, b, everyone.counts).value,
    };
  });
  const cohenMean: AgreementStatistics['cohen_mean'] = {};
  for (const kind of ['human-human', 'human-llm', 'llm-llm'] as const) {
    const ofKind = cohen.filter((pair) => pair.kind === kind);
    if (ofKind.length === 0) continue;
    const mean = (w: KappaWeighting): number | null => {
      const defined = ofKind.map((pair) => pair[w]).filter((v): v is number => v !== null);
      return defined.length === 0 ? null : defined.reduce((s, v) => s + v, 0) / defined.length;
    };
    cohenMean[kind] = {
      pairs: ofKind.length,
      unweighted: mean('unweighted'),
      linear: mean('linear'),
      quadratic: mean('quadratic'),
    };
  }
  const result: AgreementStatistics = {
    n_units: scopedData.qids.length,
    n_annotators: scopedData.annotators.length,
    percent_agreement: note('percent_agreement', computed.percent),
    krippendorff,
    fleiss: { kappa: note('fleiss.kappa', computed.fleiss), n_units: fleissKappa(scoped).units },
    cohen,
    cohen_mean: cohenMean,
    notes,
  };
  const samples = options.bootstrap ?? 0;
  if (samples > 0) {
    const { ci, drawn } = intervals(scoped, everyone, plans, pairs, data, samples, options);
    result.ci = ci;
    const explain = (what: string, value: number | null, interval: BootstrapInterval) => {
      if (value === null) return;
      if (interval.interval === null) {
        notes.push(`${what} has no bootstrap interval: fewer than half of the ${samples} resamples of units define it`);
      } else {
        const left = undefinedResamplesNote(what, interval);
        if (left !== '') notes.push(left);
      }
    };
    explain('percent_agreement', result.percent_agreement, drawn.percent);
    for (const level of alphaLevels) explain(`krippendorff.${level}`, krippendorff[level], drawn.alpha[level]);
    explain('fleiss.kappa', result.fleiss.kappa, drawn.fleiss);
    drawn.cohen.forEach((pair, i) => {
      const { a, b } = ci.cohen[i]!;
      for (const w of kappaWeightings) explain(`cohen ${a}–${b} (${w})`, cohen[i]![w], pair[w]);
    });
  }
  return result;
}

interface DrawnIntervals {
  percent: BootstrapInterval;
  alpha: Record<AlphaLevel, BootstrapInterval>;
  fleiss: BootstrapInterval;
  cohen: Record<KappaWeighting, BootstrapInterval>[];
}

/**
 * Bootstrap intervals. The people's statistics (and the κ of two people) resample the people's units; a pair with
 * a judge in it resamples every unit, from a generator of its own with the same seed, so adding a judge changes no
 * draw of the people's units.
 */
function intervals(
  scoped: UnitPatterns,
  everyone: UnitPatterns,
  plans: readonly PairPlan[],
  pairs: readonly [number, number][],
  data: ReliabilityData,
  samples: number,
  options: AgreementOptions,
): { ci: AgreementIntervals; drawn: DrawnIntervals } {
  const seed = options.seed ?? defaultBootstrap.seed;
  const level = options.confidence ?? defaultBootstrap.level;
  const scopedRandom = seededRandom(seed);
  const everyoneRandom = seededRandom(seed);
  const drawEveryone = plans.some((plan) => plan.over === 'everyone');
  const scopedCounts = new Float64Array(scoped.counts.length);
  const everyoneCounts = new Float64Array(everyone.counts.length);
  const drawn: Computed[] = [];
  for (let s = 0; s < samples; s++) {
    resampleUnits(scoped, scopedRandom, scopedCounts);
    if (drawEveryone) resampleUnits(everyone, everyoneRandom, everyoneCounts);
    drawn.push(computeAll(scoped, everyone, plans, data.values, scopedCounts, everyoneCounts));
  }
  const interval = (pick: (c: Computed) => StatisticValue) =>
    bootstrapInterval(
      drawn.map((c) => pick(c).value),
      level,
    );
  const alpha = {} as Record<AlphaLevel, BootstrapInterval>;
  for (const alphaLevel of alphaLevels) alpha[alphaLevel] = interval((c) => c.alpha[alphaLevel]);
  const result: DrawnIntervals = {
    percent: interval((c) => c.percent),
    alpha,
    fleiss: interval((c) => c.fleiss),
    cohen: plans.map((_, i) => ({
      unweighted: interval((c) => c.kappas[i]!.unweighted),
      linear: interval((c) => c.kappas[i]!.linear),
      quadratic: interval((c) => c.kappas[i]!.quadratic),
    })),
  };
  const krippendorff = {} as Record<AlphaLevel, Interval | null>;
  for (const alphaLevel of alphaLevels) krippendorff[alphaLevel] = alpha[alphaLevel].interval;
  return {
    ci: {
      level,
      samples,
      seed,
      percent_agreement: result.percent.interval,
      krippendorff,
      fleiss: result.fleiss.interval,
      cohen: pairs.map(([a, b], i) => ({
        a: data.annotators[a]!.name,
        b: data.annotators[b]!.name,
        unweighted: result.cohen[i]!.unweighted.interval,
        linear: result.cohen[i]!.linear.interval,
        quadratic: result.cohen[i]!.quadratic.interval,
      })),
    },
    drawn: result,
  };
}

/** Every statistic of `data`; with a threshold, the same again on the binarised labels under `binary`. */
export function summariseAgreement(data: ReliabilityData, options: AgreementOptions = {}): AgreementSummary {
  const notes: string[] = [];
  const humans = data.annotators.filter((a) => a.kind === 'human');
  const judges = data.annotators.filter((a) => a.kind === 'llm');
  const scope = options.includeLlm || humans.length === 0 ? data.annotators : humans;
  if (judges.length > 0 && humans.length > 0 && !options.includeLlm) {
    notes.push(
      `percent agreement, α and Fleiss' κ are over the ${humans.length} human annotator(s); the LLM judge(s) ` +
        `${judges.map((j) => j.name).join(', ')} appear in the pairwise Cohen's κ (human-llm)`,
    );
  }
  if (data.offScale.length > 0) {
    notes.push(`labels not on the study's scale: ${data.offScale.join(', ')} (counted as categories of their own)`);
  }
  if (scope.length < 2) notes.push(`${scope.length} annotator(s): agreement needs at least two`);
  const summary: AgreementSummary = {
    ...statistics(data, options, notes),
    annotators: scope.map((a) => a.name),
    all_annotators: data.annotators,
    values: data.values,
  };
  if (options.threshold !== undefined) {
    summary.threshold = options.threshold;
    summary.binary = statistics(binarise(data, options.threshold), options, []);
  }
  if (options.perQuery) {
    const units = new Map<string, number[]>();
    data.qids.forEach((qid, u) => {
      const list = units.get(qid);
      if (list) list.push(u);
      else units.set(qid, [u]);
    });
    summary.per_query = [...units].map(([qid, list]) => ({
      query_id: qid,
      ...statistics(selectUnits(data, list), { ...options, bootstrap: 0 }, []),
    }));
  }
  return summary;
}
