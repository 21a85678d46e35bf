// Runs one fuzz target in a worker thread, so fuzz.test.ts can stop it if an input hangs (a synchronous loop
// would block the test runner itself): loads the target named in workerData, counts its inputs in the shared
// buffer, and posts back its report or its failure (fast-check's message: seed, path and counterexample).
import { inspect } from 'node:util';
import { parentPort, workerData } from 'node:worker_threads';
import { InputRecorder, type TargetReport } from './harness.ts';
import { fuzzTargets } from './registry.ts';

/** What the worker posts back. */
export type WorkerOutcome = { ok: true; report: TargetReport } | { ok: false; failure: string };

/** A failure as text, cut so a counterexample holding a 100 KB token stays readable. */
const maxFailureChars = 20_000;

const { id, progress } = workerData as { id: string; progress: SharedArrayBuffer };
let outcome: WorkerOutcome;
try {
  const entry = fuzzTargets.find((target) => target.id === id);
  if (!entry) throw new Error(`no fuzz target '${id}'`);
  const target = await entry.load();
  outcome = { ok: true, report: await target.run(new InputRecorder(progress)) };
} catch (error) {
  const text = inspect(error, { depth: 6, maxStringLength: 4_000 });
  outcome = { ok: false, failure: text.length > maxFailureChars ? `${text.slice(0, maxFailureChars)}…` : text };
}
parentPort!.postMessage(outcome);
