// The host's answers to the Evaluate view's requests (`evaluate/*` in webview/protocol.ts): the study's pooled runs
// evaluated against its labels (core/metrics/studyEvaluation.ts). No `vscode` here: the panel (evaluatePanel.ts) and
// the Chromium tests serve the view with these same handlers. `source()` is asked on every request: the study file
// and its labels change while the view is open.
import type { StudyModel } from '../../core/dsl/model.ts';
import { compareStudyRuns, type EvaluateReport, evaluateStudyRuns } from '../../core/metrics/studyEvaluation.ts';
import { studyQrelsSource } from '../../core/store/qrelsExportSource.ts';
import type { SqliteDatabase } from '../../core/store/sqliteDatabase.ts';
import type { RequestKind } from '../../webview/protocol.ts';
import type { RequestHandlers } from './hostChannel.ts';

export type EvaluateRequestKind = Extract<RequestKind, `evaluate/${string}`>;

/** The study the view evaluates (extension/panels/studyPanel.ts StudySource). */
export interface EvaluateSource {
  db: SqliteDatabase;
  studyId: number;
  study: StudyModel;
  /** The study file's folder (its run paths are relative to it). */
  folder: string;
}

export function evaluateRequestHandlers(
  source: () => EvaluateSource | Promise<EvaluateSource>,
  options: { seed?: number } = {},
): RequestHandlers<EvaluateRequestKind> {
  const report = async (from: string | undefined, baseline: string | undefined) => {
    const { db, studyId, study, folder } = await source();
    if (from !== undefined && typeof from !== 'string') throw new Error('expected a label source');
    if (baseline !== undefined && typeof baseline !== 'string') throw new Error('expected a baseline run');
    return evaluateStudyRuns(db, studyId, study, folder, from ?? studyQrelsSource(study), baseline);
  };
  // The view asks for a comparison right after each report: it compares the runs of the report it just got, so the
  // latest report (for the same source and baseline) is reused instead of evaluating every run again.
  let latest: { from: string; baseline: string | undefined; report: Promise<EvaluateReport> } | undefined;
  return {
    'evaluate/report': ({ from, baseline }) => {
      const evaluated = report(from, baseline);
      evaluated
        .then((r) => {
          latest = { from: r.from, baseline, report: evaluated };
        })
        .catch(() => {});
      return evaluated;
    },
    'evaluate/compare': async ({ from, baseline, a, b }) => {
      const reused = latest !== undefined && latest.from === from && latest.baseline === baseline;
      return compareStudyRuns(await (reused ? latest!.report : report(from, baseline)), a, b, {
        ...(options.seed !== undefined && { seed: options.seed }),
      });
    },
  };
}
