// Runs the judge's jobs with a bounded number in flight. An endpoint serves a few requests at once well and many
// badly (rate limits, queueing), so `concurrency` workers take jobs in order. Stopping is cooperative: after the signal
// aborts no job starts, the jobs in flight see the aborted signal and decide themselves how to end (record what they
// have, return), and the call resolves once every started job has settled — nothing is left running behind it.
// A job that throws is counted and returned; it does not stop the others.

export interface SchedulerProgress {
  /** Jobs whose run() returned. */
  done: number;
  /** Jobs whose run() threw. */
  failed: number;
  total: number;
  inFlight: number;
}

export interface SchedulerOutcome<J> {
  done: number;
  failed: number;
  /** Jobs never started because the signal aborted first. */
  notStarted: number;
  errors: { job: J; error: unknown }[];
}

export async function runJobs<J>(
  jobs: readonly J[],
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
  let next = 0;
  let done = 0;
  let failed = 0;
  let inFlight = 0;
  const report = () => options.onProgress?.({ done, failed, total: jobs.length, inFlight });

  async function worker(): Promise<void> {
    while (!signal.aborted && next < jobs.length) {
      const job = jobs[next++] as J;
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

  const workers = Array.from({ length: Math.min(concurrency, jobs.length) }, worker);
  await Promise.all(workers);
  return { done, failed, notStarted: jobs.length - next, errors };
}
