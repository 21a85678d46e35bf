// What the Agreement view shows for a study, as plain data: the webview protocol (webview/protocol.ts) carries it, so
// this module imports no store code (agreementDashboard.ts computes it from the record).
import type { AgreementSummary, Interval, PairKind } from './agreementSummary.ts';
import type { TargetVerdict } from './agreementTarget.ts';
import type { AgreementAnnotator } from './reliabilityData.ts';
import type { AlphaLevel } from './statistics/krippendorffAlpha.ts';
import type { AgreementMetricId } from './statistics/registry.ts';

export interface DashboardOptions {
  /** Bootstrap samples for the headline intervals (default 1000; 0: none). */
  bootstrap?: number;
  seed?: number;
  /** Binarise at this label first (relevant = label ≥ threshold). */
  threshold?: number;
  /** Points of the trend (default 20). */
  trendPoints?: number;
}

export interface AgreementHeadline {
  metric: AgreementMetricId;
  level: string;
  title: string;
  value: number | null;
  /** Why the value is null. */
  reason?: string;
  interval: Interval | null;
  target?: number;
  /** With a target: met only when the interval's lower bound reaches it (agreementTarget.ts). */
  verdict?: TargetVerdict;
}

export interface AnnotatorPairAgreement {
  a: string;
  b: string;
  kind: PairKind;
  /** Units both labelled, and of those the ones they labelled differently. */
  shared: number;
  disagreements: number;
  kappa: number | null;
  weightedKappa: number | null;
  /** Krippendorff's α of the two at the headline's level (nominal unless the headline is α). */
  alpha: number | null;
  percent: number | null;
  /** Why each null value is null (only the null ones). */
  reasons?: Partial<Record<'kappa' | 'weightedKappa' | 'alpha' | 'percent', string>>;
}

export interface QueryAgreement {
  qid: string;
  /** Units of the query with labels from two annotators or more, and of those the ones with different labels. */
  units: number;
  disagreements: number;
  percent: number | null;
  alpha: number | null;
  /** Why each null value is null (only the null ones). */
  reasons?: Partial<Record<'percent' | 'alpha', string>>;
}

export interface TrendPoint {
  /** Labels given so far (human annotators'). */
  labels: number;
  at: string;
  value: number | null;
  /** Why the value is null. */
  reason?: string;
}

export interface AgreementDashboard {
  study: string;
  annotators: (AgreementAnnotator & { labels: number })[];
  values: number[];
  valueNames: string[];
  headlines: AgreementHeadline[];
  /** Weighting of `weightedKappa` in the pairs. */
  weighting: 'linear' | 'quadratic';
  /** Level of the pairs' and queries' α. */
  alphaLevel: AlphaLevel;
  summary: AgreementSummary;
  pairs: AnnotatorPairAgreement[];
  queries: QueryAgreement[];
  trend: TrendPoint[];
  adjudicator?: string;
  /** Units where the human annotators' labels differ, and of those the ones adjudicated. */
  disagreements: number;
  adjudicated: number;
  threshold?: number;
}

export interface ConfusionView {
  a: string;
  b: string;
  values: number[];
  /** counts[i][j]: units a labelled values[i] and b labelled values[j]. */
  counts: number[][];
}

/** Which pairs an adjudication queue holds: where two annotators disagree, a query's disagreements, or all. */
export type AdjudicationSelection =
  | { kind: 'pair'; a: string; b: string }
  | { kind: 'query'; qid: string }
  | { kind: 'all' };
