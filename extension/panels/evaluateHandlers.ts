// The host's answers to the Evaluate view's requests (`evaluate/*` in webview/protocol.ts): the study's pooled runs
// evaluated against its labels (core/metrics/studyEvaluation.ts). No `vscode` here: the panel (evaluatePanel.ts) and
// the Chromium tests serve the view with these same handlers. `source()` is asked on every request: the study file
// and its labels change while the view is open.
import type { StudyModel } from '../../core/dsl/model.ts';
import type { EvaluateReport } from '../../core/metrics/evaluationTypes.ts';
import { compareStudyRuns, evaluateStudyRuns } from '../../core/metrics/studyEvaluation.ts';
import { studyQrelsSource } from '../../core/store/qrelsExportSource.ts';
import type { StudyStore } from '../../core/store/studyStore.ts';
import type { WorkerJobs } from '../../core/worker/workerJobs.ts';
import type { RequestKind } from '../../webview/protocol.ts';
import type { RequestHandlers } from './hostChannel.ts';

export type EvaluateRequestKind = Extract<RequestKind, `evaluate/${string}`>;

/** The study the view evaluates (extension/panels/studyPanel.ts StudySource). */
export interface EvaluateSource {
  store: StudyStore;
  studyId: number;
  study: StudyModel;
  /** The study file's folder (its run paths are relative to it). */
  folder: string;
}

/** How many reports the host keeps for comparisons: the one on screen and any still on their way to it. */
const keptReports = 8;

export function evaluateRequestHandlers(
  source: () => EvaluateSource | Promise<EvaluateSource>,
  options: { seed?: number } = {},
): RequestHandlers<EvaluateRequestKind> {
  // Every report handed out gets an id; a comparison is of exactly the report the view names (the one it shows),
  // never of whichever report was evaluated last, which may already count labels stored since.
  let nextReportId = 1;
  const reports = new Map<number, EvaluateReport>();
  return {
    'evaluate/report': async ({ from, baseline }) => {
      if (from !== undefined && typeof from !== 'string') throw new Error('expected a label source');
      if (baseline !== undefined && typeof baseline !== 'string') throw new Error('expected a baseline run');
      const { store, studyId, study, folder } = await source();
      const labels = from ?? studyQrelsSource(study);
      // In the store's worker when the store runs in one: reading the labels and evaluating every run never block
      // the editor's thread.
      const worker = store as StudyStore | (StudyStore & { jobs: WorkerJobs });
      const report =
        'jobs' in worker
          ? await worker.jobs.evaluateStudyRuns({
              studyId,
              study,
              folder,
              from: labels,
              ...(baseline !== undefined && { baseline }),
            })
          : await evaluateStudyRuns(store, studyId, study, folder, labels, baseline);
      const reportId = nextReportId++;
      reports.set(reportId, report);
      while (reports.size > keptReports) reports.delete(reports.keys().next().value!);
      return { ...report, reportId };
    },
    'evaluate/compare': ({ reportId, a, b }) => {
      const report = reports.get(reportId);
      if (!report) throw new Error('that report is no longer current: evaluate again');
      return {
        ...compareStudyRuns(report, a, b, { ...(options.seed !== undefined && { seed: options.seed }) }),
        reportId,
      };
    },
  };
}
