// The one host↔webview message protocol. The extension host (extension/panels/) and every webview (webview/<name>/)
// compile against this file, so a message one side sends is a message the other side knows, checked by tsc.
//
//   webview → host   `ready` once mounted (the host queues events until then), and requests with a numeric `id`
//   host → webview   one `reply` per request (same `id`; a failure is a value, never a lost rejection), and events
//
// Adding a panel's messages = lines in `RequestMap` and `EventMap` below, named `<panel>/<verb>`; nothing else here
// changes. Besides types it holds only the envelope checks both receivers use; it imports nothing at runtime
// (core types are `import type`), so it runs in Node and in the browser alike.

import type { AdjudicationSelection, AgreementDashboard, ConfusionView } from '../core/agreement/agreementTypes.ts';
import type { JudgeQualityReport } from '../core/judge/quality/judgeQualityTypes.ts';
import type {
  CommitLabel,
  DocumentView,
  PairView,
  Progress,
  QueueSettings,
  SessionState,
} from '../core/labelling/types.ts';
import type { EvaluateReport, RunComparison } from '../core/metrics/evaluationTypes.ts';
import type {
  ReviewCommit,
  ReviewItemView,
  ReviewQueue,
  ReviewState,
  ReviewSummary,
} from '../core/review/reviewTypes.ts';
import type { RuntimeReport } from '../core/runtime/runtimeTypes.ts';
import type { KeyAction } from './label/keyMap.ts';

/**
 * An Evaluate report with the id the host gave it. A comparison names the report it is of and carries its id back,
 * so the view can drop one that arrives after a newer report (it would contradict the table beside it).
 */
export type TaggedReport = EvaluateReport & { reportId: number };
export type TaggedComparison = RunComparison & { reportId: number };

/** What a failed request carries back: something to show the user, not a stack. */
export interface ErrorValue {
  message: string;
  /**
   * The request is not wrong, the study's record could not take it now: `unreachable` (the server is gone, the
   * connection dropped) or `busy` (another writer holds the database). Sent again unchanged (a label commit with the
   * same commitId) it may succeed; the Label view retries its commit and never shows it saved meanwhile.
   */
  retry?: RetryReason;
}

export type RetryReason = 'unreachable' | 'busy';

/** The outcome of a request: the value, or the error as a value. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: ErrorValue };

/** No parameters. */
export type NoParams = Record<string, never>;

/**
 * Every request a webview can make: its parameters and the value of a successful reply.
 * Kinds are `<panel>/<verb>`; parameters and values must survive structured clone (plain JSON data).
 */
export interface RequestMap {
  /** Runtime panel: build the runtime report again (loads SQLite, opens a WAL database). */
  'runtime/check': { params: NoParams; value: RuntimeReport };
  /** Label view: the study, the queue and where the annotator was. */
  'label/session': { params: NoParams; value: SessionState };
  /** Label view: the pair at a queue position (null past the end); `current` records it as where the annotator is. */
  'label/pairAt': { params: { position: number; queueVersion: number; current: boolean }; value: PairView | null };
  /** Label view: commit a label (one transaction) and get the pair as it now is (others revealed in blind mode). */
  'label/commit': { params: CommitLabel & { queueVersion: number }; value: { progress: Progress; pair: PairView } };
  /** Label view: retract this annotator's last label of the session; null when there is nothing to undo. */
  'label/undo': { params: { queueVersion: number }; value: { progress: Progress; pair: PairView } | null };
  /** Label view: reorder or filter the queue (a new queue version). */
  'label/setQueue': { params: QueueSettings; value: SessionState };
  /** Label view: another document of the study (a neighbouring chunk), null when the corpus has none by that id. */
  'label/document': { params: { docid: string }; value: DocumentView | null };
  /** Label view: the study's guidelines file (Markdown), null when it declares none. */
  'label/guidelines': { params: NoParams; value: { path: string; markdown: string } | null };
  /** Agreement view: the study's agreement (binarised at `threshold` when given). */
  'agreement/report': { params: { threshold?: number }; value: AgreementDashboard };
  /** Agreement view: the confusion matrix of two annotators (human or LLM judge). */
  'agreement/confusion': { params: { a: string; b: string; threshold?: number }; value: ConfusionView };
  /**
   * Agreement view: open the disagreements of a cell (two annotators) or a row (a query), or all of them, as an
   * adjudication queue in the Label view; the number of pairs it holds.
   */
  'agreement/adjudicate': { params: AdjudicationSelection & { threshold?: number }; value: { pairs: number } };
  /**
   * Agreement view's Judges section: each LLM judge against the people's labels (confusion, κ with its interval,
   * accuracy, calibration, cost per 1,000 pairs, τ and τ_ap of the system rankings by `measure`, the gate).
   */
  'agreement/judges': { params: { measure?: string }; value: JudgeQualityReport };
  /**
   * Evaluate view: every pooled run against the study's labels from `from` (default: the study's export source);
   * with a `baseline` (a pooled query-only run), also IRS and p-MRR of the others against it.
   */
  'evaluate/report': { params: { from?: string; baseline?: string }; value: TaggedReport };
  /**
   * Evaluate view: run `b` against run `a` of report `reportId` (its numbers, not the labels as they are now):
   * paired tests per measure and the per-query differences, tagged with the same `reportId`.
   */
  'evaluate/compare': { params: { reportId: number; a: string; b: string }; value: TaggedComparison };
  /** Review view: the review, its item count and this reviewer's progress. */
  'review/state': { params: NoParams; value: ReviewState };
  /** Review view: the item at a position (null past the end), with versions, diff, findings and verdicts. */
  'review/itemAt': { params: { position: number }; value: ReviewItemView | null };
  /** Picks the queue (every item, one's items still to review, the disputed ones) and answers the new state. */
  'review/queue': { params: { queue: ReviewQueue }; value: ReviewState };
  /** Review view: store a verdict (an `edit` stores the new version first) and get the item as it now is. */
  'review/commit': { params: ReviewCommit; value: { state: ReviewState; item: ReviewItemView } };
  /** Review view: what the review decided so far — per type, and the reviewers' agreement on verdicts. */
  'review/summary': { params: NoParams; value: ReviewSummary };
}

