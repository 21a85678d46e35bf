// `eval` of one run on two threads: the machine's second core reads half of each file while the first reads the
// other half (trec_eval reads and evaluates on one). Each file is cut at a query boundary near its middle
// (queryBoundary.ts); each thread reads its part of the qrels onto SharedArrayBuffers, the parts are exchanged,
// then each thread reads its part of the run and evaluates the queries it finds into one shared row per query. The
// main thread then sums and averages in qid order exactly as on one thread (finishEvaluation), so the output is the
// same. Whatever the two parts cannot do alone — a query in both parts of a file, an error anywhere, a qrels query
// the run lacks without -c — makes the caller evaluate on one thread, which reports errors where they are.
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import type { ByteRange } from '../../formats/lineReader.ts';
import { readQrelsPart } from '../../formats/trecQrels.ts';
import { type EvaluationOptions, finishEvaluation, QueryEvaluator, type RunEvaluation } from '../evaluate.ts';
import { shareQrelsPart, TwoPartJudgments } from './qrelsParts.ts';
import { groupedByQuery, queryBoundary } from './queryBoundary.ts';
import { evaluateRunPart, type MainMessage, type WorkerMessage } from './runPart.ts';
import {
  idleCore,
  minimumBytes,
  plainFileSize,
  startWorker,
  takeEarlyWorker,
  threadsWanted,
  workerFile,
} from './workerStart.ts';

/** The main thread's share of the qrels: the worker starts its part ~40 ms later (a Node instance to boot), and both
 * must have read their parts before either reads the run. */
const mainQrelsShare = 0.55;

interface TwoThreadPlan {
  qrels: [ByteRange, ByteRange];
  run: [ByteRange, ByteRange];
}

/** Above this many values a query printed by -q, eval stays on one thread unless forced. The per-query lines are
 * written by the main thread alone after both threads are done: with all_trec's ~120 values a query (10k queries ×
 * 100) writing them is ~0.15 s, two threads saved 3% of the wall time for 40% more CPU, and the second thread's
 * isolate (~27 MB) took the peak memory from 0.85× to 1.02× trec_eval's (interleaved medians, load 0.5–0.9). */
export const manyPerQueryValues = 32;

/** Each file's two parts, or why it is read on one thread. `perQueryValues`: the values a query -q prints (0
 * without -q). */
export function twoThreadPlan(
  qrelsFile: string,
  runFile: string,
  perQueryValues = 0,
): TwoThreadPlan | { reason: string } {
  const wanted = threadsWanted();
  if (wanted === 'one') return { reason: 'QRELS_STUDIO_EVAL_THREADS=1' };
  const sizes: number[] = [];
  for (const file of [qrelsFile, runFile]) {
    const size = plainFileSize(file);
    if (size === undefined) return { reason: `${file} is not a plain file (gzip, a pipe, or unreadable)` };
    sizes.push(size);
  }
  const [qrelsSize, runSize] = sizes as [number, number];
  if (wanted === 'auto' && perQueryValues > manyPerQueryValues)
    return { reason: `-q with ${perQueryValues} values a query (written by one thread: a second does not pay)` };
  if (wanted === 'auto' && qrelsSize + runSize < minimumBytes) return { reason: 'small files' };
  if (wanted === 'auto' && !idleCore()) return { reason: 'no idle core (load average)' };
  for (const file of [qrelsFile, runFile]) {
    if (!groupedByQuery(file)) return { reason: `${file} is not grouped by query` };
  }
  const qrelsCut = queryBoundary(qrelsFile, qrelsSize, mainQrelsShare);
  const runCut = queryBoundary(runFile, runSize);
  if (qrelsCut === undefined || runCut === undefined) return { reason: 'no query boundary near the middle' };
  return {
    qrels: [
      { start: 0, end: qrelsCut },
      { start: qrelsCut, end: qrelsSize },
    ],
    run: [
      { start: 0, end: runCut },
      { start: runCut, end: runSize },
    ],
  };
}

/** Messages of the worker in order; an error or exit of the worker reads as 'failed'. */
function workerMessages(worker: Worker): () => Promise<WorkerMessage> {
  const queue: WorkerMessage[] = [];
  let waiting: ((message: WorkerMessage) => void) | undefined;
  const push = (message: WorkerMessage): void => {
    if (waiting) {
      const resolve = waiting;
      waiting = undefined;
      resolve(message);
    } else queue.push(message);
  };
  worker.on('message', push);
  worker.on('error', (error) => push({ kind: 'failed', reason: `worker: ${error.message}` }));
  worker.on('exit', (code) => push({ kind: 'failed', reason: `worker exited (${code})` }));
  return () => {
    const next = queue.shift();
    if (next) return Promise.resolve(next);
    return new Promise((resolve) => {
      waiting = resolve;
    });
  };
}

