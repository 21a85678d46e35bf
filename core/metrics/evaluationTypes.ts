// What the Evaluate view shows for a study, as plain data: the webview protocol (webview/protocol.ts) carries it, so
// this module imports no store code (studyEvaluation.ts computes it from the record and the study's runs).
import type { PairedTest } from './significance.ts';

export interface EvaluatedRun {
  /** The run file as the study file names it. */
  run: string;
  /** Its run tag. */
  runid: string;
  all: Record<string, number>;
  /** qid → measure → value. */
  perQuery: Record<string, Record<string, number>>;
}

export interface EvaluateReport {
  study: string;
  /** The label source the qrels came from, and the ones there are. */
  from: string;
  sources: string[];
  /** Judgments in the qrels. */
  labels: number;
  /** The gains in nDCG the study's scale declares (value → gain), when it declares some; else nDCG gains the label. */
  gains?: Record<string, number>;
  measures: string[];
  /** The query-only run the instruction measures (irs, p_mrr) compare each other run with, when one is picked. */
  baseline?: string;
  /** Why the instruction measures could not be computed against the baseline (the trec_eval ones still are). */
  instructionError?: string;
  runs: EvaluatedRun[];
  /** The evaluated queries with their instruction type and subset (query metadata `subset`), when they have them. */
  queries: { qid: string; type?: string; subset?: string }[];
}

export interface RunComparison {
  a: string;
  b: string;
  /** Per measure: b − a over the queries, randomisation and t-test p. */
  tests: Record<string, PairedTest>;
  /** Per measure: each query's values and difference, largest |difference| first. */
  deltas: Record<string, { qid: string; a: number; b: number; delta: number }[]>;
}