/** Every event the host can push to a webview, with its data. Kinds are `<panel>/<what happened>`. */
export interface EventMap {
  /** Runtime panel: the report to show (sent once the panel is ready, again after it is re-shown). */
  'runtime/report': { result: Result<RuntimeReport> };
  /** Label view: start over with this session (annotator switched, study re-imported, panel restored). */
  'label/reset': { state: SessionState };
  /** Label view: pairs changed outside the view (an LLM judge wrote suggestions): fetch them again. */
  'label/refresh': NoParams;
  /** Label view: one of VS Code's keybindings for the view ran its command (next pair, undo, …): do it. */
  'label/keyAction': { action: KeyAction };
  /** Agreement view: labels changed (stored, undone, judged, imported): fetch the report again. */
  'agreement/refresh': NoParams;
  /** Evaluate view: labels changed: evaluate again. */
  'evaluate/refresh': NoParams;
}

export type RequestKind = keyof RequestMap;
export type EventKind = keyof EventMap;
export type RequestParams<K extends RequestKind> = RequestMap[K]['params'];
/** The value a successful reply to request `K` carries: `ReplyValue<'runtime/check'>` is `RuntimeReport`. */
export type ReplyValue<K extends RequestKind> = RequestMap[K]['value'];
export type EventData<K extends EventKind> = EventMap[K];

/** webview → host: the webview has mounted and subscribed; the host may now post events. */
export interface ReadyMessage {
  kind: 'ready';
}

/** webview → host: request `K` (a discriminated union over all kinds when `K` is left open). */
export type RequestMessage<K extends RequestKind = RequestKind> = {
  [P in K]: { kind: P; id: number; params: RequestParams<P> };
}[K];

/** host → webview: the outcome of request `id`. On the wire `value` is typed by the request the id belongs to. */
export type ReplyMessage<T = unknown> = { kind: 'reply'; id: number } & Result<T>;

/** host → webview: event `K` (a discriminated union over all kinds when `K` is left open). */
export type EventMessage<K extends EventKind = EventKind> = {
  [P in K]: { kind: P; data: EventData<P> };
}[K];

export type WebviewToHostMessage = ReadyMessage | RequestMessage;
export type HostToWebviewMessage = ReplyMessage | EventMessage;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/**
 * Shape check for what arrives on either side's message channel (both sides receive `unknown`). It checks the
 * envelope (kind and id); the data inside is trusted to match its kind because both ends compile against this file.
 */
export function isWebviewToHostMessage(value: unknown): value is WebviewToHostMessage {
  if (!isObject(value) || typeof value.kind !== 'string') return false;
  if (value.kind === 'ready') return true;
  return Number.isSafeInteger(value.id) && isObject(value.params);
}

export function isHostToWebviewMessage(value: unknown): value is HostToWebviewMessage {
  if (!isObject(value) || typeof value.kind !== 'string') return false;
  if (value.kind === 'reply') {
    return (
      Number.isSafeInteger(value.id) &&
      (value.ok === true || (value.ok === false && isObject(value.error) && typeof value.error.message === 'string'))
    );
  }
  return 'data' in value;
}

/** A thrown anything, as an error value. */
export function errorValue(error: unknown): ErrorValue {
  if (!(error instanceof Error)) return { message: String(error) };
  // Set by the host's handler that classified the failure (extension/panels/labelHandlers.ts).
  const retry = (error as { retry?: unknown }).retry;
  return { message: error.message, ...((retry === 'unreachable' || retry === 'busy') && { retry }) };
}
