// What each of the two threads does: read its part of the qrels (shared), then, once both parts are known, read
// its part of the run and evaluate the queries it finds into the shared per-query rows.
import type { ByteRange } from '../../formats/lineReader.ts';
import { readRunRange } from '../../formats/trecRun.ts';
import type { EvaluationOptions, QueryEvaluator } from '../evaluate.ts';
import type { SharedQrelsPart, TwoPartJudgments } from './qrelsParts.ts';

/** What the main thread tells the worker to do (its first message). */
export interface EvalWorkerTask {
  qrelsFile: string;
  qrelsRange: ByteRange;
  runFile: string;
  runRange: ByteRange;
  /** The trec_eval measures as given to selectMeasures (the worker selects them again: functions do not travel). */
  measureSpecs: string[];
  options: Omit<EvaluationOptions, 'measures' | 'zscores'>;
}

/** Messages between the threads, in order: main → task, worker → qrels, main → run (or stop), worker → done; failed
 * at any time. */
export type WorkerMessage =
  | { kind: 'qrels'; part: SharedQrelsPart }
  | { kind: 'done'; runid: string; dataLines: number; texts: [number, string][] }
  | { kind: 'failed'; reason: string };

export type MainMessage =
  | { kind: 'task'; task: EvalWorkerTask }
  | {
      kind: 'run';
      part: SharedQrelsPart;
      /** Row q: query q's values (shared with the main thread). */
      numbers: Float64Array<ArrayBufferLike>;
      /** 1 for each query the worker evaluated (shared). */
      answered: Uint8Array<ArrayBufferLike>;
    }
  | { kind: 'stop' };

/** Reads the run's lines in `range`, evaluating each query of the qrels it finds into row q of `numbers`. */
export async function evaluateRunPart(
  runFile: string,
  range: ByteRange,
  judgments: TwoPartJudgments,
  evaluator: QueryEvaluator,
  numbers: Float64Array<ArrayBufferLike>,
  texts: string[] | undefined,
  answered: Uint8Array<ArrayBufferLike>,
): Promise<{ runid: string; dataLines: number }> {
  const queries = judgments.queries;
  return readRunRange(runFile, judgments, range, (runQuery) => {
    const q = runQuery.query;
    const query = queries[q]!;
    evaluator.evaluate(numbers, texts, q, query.labelCounts, evaluator.rank(runQuery, query.qid, runFile));
    answered[q] = 1;
  });
}
