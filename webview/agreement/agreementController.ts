// The Agreement view's logic without React: it asks the host for the study's agreement report (binarised at the
// threshold picked, if any), the confusion matrix of the two annotators picked, and opens disagreements as an
// adjudication queue. The host owns the database and computes everything; this holds the latest answers and what
// the user picked (kept in VS Code's webview state, so a re-created view shows the same picks). React subscribes
// with useSyncExternalStore (subscribe/snapshot).
//
// Answers can arrive out of order (a refresh while a threshold change is on its way): each kind of request carries a
// sequence number and only the latest one's answer is used; a refresh while a report is on its way asks once more
// when it arrives, so the view never settles on labels older than the last change. The Judges section's report
// (each LLM judge against the people) is asked for beside it, on the same refreshes, by the same rules.
import type { AdjudicationSelection, AgreementDashboard, ConfusionView } from '../../core/agreement/agreementTypes.ts';
import type { JudgeQualityReport } from '../../core/judge/quality/judgeQualityTypes.ts';
import type { HostMessenger } from '../common/hostMessenger.ts';
import { orderedAnnotators, type PairMetric, pairMetrics, plural } from './agreementFormat.ts';

export interface ConfusionState {
  a?: string;
  b?: string;
  view?: ConfusionView;
  error?: string;
  loading: boolean;
}

export interface AdjudicationState {
  busy: boolean;
  /** What the last request did ("Opened 4 pairs …"), or why it did not. */
  message?: string;
  error?: string;
}

/** The Judges section: the quality report of every LLM judge (it does not depend on the threshold). */
export interface JudgesState {
  report?: JudgeQualityReport;
  /** The measure asked for (the study's first `measures`, else map, when none). */
  measure?: string;
  /** Why the last report could not be computed. */
  error?: string;
  loading: boolean;
}

export interface AgreementSnapshot {
  report?: AgreementDashboard;
  /** A report is on its way (the one shown, if any, stays until it arrives). */
  loading: boolean;
  /** Why the last report could not be computed. */
  error?: string;
  /** Binarise at label ≥ threshold; undefined: the labels as given. */
  threshold?: number;
  /** The scale's values and names, from the last report on the labels as given (the threshold picker offers them). */
  scale: { value: number; name: string }[];
  metric: PairMetric;
  confusion: ConfusionState;
  adjudication: AdjudicationState;
  judges: JudgesState;
}

/** What survives the view being hidden and re-created (VS Code's per-webview state). */
interface SavedPicks {
  threshold?: number;
  metric?: PairMetric;
  a?: string;
  b?: string;
}

function savedPicks(value: unknown): SavedPicks {
  if (typeof value !== 'object' || value === null) return {};
  const saved = value as Record<string, unknown>;
  return {
    ...(typeof saved.threshold === 'number' && Number.isFinite(saved.threshold) && { threshold: saved.threshold }),
    ...(pairMetrics.includes(saved.metric as PairMetric) && { metric: saved.metric as PairMetric }),
    ...(typeof saved.a === 'string' && { a: saved.a }),
    ...(typeof saved.b === 'string' && { b: saved.b }),
  };
}

/** The pair the confusion matrix starts with: a person and an LLM judge when there are both, else the first two. */
function defaultConfusionPair(report: AgreementDashboard): { a?: string; b?: string } {
  const ordered = orderedAnnotators(report);
  const human = ordered.find((x) => x.kind === 'human');
  const judge = ordered.find((x) => x.kind === 'llm');
  if (human && judge) return { a: human.name, b: judge.name };
  return { a: ordered[0]?.name, b: ordered[1]?.name };
}

/** What an adjudication request did, in words. */
function adjudicationMessage(selection: AdjudicationSelection, pairs: number): string {
  const n = plural(pairs, 'disagreement');
  switch (selection.kind) {
    case 'pair':
      return pairs === 0
        ? `${selection.a} and ${selection.b} do not disagree on any pair.`
        : `Opened ${n} of ${selection.a} and ${selection.b} in the Label view for adjudication.`;
    case 'query':
      return pairs === 0
        ? `Query ${selection.qid} has no disagreement to adjudicate.`
        : `Opened ${n} of query ${selection.qid} in the Label view for adjudication.`;
    case 'all':
      return pairs === 0 ? 'No disagreement to adjudicate.' : `Opened all ${n} in the Label view for adjudication.`;
  }
}

export class AgreementController {
  readonly #messenger: HostMessenger;
  #snapshot: AgreementSnapshot;
  readonly #listeners = new Set<() => void>();
  #reportSeq = 0;
  #confusionSeq = 0;
  #judgesSeq = 0;
  /** Labels changed while a report was on its way: ask again when it arrives. */
  #stale = false;
  #judgesStale = false;

