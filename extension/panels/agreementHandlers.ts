// The host's answers to the Agreement view's requests (`agreement/*` in webview/protocol.ts), computed by core from
// the study's record (its StudyStore). The report (every label read, a bootstrap: up to 3 s on a big study), the
// confusion matrix and an adjudication queue's pairs run in the store's worker thread when the store is one
// (core/worker/workerJobs.ts), so the editor never freezes; with a store in process (tests, the CLI) they run here.
// No `vscode` here: the panel (agreementPanel.ts) and the Chromium tests serve the view with these same handlers.
// `source()` is asked on every request: the study file may have been edited (a new target, another adjudicator) and
// its database re-synced since the last one. The Judges section's report (core/judge/quality/) evaluates the study's
// runs with each judge's qrels and the people's, so it needs the study file's folder (the runs' paths).
import {
  agreementDashboard,
  studyAdjudicationPairIds,
  studyConfusion,
} from '../../core/agreement/agreementDashboard.ts';
import type {
  AdjudicationSelection,
  AgreementDashboard,
  ConfusionView,
  DashboardOptions,
} from '../../core/agreement/agreementTypes.ts';
import { defaultBootstrap } from '../../core/agreement/bootstrap.ts';
import type { StudyModel } from '../../core/dsl/model.ts';
import { computeJudgeQualityReport } from '../../core/judge/quality/judgeQualityReport.ts';
import type { StudyStore } from '../../core/store/studyStore.ts';
import type { WorkerJobs } from '../../core/worker/workerJobs.ts';
import type { RequestKind } from '../../webview/protocol.ts';
import type { RequestHandlers } from './hostChannel.ts';

export type AgreementRequestKind = Extract<RequestKind, `agreement/${string}`>;

/** The study the view shows: its record (already synced), its id there, and its model. */
export interface AgreementSource {
  store: StudyStore;
  studyId: number;
  study: StudyModel;
  /** The study file's folder: the runs the Judges section ranks are relative to it. */
  folder?: string;
}

export interface AgreementHandlerHooks {
  /**
   * Opens `pairIds` (the disagreements of `selection`, never empty) as an adjudication queue titled `title`; a
   * rejection is the error the view shows (no adjudicator declared, the switch to the adjudicator declined).
   */
  onAdjudicate(selection: AdjudicationSelection, pairIds: number[], title: string): Promise<void>;
  /** Bootstrap samples for the headline intervals (default: bootstrapSamples of the study's pair count). */
  bootstrap?: number;
  seed?: number;
}

const disagreementCount = (n: number): string => `${n.toLocaleString('en-US')} disagreement${n === 1 ? '' : 's'}`;

/** What the Label view's adjudication queue is called: "alice ↔ bob: 4 disagreements", "query q3: 2 disagreements". */
export function adjudicationTitle(selection: AdjudicationSelection, pairs: number): string {
  switch (selection.kind) {
    case 'pair':
      return `${selection.a} ↔ ${selection.b}: ${disagreementCount(pairs)}`;
    case 'query':
      return `query ${selection.qid}: ${disagreementCount(pairs)}`;
    case 'all':
      return `all ${disagreementCount(pairs)}`;
  }
}

/**
 * Bootstrap samples for a study of `pairs` pairs: 1000 up to 50,000 pairs, then fewer (down to 200) so that the
 * intervals cost about as much as a 50,000-pair study's. The report is computed again after every pause in labelling
 * while the view is open (in the store's worker, off the editor's thread): 1000 samples over 200,000 pairs would add
 * 3 s to it.
 */
export function bootstrapSamples(pairs: number): number {
  return pairs <= 50_000 ? 1000 : Math.max(200, Math.round(50_000_000 / pairs));
}

/** A threshold as the protocol carries it: a finite number, or none. */
function checkedThreshold(threshold: unknown): number | undefined {
  if (threshold === undefined || threshold === null) return undefined;
  if (typeof threshold !== 'number' || !Number.isFinite(threshold)) {
    throw new Error(`expected the threshold to be a number, got ${JSON.stringify(threshold)}`);
  }
  return threshold;
}

