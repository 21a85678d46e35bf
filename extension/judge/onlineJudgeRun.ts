// The online judge run as "Run LLM judge" starts it, without `vscode` (the command shows what this reports in a
// progress notification; the tests run it in Node): with a budget (`budget 25 USD` in the judge block) the job is
// estimated first and refused beyond the budget — nothing sent — and the run is kept within it (spent + in flight);
// every progress is one line of words for the notification, spent / budget among them.
import type { JudgeModel, StudyModel } from '../../core/dsl/model.ts';
import { takeSendingRun } from '../../core/judge/batch/sendingRun.ts';
import type { JobEstimate } from '../../core/judge/budget/costEstimate.ts';
import { budgetedJob } from '../../core/judge/budget/jobEstimate.ts';
import type { OnlineBudget } from '../../core/judge/budget/onlineBudget.ts';
import type { ChatClient } from '../../core/judge/chatClient.ts';
import { formatCount, judgeProgressText, plural } from '../../core/judge/judgeProgressText.ts';
import { type JudgeRunPrompt, judgeAnnotatorName, judgeSetup } from '../../core/judge/judgeSetup.ts';
import { type JudgeReport, judgeStudy } from '../../core/judge/judgeStudy.ts';
import { modelPrice, type PriceTable } from '../../core/judge/priceTable.ts';
import type { StudyStore } from '../../core/store/studyStore.ts';

export interface OnlineJudgeRun {
  /** The study's judge to run, and its 1-based place among them (two judges may share a model). */
  judge: JudgeModel;
  place: number;
  /** Normalised (endpointApproval.ts). */
  endpoint: string;
  client: ChatClient;
  prompt: JudgeRunPrompt;
  prices: PriceTable;
  concurrency: number;
  /** Only these pairs: a retry online of what batches left unanswered. */
  pairIds?: ReadonlySet<number>;
  /**
   * The study's batch input folder, where the run marks itself under way (core/judge/batch/sendingRun.ts): a batch
   * submit of the same judge meanwhile is refused (SendingRunOverlap), as this run is when one is under way.
   */
  markerFolder?: string;
  signal?: AbortSignal;
  /** The estimate, once made (only with a budget): before anything is sent. */
  onEstimate?(estimate: JobEstimate): void;
  /** After every finished vote: the notification's words and the share done (0–100). */
  onProgress?(message: string, share: number): void;
}

/**
 * Runs the judge online. A BudgetRefusal (core/judge/budget/budgetGuard.ts) when the judge has a budget and the job's
 * estimate is over it or its model has no price: nothing was sent.
 */
export async function runOnlineJudge(store: StudyStore, study: StudyModel, run: OnlineJudgeRun): Promise<JudgeReport> {
  const place = String(run.place);
  let budget: OnlineBudget | undefined;
  if (run.judge.budget) {
    const job = await budgetedJob(
      store,
      study,
      {
        setup: judgeSetup(study, { judge: place, prompt: run.prompt }),
        prompt: run.prompt,
        endpoint: run.endpoint,
        prices: run.prices,
        mode: 'online',
        ...(run.pairIds && { pairIds: run.pairIds }),
      },
      run.judge.budget.amount,
    );
    run.onEstimate?.(job.estimate);
    budget = job.budget;
  }
  const priced = modelPrice(run.prices, run.judge.model) !== undefined;
  const release =
    run.markerFolder === undefined
      ? () => {}
      : takeSendingRun(run.markerFolder, judgeAnnotatorName(run.judge.model, run.prompt.hash), 'online');
  try {
    return await judgeOnline(store, study, run, place, priced, budget);
  } finally {
    release();
  }
}

function judgeOnline(
  store: StudyStore,
  study: StudyModel,
  run: OnlineJudgeRun,
  place: string,
  priced: boolean,
  budget: OnlineBudget | undefined,
): Promise<JudgeReport> {
  return judgeStudy(store, study, {
    judge: place,
    concurrency: run.concurrency,
    client: run.client,
    prompt: run.prompt,
    prices: run.prices,
    ...(budget && { budget }),
    ...(run.pairIds && { pairIds: run.pairIds }),
    ...(run.signal && { signal: run.signal }),
    onProgress(p) {
      run.onProgress?.(judgeProgressText(p, priced, run.judge.budget), p.total === 0 ? 0 : (100 * p.done) / p.total);
    },
  });
}

/**
 * The run's summary (the notification and the output channel): suggestions, calls, failures, how it stopped — and
 * the votes left out because open batches hold them, with what records them.
 */
export function onlineSummaryLine(report: JudgeReport): string {
  const count = formatCount;
  return (
    `judge ${report.judge}: ${count(report.suggestions)} suggestions over ${count(report.pairs)} pairs, ` +
    `${count(report.requests)} calls (${count(report.cached)} from the cache), ${count(report.failures)} failed` +
    (report.inOpenBatches
      ? `; ${plural(report.inOpenBatches, 'vote')} left out: open batches hold them — run "Batch status" to record them`
      : '') +
    (report.cancelled ? ' — cancelled: what was answered is stored' : '') +
    (report.stoppedAtBudget ? ` — stopped at the budget: ${count(report.stoppedAtBudget)} votes not asked` : '')
  );
}
