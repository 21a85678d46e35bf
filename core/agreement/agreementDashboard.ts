// What the Agreement view shows for a study: the headline statistics the study names (`agreement krippendorff
// ordinal target 0.67`) with bootstrap intervals and their targets, every pair of annotators (humans and LLM
// judges), a confusion matrix for any two of them, the queries sorted by disagreement, and the trend as labels came
// in; and which pairs an adjudication queue holds when a cell or a row is clicked. Plain data (the webview protocol
// carries it, typed in agreementTypes.ts); no `vscode`. The labels come from the store (AgreementPort); the extension
// host computes this in the store's worker (core/worker/workerJobs.ts), the CLI and tests in process.
import type { StudyModel } from '../dsl/model.ts';
import type { StudyStore } from '../store/studyStore.ts';
import { summariseAgreement } from './agreementSummary.ts';
import { scopedStatistic, targetVerdict } from './agreementTarget.ts';
import type {
  AdjudicationSelection,
  AgreementDashboard,
  AgreementHeadline,
  AnnotatorPairAgreement,
  ConfusionView,
  DashboardOptions,
  QueryAgreement,
  TrendPoint,
} from './agreementTypes.ts';
import {
  binarise,
  labelsUpTo,
  peopleScope,
  type ReliabilityData,
  selectAnnotators,
  selectUnits,
} from './reliabilityData.ts';
import { cohenKappa, confusionMatrix } from './statistics/cohenKappa.ts';
import { type AlphaLevel, krippendorffAlpha } from './statistics/krippendorffAlpha.ts';
import { percentAgreement } from './statistics/percentAgreement.ts';
import { type AgreementMetricId, agreementStatistic, kappaWeighting } from './statistics/registry.ts';
import { readStudyLabels } from './studyLabels.ts';
import { type UnitPatterns, unitPatterns } from './unitPatterns.ts';

export type {
  AdjudicationSelection,
  AgreementDashboard,
  AgreementHeadline,
  AnnotatorPairAgreement,
  ConfusionView,
  DashboardOptions,
  QueryAgreement,
  TrendPoint,
} from './agreementTypes.ts';

/** The statistics the study names, else Krippendorff's α at the scale's level. */
function headlineSpecs(study: StudyModel): { metric: AgreementMetricId; level: string; target?: number }[] {
  if (study.agreement.length > 0) {
    return study.agreement.map((a) => ({
      metric: a.metric,
      level: a.level ?? agreementStatistic(a.metric).levels[0]!,
      ...(a.target !== undefined && { target: a.target }),
    }));
  }
  return [{ metric: 'krippendorff', level: study.scale?.kind === 'ordinal' ? 'ordinal' : 'nominal' }];
}

function humansOf(data: ReliabilityData): ReliabilityData {
  const humans = data.annotators.some((a) => a.kind === 'human');
  return humans ? selectAnnotators(data, (a) => a.kind === 'human') : data;
}

/** Units of `patterns` whose labels are not all the same (at least two labels, two distinct). */
function disagreeingPattern(patterns: UnitPatterns, p: number): boolean {
  let distinct = 0;
  for (let c = 0; c < patterns.categories; c++) if (patterns.tallies[p * patterns.categories + c]! > 0) distinct++;
  return distinct >= 2;
}

function headline(
  spec: { metric: AgreementMetricId; level: string; target?: number },
  people: UnitPatterns,
  values: readonly number[],
  samples: number,
  seed: number,
): AgreementHeadline {
  const statistic = scopedStatistic(people, spec.metric, spec.level, values, { samples, seed, level: 0.95 });
  const value = statistic.value;
  return {
    metric: spec.metric,
    level: spec.level,
    title: agreementStatistic(spec.metric).title(spec.level),
    value: value.value,
    ...(value.value === null && { reason: value.reason }),
    interval: statistic.bootstrap?.interval ?? null,
    ...(spec.target !== undefined && { target: spec.target, verdict: targetVerdict(statistic, spec.target) }),
  };
}