/** Only the selection's own fields (the request also carries the threshold). */
function selectionOf(params: AdjudicationSelection): AdjudicationSelection {
  switch (params.kind) {
    case 'pair':
      if (typeof params.a !== 'string' || typeof params.b !== 'string') throw new Error('expected two annotators');
      return { kind: 'pair', a: params.a, b: params.b };
    case 'query':
      if (typeof params.qid !== 'string') throw new Error('expected a query id');
      return { kind: 'query', qid: params.qid };
    case 'all':
      return { kind: 'all' };
    default:
      throw new Error(`unknown adjudication selection ${JSON.stringify((params as { kind: unknown }).kind)}`);
  }
}

type AnyStore = StudyStore | (StudyStore & { jobs: WorkerJobs });

/** The report, in the store's worker when the store runs in one (`jobs`), else here. */
function dashboardOf(
  store: AnyStore,
  studyId: number,
  study: StudyModel,
  options: DashboardOptions,
): Promise<AgreementDashboard> {
  if ('jobs' in store) return store.jobs.agreementDashboard({ studyId, study, options });
  return agreementDashboard(store, studyId, study, options);
}

/** A confusion matrix, read and counted in the store's worker when there is one. */
function confusionOf(
  { store, studyId, study }: AgreementSource,
  pair: { a: string; b: string; threshold?: number },
): Promise<ConfusionView> {
  const any = store as AnyStore;
  if ('jobs' in any) return any.jobs.agreementConfusion({ studyId, study, ...pair });
  return studyConfusion(store, studyId, study, pair);
}

/** An adjudication queue's pair ids, read and found in the store's worker when there is one. */
function adjudicationPairsOf(
  { store, studyId, study }: AgreementSource,
  selection: AdjudicationSelection,
  threshold: number | undefined,
): Promise<number[]> {
  const any = store as AnyStore;
  if ('jobs' in any) {
    return any.jobs.adjudicationPairIds({ studyId, study, selection, ...(threshold !== undefined && { threshold }) });
  }
  return studyAdjudicationPairIds(store, studyId, study, selection, threshold);
}

export function agreementRequestHandlers(
  source: () => AgreementSource | Promise<AgreementSource>,
  hooks: AgreementHandlerHooks,
): RequestHandlers<AgreementRequestKind> {
  return {
    'agreement/report': async ({ threshold }) => {
      const { store, studyId, study } = await source();
      const at = checkedThreshold(threshold);
      const bootstrap = hooks.bootstrap ?? bootstrapSamples(await store.agreement.pairCount(studyId));
      return dashboardOf(store, studyId, study, {
        ...(at !== undefined && { threshold: at }),
        bootstrap,
        ...(hooks.seed !== undefined && { seed: hooks.seed }),
      });
    },
    'agreement/confusion': async ({ a, b, threshold }) => {
      const at = checkedThreshold(threshold);
      return confusionOf(await source(), { a, b, ...(at !== undefined && { threshold: at }) });
    },
    'agreement/judges': async ({ measure }) => {
      if (measure !== undefined && typeof measure !== 'string') throw new Error('expected the measure to be a name');
      const { store, studyId, study, folder } = await source();
      if (folder === undefined)
        throw new Error(`the folder of study '${study.name}' is not known: its runs cannot be ranked`);
      // The same number of resamples as the headlines' intervals: fewer on a big study, so it stays quick.
      const samples = hooks.bootstrap ?? bootstrapSamples(await store.agreement.pairCount(studyId));
      const options = {
        ...(measure !== undefined && { measure }),
        bootstrap: { ...defaultBootstrap, samples, ...(hooks.seed !== undefined && { seed: hooks.seed }) },
      };
      // In the store's worker when there is one: the runs are evaluated twice per judge.
      const any = store as AnyStore;
      if ('jobs' in any) return any.jobs.judgeQualityReport({ studyId, study, folder, options });
      return computeJudgeQualityReport(store, studyId, study, folder, options);
    },
    'agreement/adjudicate': async (params) => {
      const selection = selectionOf(params);
      const at = checkedThreshold(params.threshold);
      const pairIds = await adjudicationPairsOf(await source(), selection, at);
      if (pairIds.length === 0) return { pairs: 0 };
      await hooks.onAdjudicate(selection, pairIds, adjudicationTitle(selection, pairIds.length));
      return { pairs: pairIds.length };
    },
  };
}
