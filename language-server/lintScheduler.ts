// When to lint which document: a change waits `delayMs` for the next keystroke (per document, so typing in one file
// does not hold back another), and a newer request for a document replaces the one still waiting — a superseded
// run never starts. Linting itself is synchronous (core/lint over the text in memory), so a run that has started
// cannot be overtaken by an edit: the text it lints is the text its diagnostics are published for.
export class LintScheduler {
  private readonly run: (uri: string) => void;
  private readonly delayMs: number;
  private readonly waiting = new Map<string, NodeJS.Timeout>();

  constructor(run: (uri: string) => void, delayMs: number) {
    this.run = run;
    this.delayMs = delayMs;
  }

  /** Lints `uri` after the delay, unless another request for it comes first (which starts the wait again). */
  schedule(uri: string): void {
    this.cancel(uri);
    this.waiting.set(
      uri,
      setTimeout(() => {
        this.waiting.delete(uri);
        this.run(uri);
      }, this.delayMs),
    );
  }

  /** Lints `uri` now; a run waiting for it is dropped. */
  runNow(uri: string): void {
    this.cancel(uri);
    this.run(uri);
  }

  /** Drops the run waiting for `uri`, if any. */
  cancel(uri: string): void {
    const timer = this.waiting.get(uri);
    if (timer === undefined) return;
    clearTimeout(timer);
    this.waiting.delete(uri);
  }

  /** Drops every waiting run. */
  dispose(): void {
    for (const timer of this.waiting.values()) clearTimeout(timer);
    this.waiting.clear();
  }
}
