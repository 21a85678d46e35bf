// The host's answers to the Agreement view's requests (`agreement/*` in webview/protocol.ts), computed by core from
// the study's real SQLite database. No `vscode` here: the panel (agreementPanel.ts) and the Chromium tests serve the
// view with these same handlers. `source()` is asked on every request: the study file may have been edited (a new
// target, another adjudicator) and its database re-synced since the last one.
import {
  type AdjudicationSelection,
  adjudicationPairIds,
  agreementDashboard,
  annotatorConfusion,
} from '../../core/agreement/agreementDashboard.ts';
import { binarise, type ReliabilityData } from '../../core/agreement/reliabilityData.ts';
import { readStudyLabels } from '../../core/agreement/studyLabels.ts';
import type { StudyModel } from '../../core/dsl/model.ts';
import type { SqliteDatabase } from '../../core/store/sqliteDatabase.ts';
import type { RequestKind } from '../../webview/protocol.ts';
import type { RequestHandlers } from './hostChannel.ts';

export type AgreementRequestKind = Extract<RequestKind, `agreement/${string}`>;

/** The study the view shows: its database (already synced), its id there, and its model. */
export interface AgreementSource {
  db: SqliteDatabase;
  studyId: number;
  study: StudyModel;
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
 * intervals cost about as much as a 50,000-pair study's. The report is computed on the extension host's one thread
 * (after every pause in labelling while the view is open): 1000 samples over 200,000 pairs would add 3 s to it.
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

/** The study's current labels as reliability data, binarised at `threshold` when given. */
function labelsOf(source: AgreementSource, threshold: number | undefined): ReliabilityData {
  const scale = source.study.scale?.entries.map((e) => e.value);
  const { data } = readStudyLabels(source.db, source.studyId, scale);
  return threshold === undefined ? data : binarise(data, threshold);
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

export function agreementRequestHandlers(
  source: () => AgreementSource | Promise<AgreementSource>,
  hooks: AgreementHandlerHooks,
): RequestHandlers<AgreementRequestKind> {
  return {
    'agreement/report': async ({ threshold }) => {
      const { db, studyId, study } = await source();
      const at = checkedThreshold(threshold);
      const pairs = db.prepare('SELECT count(*) FROM pair WHERE study_id = ?').pluck().get(studyId) as number;
      return agreementDashboard(db, studyId, study, {
        ...(at !== undefined && { threshold: at }),
        bootstrap: hooks.bootstrap ?? bootstrapSamples(pairs),
        ...(hooks.seed !== undefined && { seed: hooks.seed }),
      });
    },
    'agreement/confusion': async ({ a, b, threshold }) => {
      const data = labelsOf(await source(), checkedThreshold(threshold));
      return annotatorConfusion(data, a, b);
    },
    'agreement/adjudicate': async (params) => {
      const selection = selectionOf(params);
      const opened = await source();
      const data = labelsOf(opened, checkedThreshold(params.threshold));
      const pairIds = adjudicationPairIds(opened.db, opened.studyId, data, selection);
      if (pairIds.length === 0) return { pairs: 0 };
      await hooks.onAdjudicate(selection, pairIds, adjudicationTitle(selection, pairIds.length));
      return { pairs: pairIds.length };
    },
  };
}
