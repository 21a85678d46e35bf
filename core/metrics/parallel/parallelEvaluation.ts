// `eval` of one run on two threads: the machine's second core reads part of each file while the first reads the
// rest (trec_eval reads and evaluates on one). Each file is cut at query boundaries into chunks (queryChunks) that
// either thread claims when it is free (chunkWork.ts): the qrels chunks are read onto SharedArrayBuffers and
// exchanged, then the run chunks are read and each query found is evaluated into one shared row per query. The
// main thread then sums and averages in qid order exactly as on one thread (finishEvaluation), so the output is the
// same. Whatever the chunks cannot do alone — a query in two chunks of a file, an error anywhere, a qrels query the
// run lacks without -c — makes the caller evaluate on one thread, which reports errors where they are.
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import type { ByteRange } from '../../formats/lineReader.ts';
import { type EvaluationOptions, finishEvaluation, QueryEvaluator, type RunEvaluation } from '../evaluate.ts';
import { QrelsChunks } from './chunkedJudgments.ts';
import {
  type ChunkShare,
  evaluateRunChunks,
  type MainMessage,
  newClaims,
  type RunChunkResult,
  readQrelsChunks,
  stopped,
  type WorkerMessage,
} from './chunkWork.ts';
import { groupedByQuery, queryChunks } from './queryBoundary.ts';
import {
  type EarlyStarter,
  earlyStarter,
  idleCore,
  minimumBytes,
  plainFileSize,
  startWorker,
  stopWaitingForBoot,
  takeEarlyLook,
  takeEarlyWorker,
  threadsWanted,
  workerFile,
} from './workerStart.ts';

/** Each file's chunks, in file order. */
interface TwoThreadPlan {
  qrels: ByteRange[];
  run: ByteRange[];
}

/** Above this many values a query (all_trec's 98; the default measures' 30 stay below), eval stays on one thread
 * unless forced. With -q the per-query lines are written by the main thread alone after both threads are done:
 * with all_trec (10k queries × 100) writing them is ~0.15 s, two threads saved 3% of the wall time for 40% more CPU,
 * and the second thread's isolate (~27 MB) took the peak memory from 0.85× to 1.02× trec_eval's (interleaved
 * medians, load 0.5–0.9). Without -q the same: all_trec on two threads peaked at 0.99–1.01× trec_eval's memory,
 * on one 0.76× (125 vs 163–166 MiB, 5 interleaved rounds), in 0.7× its time. */
export const manyPerQueryValues = 32;

/** Each file's chunks, or why it is read on one thread. `perQueryValues`: the values eval finds for each query;
 * `perQuery`: whether -q prints them. */
export function twoThreadPlan(
  qrelsFile: string,
  runFile: string,
  perQueryValues = 0,
  perQuery = false,
): TwoThreadPlan | { reason: string } {
  const wanted = threadsWanted();
  if (wanted === 'one') return { reason: 'QRELS_STUDIO_EVAL_THREADS=1' };
  const files = [qrelsFile, runFile];
  const early = takeEarlyLook(files); // what the CLI's entry found out already (cli/startEvalWorkerEarly.ts)
  const sizes: number[] = [];
  for (const [i, file] of files.entries()) {
    const size = early ? early.sizes[i] : plainFileSize(file);
    if (size === undefined) return { reason: `${file} is not a plain file (gzip, a pipe, or unreadable)` };
    sizes.push(size);
  }
  const [qrelsSize, runSize] = sizes as [number, number];
  if (wanted === 'auto' && perQueryValues > manyPerQueryValues)
    return {
      reason: `${perQuery ? '-q with ' : ''}${perQueryValues} values a query (a second thread costs memory, saves little)`,
    };
  if (wanted === 'auto' && qrelsSize + runSize < minimumBytes) return { reason: 'small files' };
  if (wanted === 'auto' && !early && !idleCore()) return { reason: 'no idle core (load average)' };
  if (early?.ungrouped !== undefined) return { reason: `${early.ungrouped} is not grouped by query` };
  if (!early) {
    for (const [i, file] of files.entries()) {
      if (!groupedByQuery(file, i === 1)) return { reason: `${file} is not grouped by query` };
    }
  }
  const qrels = queryChunks(qrelsFile, qrelsSize);
  const run = queryChunks(runFile, runSize);
  if (qrels.length === 1 && run.length === 1) return { reason: 'no query boundary in either file' };
  return { qrels, run };
}

/** Messages of the worker in order; an error or exit of the worker reads as 'failed'. Its qrels chunks go to
 * `chunks` as they come (one is returned only to a caller already waiting). */
