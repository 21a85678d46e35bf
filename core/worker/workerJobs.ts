// Work that runs inside the store's worker thread, next to the store, because it is heavy (reading a whole study,
// a bootstrap) or takes what cannot cross a thread (an import's file streams). Each job is one async function of
// the worker's own store and plain-data arguments; the extension calls it as `store.jobs.<name>(…)`.
import { agreementDashboard, studyAdjudicationPairIds, studyConfusion } from '../agreement/agreementDashboard.ts';
import type {
  AdjudicationSelection,
  AgreementDashboard,
  ConfusionView,
  DashboardOptions,
} from '../agreement/agreementTypes.ts';
import type { StudyModel } from '../dsl/model.ts';
import { computeJudgeQualityReport } from '../judge/quality/judgeQualityReport.ts';
import type { JudgeQualityOptions, JudgeQualityReport } from '../judge/quality/judgeQualityTypes.ts';
import type { EvaluateReport } from '../metrics/evaluationTypes.ts';
import { evaluateStudyRuns } from '../metrics/studyEvaluation.ts';
import type { StudyStore } from '../store/studyStore.ts';
import { type ImportJobs, importJobs } from './importJobs.ts';

/** The import jobs (importJobs.ts) and the ones below. */
export interface WorkerJobs extends ImportJobs {
  /** Answers when the worker is idle enough to answer (tests and the event-loop bench use it). */
  ping(): Promise<'pong'>;
  /**
   * The Agreement view's report (core/agreement/agreementDashboard.ts), computed here: reading every label and the
   * bootstrap (up to 3 s on a big study) never block the extension host's thread.
   */
  agreementDashboard(args: {
    studyId: number;
    study: StudyModel;
    options?: DashboardOptions;
  }): Promise<AgreementDashboard>;
  /** The Agreement view's confusion matrix of two annotators (every label read here, not on the host's thread). */
  agreementConfusion(args: {
    studyId: number;
    study: StudyModel;
    a: string;
    b: string;
    threshold?: number;
  }): Promise<ConfusionView>;
  /** The pair ids an adjudication queue of `selection` holds (every label read here). */
  adjudicationPairIds(args: {
    studyId: number;
    study: StudyModel;
    selection: AdjudicationSelection;
    threshold?: number;
  }): Promise<number[]>;
  /**
   * The Evaluate view's report (core/metrics/studyEvaluation.ts): the labels read and every pooled run evaluated
   * here, not on the host's thread.
   */
  evaluateStudyRuns(args: {
    studyId: number;
    study: StudyModel;
    folder: string;
    from: string;
    baseline?: string;
  }): Promise<EvaluateReport>;
  /**
   * The Agreement view's Judges section (core/judge/quality/): every label read, each judge's κ bootstrap and the
   * pooled runs evaluated twice per judge here, not on the host's thread.
   */
  judgeQualityReport(args: {
    studyId: number;
    study: StudyModel;
    folder: string;
    options: Partial<JudgeQualityOptions>;
  }): Promise<JudgeQualityReport>;
}

/** The jobs over `store`: in the SQLite store's worker, or in process next to a PostgreSQL store (async I/O already). */
export function workerJobs(store: StudyStore): WorkerJobs {
  return {
    ...importJobs(store),
    async ping() {
      return 'pong';
    },
    agreementDashboard({ studyId, study, options }) {
      return agreementDashboard(store, studyId, study, options);
    },
    agreementConfusion({ studyId, study, a, b, threshold }) {
      return studyConfusion(store, studyId, study, { a, b, ...(threshold !== undefined && { threshold }) });
    },
    adjudicationPairIds({ studyId, study, selection, threshold }) {
      return studyAdjudicationPairIds(store, studyId, study, selection, threshold);
    },
    evaluateStudyRuns({ studyId, study, folder, from, baseline }) {
      return evaluateStudyRuns(store, studyId, study, folder, from, baseline);
    },
    judgeQualityReport({ studyId, study, folder, options }) {
      return computeJudgeQualityReport(store, studyId, study, folder, options);
    },
  };
}