/** What evaluateInTwoThreads did: the evaluation, or why the caller must evaluate on one thread. */
export type TwoThreadOutcome = { evaluation: RunEvaluation } | { oneThread: string };

/**
 * Evaluates one run against the qrels on two threads. `measureSpecs` are the specs `options.measures` was selected
 * from (the worker selects them again); `perQuery`: whether the values of each query will be printed (-q). The
 * evaluation equals readQrels + evaluateRunFile's; when the files do not allow it, or anything goes wrong,
 * `oneThread` says why and nothing is printed or kept.
 */
export async function evaluateInTwoThreads(
  qrelsFile: string,
  runFile: string,
  options: EvaluationOptions,
  measureSpecs: readonly string[],
  name = runFile,
  perQuery = false,
): Promise<TwoThreadOutcome> {
  const evaluator = new QueryEvaluator(options);
  const plan = twoThreadPlan(qrelsFile, runFile, perQuery ? evaluator.slotCount : 0);
  if ('reason' in plan) {
    void takeEarlyWorker()?.terminate(); // started on a guess (cli/startEvalWorkerEarly.ts): its memory goes now
    return { oneThread: plan.reason };
  }
  let worker = takeEarlyWorker();
  if (!worker) {
    const file = workerFile();
    if (file === undefined) return { oneThread: `no ${join(import.meta.dirname, 'evalWorker.cjs')}` };
    worker = startWorker(file);
  }
  const next = workerMessages(worker);
  const post = (message: MainMessage): void => worker.postMessage(message);
  const { measures: _measures, zscores: _zscores, ...workerOptions } = options;
  post({
    kind: 'task',
    task: {
      qrelsFile,
      qrelsRange: plan.qrels[1],
      runFile,
      runRange: plan.run[1],
      measureSpecs: [...measureSpecs],
      options: workerOptions,
    },
  });
  try {
    const own = await readQrelsPart(qrelsFile, plan.qrels[0], true);
    const theirs = await next();
    if (theirs.kind !== 'qrels') return { oneThread: theirs.kind === 'failed' ? theirs.reason : 'protocol' };
    const judgments = TwoPartJudgments.of(shareQrelsPart(own), theirs.part);
    if (!judgments) {
      post({ kind: 'stop' });
      return { oneThread: 'a qid is in both parts of the qrels (not grouped by query)' };
    }
    const queryCount = judgments.queryCount;
    if (queryCount === 0) return { oneThread: 'no judgments' };
    const numbers = new Float64Array(new SharedArrayBuffer(queryCount * evaluator.slotCount * 8));
    const answeredThere = new Uint8Array(new SharedArrayBuffer(queryCount));
    post({ kind: 'run', part: shareQrelsPart(own), numbers, answered: answeredThere });
    const texts: string[] | undefined = evaluator.hasText ? [] : undefined;
    const answered = new Uint8Array(queryCount);
    const here = await evaluateRunPart(runFile, plan.run[0], judgments, evaluator, numbers, texts, answered);
    const done = await next();
    if (done.kind !== 'done') return { oneThread: done.kind === 'failed' ? done.reason : 'protocol' };
    if (here.dataLines + done.dataLines === 0) return { oneThread: 'the run has no results' };
    for (let q = 0; q < queryCount; q++) {
      if (answeredThere[q] === 0) continue;
      if (answered[q] === 1) return { oneThread: 'a query is in both parts of the run (not grouped by query)' };
      answered[q] = 1;
    }
    if (!options.complete && answered.includes(0)) return { oneThread: 'a qrels query has no results (without -c)' };
    if (texts) for (const [index, text] of done.texts) texts[index] = text;
    return {
      evaluation: finishEvaluation({
        qrels: { queries: judgments.queries, file: qrelsFile },
        evaluator,
        options,
        numbers,
        ...(texts && { texts }),
        answered,
        runid: done.dataLines > 0 ? done.runid : here.runid,
        name,
      }),
    };
  } catch (error) {
    return { oneThread: error instanceof Error ? error.message : String(error) };
  } finally {
    worker.removeAllListeners();
    worker.on('error', () => {}); // the worker's fate no longer matters
    worker.unref();
    void worker.terminate();
  }
}