function workerMessages(worker: Worker, chunks: QrelsChunks): () => Promise<WorkerMessage> {
  const queue: WorkerMessage[] = [];
  let waiting: ((message: WorkerMessage) => void) | undefined;
  const push = (message: WorkerMessage): void => {
    if (waiting) {
      const resolve = waiting;
      waiting = undefined;
      resolve(message);
    } else queue.push(message);
  };
  worker.on('message', (message: WorkerMessage) => {
    if (message.kind === 'booted') return; // handled by startWorker
    if (message.kind === 'qrelsChunk') {
      chunks.add(message.chunk, message.part);
      if (waiting) push(message); // wakes the main thread waiting for the last chunks
    } else push(message);
  });
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
export type TwoThreadOutcome = { evaluation: RunEvaluation; startedBy: EarlyStarter | 'eval' } | { oneThread: string };

/**
 * Evaluates one run against the qrels on two threads. `measureSpecs` are the specs `options.measures` was selected
 * from (the worker selects them again); `perQuery`: whether the values of each query will be printed (-q). The
 * evaluation equals readQrels + evaluateRunFile's; when the files do not allow it, or anything goes wrong,
 * `oneThread` says why and nothing is printed or kept; `startedEarly`: the worker was the one the CLI's entry
 * started (cli/startEvalWorkerEarly.ts). `alternate` (tests): each thread reads every other chunk
 * of each file instead of claiming the next, so that both threads read some whatever their timing.
 */
export async function evaluateInTwoThreads(
  qrelsFile: string,
  runFile: string,
  options: EvaluationOptions,
  measureSpecs: readonly string[],
  name = runFile,
  perQuery = false,
  alternate = false,
): Promise<TwoThreadOutcome> {
  const evaluator = new QueryEvaluator(options);
  const plan = twoThreadPlan(qrelsFile, runFile, evaluator.slotCount, perQuery);
  if ('reason' in plan) {
    const early = takeEarlyWorker();
    if (early) {
      stopWaitingForBoot(early);
      void early.terminate(); // started on a guess (cli/startEvalWorkerEarly.ts): its memory goes now
    }
    return { oneThread: plan.reason };
  }
  let worker = takeEarlyWorker();
  const startedBy = worker ? (earlyStarter() ?? 'the CLI entry') : 'eval';
  if (!worker) {
    const file = workerFile();
    if (file === undefined) return { oneThread: `no ${join(import.meta.dirname, 'evalWorker.cjs')}` };
    worker = startWorker(file);
  }
  const chunks = new QrelsChunks(plan.qrels.length);
  const next = workerMessages(worker, chunks);
  const post = (message: MainMessage): void => worker.postMessage(message);
  const claims = newClaims();
  const share: ChunkShare = alternate ? { claims, alternate, first: 0 } : { claims, alternate };
  const { measures: _measures, zscores: _zscores, ...workerOptions } = options;
  post({
    kind: 'task',
    task: {
      qrelsFile,
      qrelsChunks: plan.qrels,
      runFile,
      runChunks: plan.run,
      claims,
      alternate,
      measureSpecs: [...measureSpecs],
      options: workerOptions,
    },
  });
  try {
    // The qrels: every chunk, whichever thread read it, before any run chunk is read.
    await readQrelsChunks(qrelsFile, plan.qrels, share, (chunk, part) => {
      chunks.add(chunk, part);
      post({ kind: 'qrelsChunk', chunk, part });
    });
    while (!chunks.complete) {
      const message = await next();
      if (message.kind !== 'qrelsChunk') return { oneThread: failure(message) };
    }
    const judgments = chunks.judgments();
    if (!judgments) {
      post({ kind: 'stop' });
      return { oneThread: 'a qid is in two chunks of the qrels (not grouped by query)' };
    }
    const queryCount = judgments.queryCount;
    if (queryCount === 0) return { oneThread: 'no judgments' };
    const numbers = new Float64Array(new SharedArrayBuffer(queryCount * evaluator.slotCount * 8));
    const answered = new Uint8Array(new SharedArrayBuffer(queryCount));
    post({ kind: 'run', numbers, answered });

    // The run: each chunk's runid and lines, whichever thread read it.
    const results: RunChunkResult[] = [];
    const texts: string[] | undefined = evaluator.hasText ? [] : undefined;
    let done = 0;
    await evaluateRunChunks(runFile, plan.run, share, judgments, evaluator, numbers, answered, (chunk, result, own) => {
      results[chunk] = result;
      done++;
      // The indexes present only: own is sparse (a text's index is in the whole run's rows), forEach would look at
      // every index below its length (~0.1 s a thread for all_trec's relstring on 10k queries).
      if (own) for (const [index, text] of Object.entries(own)) texts![Number(index)] = text;
    });
    for (; done < plan.run.length; done++) {
      const message = await next();
      if (message.kind !== 'runChunk') return { oneThread: failure(message) };
      results[message.chunk] = message;
      for (const [index, text] of message.texts) texts![index] = text;
    }
    // The run's runid is its last data line's: the last chunk with data lines has it.
    const last = results.findLast((result) => result.dataLines > 0);
    if (!last) return { oneThread: 'the run has no results' };
    if (!options.complete && answered.includes(0)) return { oneThread: 'a qrels query has no results (without -c)' };
    return {
      evaluation: finishEvaluation({
        qrels: { queries: judgments.queries, file: qrelsFile },
        evaluator,
        options,
        numbers,
        ...(texts && { texts }),
        answered,
        runid: last.runid,
        name,
      }),
      startedBy,
    };
  } catch (error) {
    Atomics.store(claims, stopped, 1); // the worker stops claiming chunks
    return { oneThread: error instanceof Error ? error.message : String(error) };
  } finally {
    stopWaitingForBoot(worker);
    worker.removeAllListeners();
    worker.on('error', () => {}); // the worker's fate no longer matters
    worker.unref();
    void worker.terminate();
  }
}

/** Why a message of the worker ends the two-thread evaluation. */
function failure(message: WorkerMessage): string {
  return message.kind === 'failed' ? message.reason : `protocol: '${message.kind}'`;
}
