// The seeded fuzz suite: over 100,000 random and mutated inputs fed to core/lint (lintText, IncrementalLint,
// lintFile), the TREC readers (readQrels, readRunByQuery), the record linter (lintRecordText) and the study DSL
// (parser, checks, editor services). Proves, for every input: no exception escapes (the readers reject only with
// their documented errors), no call exceeds a time bound linear in the input's size, every diagnostic range is
// valid and sorted, and the incremental lint agrees with the whole-text lint. Seeds are fixed: CI replays the same
// inputs; a failure prints fast-check's seed and path to replay it.
//
// Each target runs in a worker thread watched from here: when no new input starts for `stallLimitMs`, the worker
// is stopped and the test fails with the input it was running, so even a synchronous infinite loop fails the test
// instead of blocking it. The bugs it found are fixed; their minimal counterexamples are regressions.test.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { describeRunningInput, progressBufferBytes, startedInputs, type TargetReport } from './harness.ts';
import { type FuzzTargetEntry, fuzzTargets } from './registry.ts';
import type { WorkerOutcome } from './worker.ts';

/** Inputs the suite must feed in total. */
const requiredInputs = 100_000;
/** A worker that starts no new input for this long is hung. Far above any one input's time bound. */
const stallLimitMs = 30_000;
/** Per target, in case the watchdog itself fails (a target takes 5–35 s; more on a loaded machine). */
const targetTimeoutMs = 300_000;

/** The worker's stack as large as a main thread's (V8's default, ~1 MB), so stack overflows show as in the CLI. */
const workerStackMb = 1;

function runInWorker(entry: FuzzTargetEntry): Promise<TargetReport> {
  const progress = new SharedArrayBuffer(progressBufferBytes);
  const worker = new Worker(new URL('./worker.ts', import.meta.url), {
    workerData: { id: entry.id, progress },
    resourceLimits: { stackSizeMb: workerStackMb },
  });
  return new Promise((resolve, reject) => {
    let settled = false;
    let lastStarted = -1;
    let lastProgressAt = performance.now();
    const settle = (error: Error | undefined, report?: TargetReport) => {
      if (settled) return;
      settled = true;
      clearInterval(watchdog);
      void worker.terminate();
      if (error) reject(error);
      else resolve(report!);
    };
    const watchdog = setInterval(() => {
      const started = startedInputs(progress);
      if (started !== lastStarted) {
        lastStarted = started;
        lastProgressAt = performance.now();
      } else if (performance.now() - lastProgressAt > stallLimitMs) {
        settle(new Error(`${entry.id}: hung for ${stallLimitMs / 1000} s on ${describeRunningInput(progress)}`));
      }
    }, 250);
    worker.once('message', (outcome: WorkerOutcome) => {
      if (outcome.ok) settle(undefined, outcome.report);
      else settle(new Error(`${entry.id} failed:\n${outcome.failure}`));
    });
    worker.once('error', (error) => settle(error));
    worker.once('exit', (code) => settle(new Error(`${entry.id}: the worker exited (code ${code}) without a report`)));
  });
}

const suiteStart = performance.now();
const inputsByTarget = new Map<string, number>();

for (const entry of fuzzTargets) {
  test(entry.title, { timeout: targetTimeoutMs }, async (t) => {
    const start = performance.now();
    const report = await runInWorker(entry);
    const inputs = Object.values(report.inputs).reduce((sum, n) => sum + n, 0);
    inputsByTarget.set(entry.id, inputs);
    t.diagnostic(
      `${inputs} inputs in ${((performance.now() - start) / 1000).toFixed(1)} s: ${JSON.stringify(report.inputs)}`,
    );
    t.diagnostic(`ms per property: ${JSON.stringify(report.durations)}`);
  });
}

test(`the fuzz suite feeds at least ${requiredInputs.toLocaleString('en')} inputs in total`, (t) => {
  const total = [...inputsByTarget.values()].reduce((sum, n) => sum + n, 0);
  t.diagnostic(`${total} inputs in total in ${((performance.now() - suiteStart) / 1000).toFixed(1)} s`);
  assert.equal(inputsByTarget.size, fuzzTargets.length, 'every target ran to the end');
  assert.ok(total >= requiredInputs, `only ${total} inputs`);
});