/** The Agreement view's data for `study` (already synced into `store`). */
export async function agreementDashboard(
  store: StudyStore,
  studyId: number,
  study: StudyModel,
  options: DashboardOptions = {},
): Promise<AgreementDashboard> {
  const scale = study.scale?.entries.map((e) => e.value);
  const [labels, adjudicated] = await Promise.all([
    readStudyLabels(store, studyId, scale),
    store.agreement.adjudicatedPairCount(studyId),
  ]);
  let data = labels.data;
  if (options.threshold !== undefined) data = binarise(data, options.threshold);
  const specs = headlineSpecs(study);
  const alphaSpec = specs.find((s) => s.metric === 'krippendorff');
  const alphaLevel = (alphaSpec?.level ?? 'nominal') as AlphaLevel;
  const cohenSpec = specs.find((s) => s.metric === 'cohen' && s.level !== 'nominal');
  const weighting = cohenSpec ? (kappaWeighting(cohenSpec.level) as 'linear' | 'quadratic') : 'quadratic';
  const humans = humansOf(data);
  const humanPatterns = unitPatterns(humans);
  const everyone = unitPatterns(data);
  const samples = options.bootstrap ?? 1000;
  const seed = options.seed ?? 1;
  // The headlines are over the people's units only (an LLM judge's labels move neither value nor interval).
  const people = unitPatterns(peopleScope(data));
  const headlines = specs.map((spec) => headline(spec, people, data.values, samples, seed));

  const labelsBy = new Int32Array(data.annotators.length);
  for (let i = 0; i < data.cells.length; i++) if (data.cells[i]! >= 0) labelsBy[i % data.annotators.length]!++;

  const summary = summariseAgreement(data, {});
  const pairs: AnnotatorPairAgreement[] = summary.cohen.map((pair) => {
    const a = data.annotators.findIndex((x) => x.name === pair.a);
    const b = data.annotators.findIndex((x) => x.name === pair.b);
    const confusion = confusionMatrix(everyone, a, b);
    let disagreements = 0;
    const k = data.values.length;
    for (let i = 0; i < k; i++) for (let j = 0; j < k; j++) if (i !== j) disagreements += confusion[i * k + j]!;
    const two = unitPatterns(selectAnnotators(data, (x) => x.name === pair.a || x.name === pair.b));
    const weighted = cohenKappa(everyone, a, b, weighting);
    const alpha = krippendorffAlpha(two, alphaLevel, data.values);
    const reasons: NonNullable<AnnotatorPairAgreement['reasons']> = {};
    if (pair.unweighted === null) reasons.kappa = cohenKappa(everyone, a, b, 'unweighted').reason;
    if (weighted.value === null) reasons.weightedKappa = weighted.reason;
    if (alpha.value === null) reasons.alpha = alpha.reason;
    if (pair.percent_agreement === null) reasons.percent = 'the two annotators labelled no unit in common';
    return {
      a: pair.a,
      b: pair.b,
      kind: pair.kind,
      shared: pair.n,
      disagreements,
      kappa: pair.unweighted,
      weightedKappa: weighted.value,
      alpha: alpha.value,
      percent: pair.percent_agreement,
      ...(Object.keys(reasons).length > 0 && { reasons }),
    };
  });

  // Queries, by their units' human labels.
  const unitsOfQuery = new Map<string, number[]>();
  data.qids.forEach((qid, u) => {
    const units = unitsOfQuery.get(qid);
    if (units) units.push(u);
    else unitsOfQuery.set(qid, [u]);
  });
  const queries: QueryAgreement[] = [];
  for (const [qid, units] of unitsOfQuery) {
    const patterns = unitPatterns(selectUnits(humans, units));
    let pairable = 0;
    let disagreements = 0;
    for (let p = 0; p < patterns.counts.length; p++) {
      if (patterns.labelled[p]! < 2) continue;
      pairable += patterns.counts[p]!;
      if (disagreeingPattern(patterns, p)) disagreements += patterns.counts[p]!;
    }
    const percent = percentAgreement(patterns);
    const alpha = krippendorffAlpha(patterns, alphaLevel, data.values);
    const reasons: NonNullable<QueryAgreement['reasons']> = {};
    if (percent.value === null) reasons.percent = percent.reason;
    if (alpha.value === null) reasons.alpha = alpha.reason;
    queries.push({
      qid,
      units: pairable,
      disagreements,
      percent: percent.value,
      alpha: alpha.value,
      ...(Object.keys(reasons).length > 0 && { reasons }),
    });
  }
  queries.sort(
    (x, y) => y.disagreements - x.disagreements || (x.percent ?? 2) - (y.percent ?? 2) || compare(x.qid, y.qid),
  );

  let disagreements = 0;
  for (let p = 0; p < humanPatterns.counts.length; p++) {
    if (humanPatterns.labelled[p]! >= 2 && disagreeingPattern(humanPatterns, p))
      disagreements += humanPatterns.counts[p]!;
  }
  const first = specs[0]!;
  return {
    study: study.name,
    annotators: data.annotators.map((a, i) => ({ ...a, labels: labelsBy[i]! })),
    values: data.values,
    // Binarised, 0 and 1 are "below" and "at or above" the threshold, not the scale's labels 0 and 1.
    valueNames: data.values.map((v) =>
      options.threshold !== undefined
        ? v
          ? `relevant (≥ ${options.threshold})`
          : `not relevant (< ${options.threshold})`
        : (study.scale?.entries.find((e) => e.value === v)?.label ?? String(v)),
    ),
    headlines,
    weighting,
    alphaLevel,
    summary,
    pairs,
    queries,
    trend: trendOf(humans, labels.times, first, options.trendPoints ?? 20),
    ...(study.adjudicator !== undefined && { adjudicator: study.adjudicator }),
    disagreements,
    adjudicated,
    ...(options.threshold !== undefined && { threshold: options.threshold }),
  };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The first headline statistic over the human labels given up to each of `points` moments (current labels, by the
 * time they were given).
 */
function trendOf(
  humans: ReliabilityData,
  times: readonly string[],
  spec: { metric: AgreementMetricId; level: string },
  points: number,
): TrendPoint[] {
  const order = humans.lines.filter((_line, i) => humans.cells[i]! >= 0).sort();
  if (order.length === 0) return [];
  const statistic = agreementStatistic(spec.metric);
  const trend: TrendPoint[] = [];
  const count = Math.min(points, order.length);
  for (let i = 1; i <= count; i++) {
    const labels = Math.round((order.length * i) / count);
    const line = order[labels - 1]!;
    const data = labelsUpTo(humans, line);
    const value = statistic.compute(unitPatterns(data), spec.level, data.values);
    trend.push({
      labels,
      at: times[line - 1]!,
      value: value.value,
      ...(value.value === null && { reason: value.reason }),
    });
  }
  return trend;
}

/** The study's current labels as reliability data (its scale's values), binarised at `threshold` when given. */
export async function studyReliability(
  store: StudyStore,
  studyId: number,
  study: StudyModel,
  threshold?: number,
): Promise<ReliabilityData> {
  const { data } = await readStudyLabels(
    store,
    studyId,
    study.scale?.entries.map((e) => e.value),
  );
  return threshold === undefined ? data : binarise(data, threshold);
}

/** The confusion matrix of two annotators of the study, over its current labels (binarised at `threshold`). */
export async function studyConfusion(
  store: StudyStore,
  studyId: number,
  study: StudyModel,
  pair: { a: string; b: string; threshold?: number },
): Promise<ConfusionView> {
  return annotatorConfusion(await studyReliability(store, studyId, study, pair.threshold), pair.a, pair.b);
}

/** The pair ids of the study an adjudication queue of `selection` holds, its labels binarised at `threshold`. */
export async function studyAdjudicationPairIds(
  store: StudyStore,
  studyId: number,
  study: StudyModel,
  selection: AdjudicationSelection,
  threshold?: number,
): Promise<number[]> {
  return adjudicationPairIds(store, studyId, await studyReliability(store, studyId, study, threshold), selection);
}

/** The confusion matrix of two annotators (by name) over the units both labelled. */
export function annotatorConfusion(data: ReliabilityData, a: string, b: string): ConfusionView {
  const ia = data.annotators.findIndex((x) => x.name === a);
  const ib = data.annotators.findIndex((x) => x.name === b);
  if (ia < 0 || ib < 0) {
    const missing = ia < 0 ? a : b;
    throw new Error(`no labels by '${missing}' (annotators: ${data.annotators.map((x) => x.name).join(', ')})`);
  }
  const k = data.values.length;
  const matrix = confusionMatrix(unitPatterns(data), ia, ib);
  return {
    a,
    b,
    values: data.values,
    counts: data.values.map((_, i) => data.values.map((__, j) => matrix[i * k + j]!)),
  };
}

/**
 * The pair ids an adjudication queue holds, in query order: for two annotators the units both labelled differently;
 * for a query (or all) the units where the human annotators' labels differ.
 */
export async function adjudicationPairIds(
  store: StudyStore,
  studyId: number,
  data: ReliabilityData,
  selection: AdjudicationSelection,
): Promise<number[]> {
  const width = data.annotators.length;
  const wanted: number[] = [];
  if (selection.kind === 'pair') {
    const a = data.annotators.findIndex((x) => x.name === selection.a);
    const b = data.annotators.findIndex((x) => x.name === selection.b);
    if (a < 0 || b < 0) throw new Error(`no labels by '${a < 0 ? selection.a : selection.b}' in this study`);
    for (let u = 0; u < data.qids.length; u++) {
      const ca = data.cells[u * width + a]!;
      const cb = data.cells[u * width + b]!;
      if (ca >= 0 && cb >= 0 && ca !== cb) wanted.push(u);
    }
  } else {
    const humans = data.annotators.flatMap((x, i) => (x.kind === 'human' ? [i] : []));
    const columns = humans.length > 0 ? humans : data.annotators.map((_, i) => i);
    for (let u = 0; u < data.qids.length; u++) {
      if (selection.kind === 'query' && data.qids[u] !== selection.qid) continue;
      let seen = -1;
      for (const j of columns) {
        const c = data.cells[u * width + j]!;
        if (c < 0) continue;
        if (seen >= 0 && c !== seen) {
          wanted.push(u);
          break;
        }
        seen = c;
      }
    }
  }
  if (wanted.length === 0) return [];
  return store.agreement.pairIds(
    studyId,
    wanted.map((u) => [data.qids[u]!, data.docids[u]!]),
  );
}
