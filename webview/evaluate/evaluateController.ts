// The Evaluate view's logic without React: the report (every pooled run against the labels of one source), the
// comparison of two runs, and what the user picked (label source, sort, measure, the two runs), kept in VS Code's
// webview state. Only the latest answer of each kind is used (a refresh may overtake a source change), and a
// comparison only with the report it was computed from (its `reportId`): a new report drops the old comparison, and a
// comparison arriving after a newer report is dropped, so the view never shows one that contradicts its table.
import type { HostMessenger } from '../common/hostMessenger.ts';
import type { TaggedComparison, TaggedReport } from '../protocol.ts';

export interface EvaluateSnapshot {
  report?: TaggedReport;
  loading: boolean;
  error?: string;
  /** The label source asked for (undefined: the study's export source). */
  from?: string;
  /** The query-only run IRS and p-MRR compare the others with (undefined: none). */
  baseline?: string;
  /** The measure the table is sorted by (best first, or worst first when `ascending`), and the one detailed. */
  sortBy?: string;
  ascending?: boolean;
  measure?: string;
  /** The run whose per-query values are shown (undefined: none). */
  drill?: string;
  a?: string;
  b?: string;
  /** The comparison of runs `a` and `b` of `report` (always of that report: same `reportId`). */
  comparison?: TaggedComparison;
  comparisonError?: string;
}

interface SavedPicks {
  from?: string;
  baseline?: string;
  sortBy?: string;
  ascending?: boolean;
  measure?: string;
  drill?: string;
  a?: string;
  b?: string;
}

export class EvaluateController {
  readonly #messenger: HostMessenger;
  #snapshot: EvaluateSnapshot;
  readonly #listeners = new Set<() => void>();
  #reportSeq = 0;
  #compareSeq = 0;

  constructor(messenger: HostMessenger) {
    this.#messenger = messenger;
    const saved = (messenger.getState() ?? {}) as SavedPicks;
    const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
    this.#snapshot = {
      loading: false,
      ...(text(saved.from) && { from: text(saved.from) }),
      ...(text(saved.baseline) && { baseline: text(saved.baseline) }),
      ...(text(saved.sortBy) && { sortBy: text(saved.sortBy) }),
      ...(saved.ascending === true && { ascending: true }),
      ...(text(saved.measure) && { measure: text(saved.measure) }),
      ...(text(saved.drill) && { drill: text(saved.drill) }),
      ...(text(saved.a) && { a: text(saved.a) }),
      ...(text(saved.b) && { b: text(saved.b) }),
    };
  }

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  snapshot = (): EvaluateSnapshot => this.#snapshot;

  #update(patch: Partial<EvaluateSnapshot>): void {
    this.#snapshot = { ...this.#snapshot, ...patch };
    const { from, baseline, sortBy, ascending, measure, drill, a, b } = this.#snapshot;
    this.#messenger.setState<SavedPicks>({ from, baseline, sortBy, ascending, measure, drill, a, b });
    for (const listener of this.#listeners) listener();
  }

  start(): () => void {
    const unsubscribe = this.#messenger.on('evaluate/refresh', () => void this.load());
    this.#messenger.ready();
    void this.load();
    return unsubscribe;
  }

  async load(): Promise<void> {
    const seq = ++this.#reportSeq;
    this.#update({ loading: true });
    const { from, baseline } = this.#snapshot;
    const reply = await this.#messenger.request('evaluate/report', {
      ...(from !== undefined && { from }),
      ...(baseline !== undefined && { baseline }),
    });
    if (seq !== this.#reportSeq) return;
    if (!reply.ok) {
      this.#update({ loading: false, error: reply.error.message });
      return;
    }
    const report = reply.value;
    const runs = report.runs.map((r) => r.run);
    const keep = (pick: string | undefined, fallback: string | undefined) =>
      pick !== undefined && runs.includes(pick) ? pick : fallback;
    const measures = report.measures;
    const measure =
      this.#snapshot.measure && measures.includes(this.#snapshot.measure) ? this.#snapshot.measure : measures[0];
    this.#update({
      report,
      comparison: undefined,
      comparisonError: undefined,
      loading: false,
      error: undefined,
      a: keep(this.#snapshot.a, runs[0]),
      b: keep(this.#snapshot.b, runs[1]),
      drill: keep(this.#snapshot.drill, undefined),
      ...(measure !== undefined && { measure }),
    });
    void this.compare();
  }

  async compare(): Promise<void> {
    const seq = ++this.#compareSeq;
    const { report, a, b } = this.#snapshot;
    if (!report || a === undefined || b === undefined || a === b) {
      this.#update({ comparison: undefined, comparisonError: undefined });
      return;
    }
    const reply = await this.#messenger.request('evaluate/compare', { reportId: report.reportId, a, b });
    if (seq !== this.#compareSeq || this.#snapshot.report?.reportId !== report.reportId) return;
    if (reply.ok && reply.value.reportId !== report.reportId) return;
    this.#update(
      reply.ok
        ? { comparison: reply.value, comparisonError: undefined }
        : { comparison: undefined, comparisonError: reply.error.message },
    );
  }

  setFrom(from: string): void {
    this.#update({ from });
    void this.load();
  }

  /** The query-only run for IRS and p-MRR (undefined: none). */
  setBaseline(baseline: string | undefined): void {
    this.#update({ baseline });
    void this.load();
  }

  /** Sorts the runs by `measure`, best first; the same measure again turns the order round. */
  sortBy(measure: string): void {
    const ascending = this.#snapshot.sortBy === measure ? !this.#snapshot.ascending : false;
    this.#update({ sortBy: measure, ascending, measure });
  }

  /** Shows (or, for the run shown, hides) a run's per-query values. */
  drillInto(run: string): void {
    this.#update({ drill: this.#snapshot.drill === run ? undefined : run });
  }

  setMeasure(measure: string): void {
    this.#update({ measure });
  }

  setRuns(a: string, b: string): void {
    this.#update({ a, b });
    void this.compare();
  }
}
