// Runs the judge's jobs with a bounded number in flight. An endpoint serves a few requests at once well and many
// badly (rate limits, queueing), so `concurrency` workers take jobs in order. Stopping is cooperative: after the signal
// aborts no job starts, the jobs in flight see the aborted signal and decide themselves how to end (record what they
// have, return), and the call resolves once every started job has settled — nothing is left running behind it.
// A job that throws is counted and returned; it does not stop the others.
// The jobs may be an array or a lazy source (an iterator, sync or async, taken one job at a time as a worker is
// free): a 300,000-vote run then never holds more jobs than are in flight plus what its source looks ahead.

export interface SchedulerProgress {
  /** Jobs whose run() returned. */
  done: number;
  /** Jobs whose run() threw. */
  failed: number;
  /** The array's length; for a lazy source, the jobs taken so far. */
  total: number;
  inFlight: number;
}

export interface SchedulerOutcome<J> {
  done: number;
  failed: number;
  /** Jobs never started because the signal aborted first (an array's; a lazy source's are not counted: 0). */
  notStarted: number;
  errors: { job: J; error: unknown }[];
}

export async function runJobs<J>(
  jobs: readonly J[] | Iterable<J> | AsyncIterable<J>,
  options: {
    concurrency: number;
    signal?: AbortSignal;
    run(job: J, signal: AbortSignal): Promise<void>;
    /** Called when a job starts and when it settles; it must not throw. */
    onProgress?(progress: SchedulerProgress): void;
  },
): Promise<SchedulerOutcome<J>> {
  const { concurrency } = options;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError(`expected the concurrency to be a whole number ≥ 1, found ${concurrency}`);
  }
  const signal = options.signal ?? new AbortController().signal;
  const errors: { job: J; error: unknown }[] = [];
  const list = Array.isArray(jobs) ? (jobs as readonly J[]) : undefined;
  const source: Iterator<J> | AsyncIterator<J> | undefined =
    list !== undefined
      ? undefined
      : Symbol.asyncIterator in (jobs as object)
        ? (jobs as AsyncIterable<J>)[Symbol.asyncIterator]()
        : (jobs as Iterable<J>)[Symbol.iterator]();
  let next = 0;
  let exhausted = false;
  let sourceFailure: { error: unknown } | undefined;
  let done = 0;
  let failed = 0;
  let inFlight = 0;
  const report = () => options.onProgress?.({ done, failed, total: list?.length ?? next, inFlight });

  /** The next job, or undefined when there is none (an async source's next() calls queue up, one at a time). */
  async function take(): Promise<{ job: J } | undefined> {
    if (list !== undefined) return next < list.length ? { job: list[next++] as J } : undefined;
    if (exhausted) return undefined;
    let item: IteratorResult<J>;
    try {
      item = await source!.next();
    } catch (error) {
      // The source failed: nothing more starts, and once the started jobs have settled runJobs throws it.
      exhausted = true;
      sourceFailure ??= { error };
      return undefined;
    }
    if (item.done) {
      exhausted = true;
      return undefined;
    }
    next++;
    return { job: item.value };
  }

  async function worker(): Promise<void> {
    while (!signal.aborted) {
      const taken = await take();
      if (taken === undefined) return;
      // The source may have waited: a stop that came meanwhile still starts nothing.
      if (signal.aborted) {
        next--;
        return;
      }
      const { job } = taken;
      inFlight++;
      report();
      try {
        await options.run(job, signal);
        done++;
      } catch (error) {
        failed++;
        errors.push({ job, error });
      }
      inFlight--;
      report();
    }
  }

  const workers = Array.from({ length: list !== undefined ? Math.min(concurrency, list.length) : concurrency }, worker);
  try {
    await Promise.all(workers);
  } finally {
    // A lazy source stopped early is closed (its finally blocks run).
    if (source !== undefined && !exhausted) await source.return?.();
  }
  if (sourceFailure !== undefined) throw sourceFailure.error;
  return { done, failed, notStarted: list !== undefined ? list.length - next : 0, errors };
}
