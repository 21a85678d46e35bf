// What `qrels-studio judges` prints and the Agreement view's judge section shows: how each LLM judge of a study
// (annotator llm:<model>@<prompt hash 8>) does against the people's labels (adjudicated, else majority), as plain data.
// The webview protocol carries it, so this module imports types only and no store code (judgeQualityReport.ts
// computes it from the record).
import type { JudgeGateCondition } from '../../dsl/model.ts';

/**
 * Which pairs feed the two qrels the runs are evaluated with:
 * - `people` (default): the people's qrels as they are; the judge's qrels hold the judge's labels on those same
 *   pairs (a pair the people labelled and the judge did not is unjudged, i.e. not relevant as trec_eval counts it);
 * - `common`: both qrels hold only the pairs both labelled;
 * - `each`: each qrels holds every pair its side labelled (the judge's possibly many more than the people's).
 */
export type QrelsPairs = 'people' | 'common' | 'each';
export const qrelsPairsRules: readonly QrelsPairs[] = ['people', 'common', 'each'];

/**
 * τ_ap as Yilmaz, Aslam & Robertson (2008) define it is asymmetric: `asymmetric` (default) takes the people's
 * ranking as the truth; `symmetric` is the mean of both directions.
 */
export type TauApMode = 'asymmetric' | 'symmetric';

export interface JudgeQualityOptions {
  /** The measure the runs are ranked by: `--measure`, else the study's first `measures`, else map. */
  measure: string;
  pairs: QrelsPairs;
  tauAp: TauApMode;
  /** Equal-width bins of [0, 1] for the expected calibration error (default 10). */
  calibrationBins: number;
  bootstrap: { samples: number; seed: number; level: number };
}

/** A number, or null with why it is undefined (never NaN shown as a number). */
export interface QualityValue {
  value: number | null;
  /** Why the value is null. */
  reason?: string;
}

/** The people's label (rows) against the judge's (columns) over the pairs both labelled. */
export interface JudgeConfusion {
  /** The labels the rows and columns stand for, ascending: the study's scale, and any other label either gave. */
  labels: number[];
  /** counts[i][j]: pairs the people labelled labels[i] and the judge labels[j]. */
  counts: number[][];
  /** Pairs counted (the sum of every cell). */
  pairs: number;
}

/** Cohen's κ (unweighted) of the judge against the people, with a percentile bootstrap interval over the pairs. */
export interface JudgeKappa extends QualityValue {
  interval: [number, number] | null;
  samples: number;
  seed: number;
  level: number;
  /** Resamples on which κ was undefined (left out of the interval). */
  undefinedSamples: number;
}

/** One equal-width confidence bin of the calibration: [from, to) (the last bin includes 1). */
export interface CalibrationBin {
  from: number;
  to: number;
  pairs: number;
  /** Mean confidence of its pairs; null when empty. */
  meanConfidence: number | null;
  /** Share of its pairs where the judge's label is the people's; null when empty. */
  accuracy: number | null;
}

/**
 * Expected calibration error of the judge's vote confidence (the share of its votes that agree with the label it
 * gave) over the pairs both labelled: Σ_bins (pairs in bin / pairs) · |accuracy − mean confidence|. Undefined when
 * the judge votes once (every confidence would be 1: nothing to calibrate) or no pair has a confidence.
 */
export interface JudgeCalibration extends QualityValue {
  bins: CalibrationBin[];
  /** Pairs both labelled that have a confidence. */
  pairs: number;
}

/** What the judge's recorded calls cost, per 1,000 pairs it labelled. */
export interface JudgeCost {
  calls: number;
  answered: number;
  failed: number;
  inputTokens: number;
  outputTokens: number;
  /** USD, over the calls that have a price. */
  cost: number;
  /** Calls recorded with a cost (0 of several: no price was known, so cost is unknown, not $0). */
  pricedCalls: number;
  /** Pairs the judge has a label for. */
  pairsLabelled: number;
  costPer1000Pairs: QualityValue;
}

/** One run, evaluated with the people's qrels and with the judge's. */
export interface RankedSystem {
  /** The pool's path as the study names it. */
  run: string;
  runid: string;
  people: number;
  judge: number;
  /** 1 = best; tied systems share the mean of their ranks. */
  peopleRank: number;
  judgeRank: number;
}

/** The correlation of the system rankings the two qrels give. */
export interface JudgeRankings {
  measure: string;
  pairs: QrelsPairs;
  /** Labelled pairs in each qrels. */
  peopleQrels: number;
  judgeQrels: number;
  systems: RankedSystem[];
  /** Kendall's τ_b (ties in either ranking corrected for; τ_a when there are none). */
  tau: QualityValue;
  /** τ_ap (asymmetric: the people's ranking is the truth; symmetric: the mean of both directions). */
  tauAp: QualityValue;
  tauApMode: TauApMode;
}

/** One condition of the gate, checked. */
export interface GateCheck {
  condition: JudgeGateCondition;
  /** The judge's value of the condition's metric (null: undefined, which fails the condition). */
  value: number | null;
  passed: boolean;
  /** Why the value is undefined. */
  reason?: string;
}

/** The study's gate (`accept when …`) for one judge: passes when every condition holds. */
export interface JudgeGateVerdict {
  declared: boolean;
  passed: boolean;
  checks: GateCheck[];
  /** What failed, in a sentence naming the judge, the condition and both numbers; absent when passed. */
  failure?: string;
}

export interface JudgeQuality {
  /** The judge's annotator name: llm:<model>@<prompt hash 8>. */
  judge: string;
  /** Pairs both the judge and the people labelled. */
  sharedPairs: number;
  confusion: JudgeConfusion;
  kappa: JudgeKappa;
  /** Share of the shared pairs where the judge's label is the people's. */
  accuracy: QualityValue;
  calibration: JudgeCalibration;
  cost: JudgeCost;
  /** Null with the reason when the runs could not be evaluated (no pooled run, no people's labels…). */
  rankings: JudgeRankings | null;
  rankingsReason?: string;
  gate: JudgeGateVerdict;
}

export interface JudgeQualityReport {
  study: string;
  /** The people's labels: adjudicated, else majority (the `adjudicated-else-majority` label source). */
  peopleSource: string;
  /** Pairs with a people's label. */
  peoplePairs: number;
  options: JudgeQualityOptions;
  judges: JudgeQuality[];
  /** Every judge passes its gate (a judge without one passes): `qrels-studio judges` exits 1 when not. */
  gatePassed: boolean;
}
