// The estimate of one judge job of a study — what the CLI's --estimate prints, what a budget is checked against
// before an online run starts and before a batch is uploaded: the votes still to send (pendingVotes.ts), counted with
// the model's tokenizer and priced online or at batch prices (priceTable.ts batchModelPrice). With a budget,
// `budgetedJob` is the check that comes before anything is sent: it refuses (BudgetRefusal) a job whose estimate is
// over the budget or whose model has no price, and gives an online run the guard judgeStudy.ts asks before each call.
import type { StudyModel } from '../../dsl/model.ts';
import type { StudyStore } from '../../store/studyStore.ts';
import type { PairSelection } from '../judgePairs.ts';
import type { JudgeRunPrompt, JudgeSetup } from '../judgeSetup.ts';
import { batchModelPrice, modelPrice, type PriceTable } from '../priceTable.ts';
import { checkBudget, priceForBudget } from './budgetGuard.ts';
import { estimateJobCost, type JobEstimate } from './costEstimate.ts';
import { OnlineBudget } from './onlineBudget.ts';
import { pendingVotes } from './pendingVotes.ts';
import { tokenCounter } from './tokenCount.ts';

export interface JudgeJobToEstimate extends PairSelection {
  /** judgeSetup.ts judgeSetup(): the judge and its settled choices. */
  setup: JudgeSetup;
  prompt: JudgeRunPrompt;
  /** Normalised (endpointApproval.ts normaliseEndpoint). */
  endpoint: string;
  prices: PriceTable;
  /** Prices given for the Batch API (else half the online ones). */
  batchPrices?: PriceTable;
  mode: 'online' | 'batch';
}

export async function estimateJudgeJob(
  store: StudyStore,
  study: StudyModel,
  job: JudgeJobToEstimate,
): Promise<JobEstimate> {
  const model = job.setup.judge.model;
  const price =
    job.mode === 'batch' ? batchModelPrice(job.prices, model, job.batchPrices) : modelPrice(job.prices, model);
  const requests = pendingVotes(store, study, {
    setup: job.setup,
    prompt: job.prompt,
    endpoint: job.endpoint,
    ...(job.limit !== undefined && { limit: job.limit }),
    ...(job.onlyUnlabelled !== undefined && { onlyUnlabelled: job.onlyUnlabelled }),
    ...(job.pairIds !== undefined && { pairIds: job.pairIds }),
  });
  return estimateJobCost(requests, {
    model,
    counter: await tokenCounter(model),
    ...(price !== undefined && { price }),
    priceKind: job.mode,
  });
}

/**
 * A job's estimate checked against `amount` USD before anything is sent: a BudgetRefusal when it is over, or when the
 * model has no price (checked first, without counting anything); otherwise the estimate and, for an online run, the
 * budget judgeStudy.ts keeps it within (JudgeStudyOptions.budget).
 */
export async function budgetedJob(
  store: StudyStore,
  study: StudyModel,
  job: JudgeJobToEstimate,
  amount: number,
): Promise<{ estimate: JobEstimate; budget: OnlineBudget }> {
  const model = job.setup.judge.model;
  const price = priceForBudget(
    model,
    job.mode === 'batch' ? batchModelPrice(job.prices, model, job.batchPrices) : modelPrice(job.prices, model),
    amount,
  );
  const estimate = await estimateJudgeJob(store, study, job);
  checkBudget(estimate, amount);
  return { estimate, budget: new OnlineBudget({ amount, model, price, counter: await tokenCounter(model) }) };
}
