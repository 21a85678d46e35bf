// The worker thread of a two-thread eval (parallelEvaluation.ts): reads the qrels chunks it claims and hands them
// over, then, with every chunk known, reads and evaluates the run chunks it claims. Any error is reported as
// 'failed': the main thread then evaluates on one thread, which reports the error where it is.
import { parentPort } from 'node:worker_threads';
import { QueryEvaluator } from '../evaluate.ts';
import { selectMeasures } from '../measureSelection.ts';
import { QrelsChunks } from './chunkedJudgments.ts';
import {
  type ChunkShare,
  evaluateRunChunks,
  type MainMessage,
  readQrelsChunks,
  stopped,
  type WorkerMessage,
} from './chunkWork.ts';

const port = parentPort!;
const post = (message: WorkerMessage): void => port.postMessage(message);

// One listener from the start, queueing: a message that arrived while none listened would be lost. The main
// thread's qrels chunks are taken in as they come.
const queue: MainMessage[] = [];
let waiting: ((message: MainMessage) => void) | undefined;
let chunks: QrelsChunks | undefined;
port.on('message', (message: MainMessage) => {
  if (message.kind === 'task') chunks = new QrelsChunks(message.task.qrelsChunks.length);
  if (message.kind === 'qrelsChunk') chunks!.add(message.chunk, message.part);
  else if (waiting) {
    const resolve = waiting;
    waiting = undefined;
    resolve(message);
  } else queue.push(message);
});
const nextMessage = (): Promise<MainMessage> =>
  queue.length > 0
    ? Promise.resolve(queue.shift()!)
    : new Promise((resolve) => {
        waiting = resolve;
      });

let claims: Int32Array<ArrayBufferLike> | undefined;

async function work(): Promise<void> {
  const first = await nextMessage();
  if (first.kind !== 'task') throw new Error(`expected the task, got '${first.kind}'`);
  const task = first.task;
  claims = task.claims;
  const share: ChunkShare = task.alternate ? { claims, alternate: true, first: 1 } : { claims, alternate: false };
  const evaluator = new QueryEvaluator({ ...task.options, measures: selectMeasures(task.measureSpecs).measures });
  await readQrelsChunks(task.qrelsFile, task.qrelsChunks, share, (chunk, part) => {
    chunks!.add(chunk, part);
    post({ kind: 'qrelsChunk', chunk, part });
  });
  // The run's arrays, sent once the main thread has every chunk (its own came before).
  const message = await nextMessage();
  if (message.kind === 'stop') return;
  if (message.kind !== 'run') throw new Error(`expected the run, got '${message.kind}'`);
  const judgments = chunks!.judgments();
  if (!judgments) throw new Error('a qid is in two chunks of the qrels');
  await evaluateRunChunks(
    task.runFile,
    task.runChunks,
    share,
    judgments,
    evaluator,
    message.numbers,
    message.answered,
    (chunk, { runid, dataLines }, texts) => {
      // The indexes present only: texts is sparse (a text's index is in the whole run's rows), forEach would look
      // at every index below its length (~0.1 s a thread for all_trec's relstring on 10k queries).
      const posted: [number, string][] = [];
      if (texts) for (const [index, text] of Object.entries(texts)) posted.push([Number(index), text]);
      post({ kind: 'runChunk', chunk, runid, dataLines, texts: posted });
    },
  );
}

// Told once the code is loaded: the main thread changes V8 flags only then (see whenWorkerBooted).
post({ kind: 'booted' });
work().catch((error: unknown) => {
  if (claims) Atomics.store(claims, stopped, 1); // the main thread stops claiming chunks
  post({ kind: 'failed', reason: error instanceof Error ? error.message : String(error) });
});
