// What both threads of a two-thread eval do: claim the next chunk of the qrels (then of the run) until none is left,
// so that whichever thread is free does the next piece of work — the worker, which boots while the main thread
// has started reading, simply takes fewer chunks — and the messages between the threads.
import type { ByteRange } from '../../formats/lineReader.ts';
import { readQrelsPart } from '../../formats/trecQrels.ts';
import { readRunRange } from '../../formats/trecRun.ts';
import type { EvaluationOptions, QueryEvaluator } from '../evaluate.ts';
import type { ChunkedJudgments } from './chunkedJudgments.ts';
import { type SharedQrelsPart, shareQrelsPart } from './qrelsParts.ts';

/** What the main thread tells the worker to do (its first message). */
export interface EvalWorkerTask {
  qrelsFile: string;
  qrelsChunks: ByteRange[];
  runFile: string;
  runChunks: ByteRange[];
  /** Shared counters, [qrelsClaims] and [runClaims]: the next chunk of each file a thread may take; [stopped]: 1
   * once either thread has given up (the other then stops claiming). */
  claims: Int32Array<ArrayBufferLike>;
  /** Each thread takes every other chunk (main the even ones) instead of claiming: tests, for both threads to read
   * some of each file whatever their timing. */
  alternate: boolean;
  /** The trec_eval measures as given to selectMeasures (the worker selects them again: functions do not travel). */
  measureSpecs: string[];
  options: Omit<EvaluationOptions, 'measures' | 'zscores'>;
}

export const qrelsClaims = 0;
export const runClaims = 1;
export const stopped = 2;

/** The shared counters of a task (EvalWorkerTask.claims). */
export function newClaims(): Int32Array<SharedArrayBuffer> {
  return new Int32Array(new SharedArrayBuffer(3 * 4));
}

/** Which chunks a thread takes: the next unclaimed one, or (tests) every other one from `first` on. */
export type ChunkShare = { claims: Int32Array<ArrayBufferLike> } & (
  | { alternate: false }
  | { alternate: true; first: 0 | 1 }
);

/** The chunks of a file this thread takes, one by one, until there is none left or the other thread gave up. */
function* taken(share: ChunkShare, slot: number, count: number): Generator<number> {
  for (let turn = 0; Atomics.load(share.claims, stopped) === 0; turn++) {
    const chunk = share.alternate ? share.first + 2 * turn : Atomics.add(share.claims, slot, 1);
    if (chunk >= count) return;
    yield chunk;
  }
}

/** A run chunk's result (the runid is the last data line's: the last chunk with data lines gives the run's). */
export interface RunChunkResult {
  runid: string;
  dataLines: number;
}

/** Messages of the worker: booted once its code is loaded, each chunk as it is done; failed at any time (after
 * setting `stopped`). */
export type WorkerMessage =
  | { kind: 'booted' }
  | { kind: 'qrelsChunk'; chunk: number; part: SharedQrelsPart }
  | ({ kind: 'runChunk'; chunk: number; texts: [number, string][] } & RunChunkResult)
  | { kind: 'failed'; reason: string };

/** Messages of the main thread, in order: task, each qrels chunk it read, then run (or stop) once it has every
 * qrels chunk. The chunks go over as they are read: the worker receives them while it reads its own, and has them
 * all when the run's arrays come. */
export type MainMessage =
  | { kind: 'task'; task: EvalWorkerTask }
  | { kind: 'qrelsChunk'; chunk: number; part: SharedQrelsPart }
  | {
      kind: 'run';
      /** Row q: query q's values (shared). */
      numbers: Float64Array<ArrayBufferLike>;
      /** 1 for each query evaluated by either thread (shared). */
      answered: Uint8Array<ArrayBufferLike>;
    }
  | { kind: 'stop' };

/** Reads the qrels chunks this thread claims, handing each over as it is read. */
export async function readQrelsChunks(
  file: string,
  chunks: readonly ByteRange[],
  share: ChunkShare,
  onChunk: (chunk: number, part: SharedQrelsPart) => void,
): Promise<void> {
  for (const chunk of taken(share, qrelsClaims, chunks.length)) {
    onChunk(chunk, shareQrelsPart(await readQrelsPart(file, chunks[chunk], true)));
    // The chunks the other thread has sent meanwhile are taken in now (the reader yields only every few MB), not
    // all at the end, where both threads would wait for them.
    await new Promise(setImmediate);
  }
}

/**
 * Reads and evaluates the run chunks this thread claims, each query into row q of `numbers`; a query that the
 * other thread (or an earlier chunk) has evaluated already is an error: the run is not grouped by query, and the
 * caller evaluates on one thread.
 */
export async function evaluateRunChunks(
  file: string,
  chunks: readonly ByteRange[],
  share: ChunkShare,
  judgments: ChunkedJudgments,
  evaluator: QueryEvaluator,
  numbers: Float64Array<ArrayBufferLike>,
  answered: Uint8Array<ArrayBufferLike>,
  onChunk: (chunk: number, result: RunChunkResult, texts: string[] | undefined) => void,
): Promise<void> {
  const queries = judgments.queries;
  for (const chunk of taken(share, runClaims, chunks.length)) {
    const texts: string[] | undefined = evaluator.hasText ? [] : undefined;
    const result = await readRunRange(file, judgments, chunks[chunk]!, (runQuery) => {
      const q = runQuery.query;
      if (Atomics.exchange(answered, q, 1) === 1) {
        throw new Error('a query is in two chunks of the run (not grouped by query)');
      }
      const query = queries[q]!;
      evaluator.evaluate(numbers, texts, q, query.labelCounts, evaluator.rank(runQuery, query.qid, file));
    });
    onChunk(chunk, result, texts);
  }
}