  constructor(messenger: HostMessenger) {
    this.#messenger = messenger;
    const saved = savedPicks(messenger.getState());
    this.#snapshot = {
      loading: false,
      scale: [],
      metric: saved.metric ?? 'kappa',
      ...(saved.threshold !== undefined && { threshold: saved.threshold }),
      confusion: { loading: false, ...(saved.a !== undefined && { a: saved.a }), ...(saved.b && { b: saved.b }) },
      adjudication: { busy: false },
      judges: { loading: false },
    };
  }

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  snapshot = (): AgreementSnapshot => this.#snapshot;

  #update(patch: Partial<AgreementSnapshot>): void {
    this.#snapshot = { ...this.#snapshot, ...patch };
    const { threshold, metric, confusion } = this.#snapshot;
    this.#messenger.setState<SavedPicks>({
      ...(threshold !== undefined && { threshold }),
      metric,
      ...(confusion.a !== undefined && { a: confusion.a }),
      ...(confusion.b !== undefined && { b: confusion.b }),
    });
    for (const listener of this.#listeners) listener();
  }

  /** Subscribes to the host's refresh event, says ready, and asks for the report. */
  start(): () => void {
    const unsubscribe = this.#messenger.on('agreement/refresh', () => this.refresh());
    this.#messenger.ready();
    void this.#load();
    void this.#loadJudges();
    return unsubscribe;
  }

  /** The labels changed: the report (and the confusion matrix) again, and the judges' report. */
  refresh(): void {
    if (this.#snapshot.loading) this.#stale = true;
    else void this.#load();
    if (this.#snapshot.judges.loading) this.#judgesStale = true;
    else void this.#loadJudges();
  }

  async #loadJudges(): Promise<void> {
    const seq = ++this.#judgesSeq;
    this.#judgesStale = false;
    this.#update({ judges: { ...this.#snapshot.judges, loading: true } });
    const { measure } = this.#snapshot.judges;
    const reply = await this.#messenger.request('agreement/judges', measure === undefined ? {} : { measure });
    if (seq !== this.#judgesSeq) return;
    this.#update({
      judges: reply.ok
        ? { report: reply.value, loading: false, ...(measure !== undefined && { measure }) }
        : { ...this.#snapshot.judges, error: reply.error.message, loading: false },
    });
    if (this.#judgesStale) void this.#loadJudges();
  }

  async #load(): Promise<void> {
    const seq = ++this.#reportSeq;
    const threshold = this.#snapshot.threshold;
    this.#stale = false;
    this.#update({ loading: true });
    const reply = await this.#messenger.request('agreement/report', threshold === undefined ? {} : { threshold });
    if (seq !== this.#reportSeq) return;
    if (!reply.ok) {
      this.#update({ loading: false, error: reply.error.message });
    } else {
      const report = reply.value;
      const scale =
        report.threshold === undefined
          ? report.values.map((value, i) => ({ value, name: report.valueNames[i] ?? String(value) }))
          : this.#snapshot.scale;
      // Keep the confusion pair when both are still there; else start from the default pair.
      const names = new Set(report.annotators.map((x) => x.name));
      const { a, b } = this.#snapshot.confusion;
      const pair =
        a !== undefined && b !== undefined && names.has(a) && names.has(b) ? { a, b } : defaultConfusionPair(report);
      this.#update({
        report,
        loading: false,
        error: undefined,
        scale,
        confusion: { ...this.#snapshot.confusion, ...pair },
      });
      void this.#loadConfusion();
    }
    if (this.#stale) void this.#load();
  }

  async #loadConfusion(): Promise<void> {
    const seq = ++this.#confusionSeq;
    const { a, b } = this.#snapshot.confusion;
    const threshold = this.#snapshot.threshold;
    if (a === undefined || b === undefined || a === b) {
      this.#update({ confusion: { ...this.#snapshot.confusion, view: undefined, error: undefined, loading: false } });
      return;
    }
    this.#update({ confusion: { ...this.#snapshot.confusion, loading: true } });
    const reply = await this.#messenger.request('agreement/confusion', {
      a,
      b,
      ...(threshold !== undefined && { threshold }),
    });
    if (seq !== this.#confusionSeq) return;
    const confusion = this.#snapshot.confusion;
    this.#update({
      confusion: reply.ok
        ? { ...confusion, view: reply.value, error: undefined, loading: false }
        : { ...confusion, view: undefined, error: reply.error.message, loading: false },
    });
  }

  /** Rank the systems by `measure` (a trec_eval measure name; empty: the study's default) in the Judges section. */
  setJudgesMeasure(measure: string): void {
    const wanted = measure.trim() === '' ? undefined : measure.trim();
    const { measure: _previous, ...judges } = this.#snapshot.judges;
    this.#update({ judges: { ...judges, ...(wanted !== undefined && { measure: wanted }) } });
    void this.#loadJudges();
  }

  /** Binarise at label ≥ `threshold` (undefined: the labels as given), and ask for the report again. */
  setThreshold(threshold: number | undefined): void {
    if (threshold === this.#snapshot.threshold) return;
    this.#update({ threshold });
    void this.#load();
  }

  setMetric(metric: PairMetric): void {
    this.#update({ metric });
  }

  /** The confusion matrix of annotator `a` (rows) and `b` (columns). */
  setConfusionPair(a: string, b: string): void {
    this.#update({ confusion: { ...this.#snapshot.confusion, a, b } });
    void this.#loadConfusion();
  }

  /** Opens the disagreements of `selection` as an adjudication queue in the Label view. */
  async adjudicate(selection: AdjudicationSelection): Promise<void> {
    if (this.#snapshot.adjudication.busy) return;
    const threshold = this.#snapshot.threshold;
    this.#update({ adjudication: { busy: true } });
    const reply = await this.#messenger.request('agreement/adjudicate', {
      ...selection,
      ...(threshold !== undefined && { threshold }),
    });
    if (!reply.ok) {
      this.#update({ adjudication: { busy: false, error: `Not opened for adjudication: ${reply.error.message}` } });
    } else {
      this.#update({ adjudication: { busy: false, message: adjudicationMessage(selection, reply.value.pairs) } });
    }
  }
}
