// The worker thread of a two-thread eval (parallelEvaluation.ts): reads the second part of the qrels, hands it
// over, then reads and evaluates the second part of the run. Any error is reported as 'failed': the main thread
// then evaluates on one thread, which reports the error where it is.
import { parentPort } from 'node:worker_threads';
import { readQrelsPart } from '../../formats/trecQrels.ts';
import { QueryEvaluator } from '../evaluate.ts';
import { selectMeasures } from '../measureSelection.ts';
import { shareQrelsPart, TwoPartJudgments } from './qrelsParts.ts';
import { evaluateRunPart, type MainMessage, type WorkerMessage } from './runPart.ts';

const port = parentPort!;
const post = (message: WorkerMessage): void => port.postMessage(message);
const nextMessage = (): Promise<MainMessage> => new Promise((resolve) => port.once('message', resolve));

async function work(): Promise<void> {
  const first = await nextMessage();
  if (first.kind !== 'task') throw new Error(`expected the task, got '${first.kind}'`);
  const task = first.task;
  const evaluator = new QueryEvaluator({ ...task.options, measures: selectMeasures(task.measureSpecs).measures });
  const own = shareQrelsPart(await readQrelsPart(task.qrelsFile, task.qrelsRange, true));
  const next = nextMessage();
  post({ kind: 'qrels', part: own });
  const message = await next;
  if (message.kind === 'stop') return;
  if (message.kind !== 'run') throw new Error(`expected the run, got '${message.kind}'`);
  const judgments = TwoPartJudgments.of(message.part, own);
  if (!judgments) throw new Error('a qid is in both parts of the qrels');
  const texts: string[] | undefined = evaluator.hasText ? [] : undefined;
  const { runid, dataLines } = await evaluateRunPart(
    task.runFile,
    task.runRange,
    judgments,
    evaluator,
    message.numbers,
    texts,
    message.answered,
  );
  const posted: [number, string][] = [];
  texts?.forEach((text, index) => {
    posted.push([index, text]);
  });
  post({ kind: 'done', runid, dataLines, texts: posted });
}

work().catch((error: unknown) => {
  post({ kind: 'failed', reason: error instanceof Error ? error.message : String(error) });
});
