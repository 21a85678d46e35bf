// The numbers a study's judge gate can name (`accept when tau >= 0.9 and kappa >= 0.6`), each read from a judge's
// quality report. Adding one: its module in this folder, a JudgeGateMetric in core/dsl/model.ts, an entry here.
import type { JudgeGateMetric } from '../../dsl/model.ts';
import type { JudgeQuality, QualityValue } from './judgeQualityTypes.ts';

export interface JudgeGateMetricEntry {
  /** As the report prints it. */
  title: string;
  read(quality: JudgeQuality): QualityValue;
}

const noRankings = (quality: JudgeQuality): QualityValue => ({
  value: null,
  reason: quality.rankingsReason ?? 'the runs were not ranked',
});

export const judgeGateMetrics: Readonly<Record<JudgeGateMetric, JudgeGateMetricEntry>> = {
  tau: { title: "Kendall's τ_b of the system rankings", read: (q) => q.rankings?.tau ?? noRankings(q) },
  tau_ap: { title: 'τ_ap of the system rankings', read: (q) => q.rankings?.tauAp ?? noRankings(q) },
  kappa: { title: "Cohen's κ against the people", read: (q) => q.kappa },
  accuracy: { title: 'accuracy against the people', read: (q) => q.accuracy },
  ece: { title: 'expected calibration error of the vote confidence', read: (q) => q.calibration },
};
