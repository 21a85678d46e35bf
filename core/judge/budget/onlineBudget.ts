// The budget of an online judge run, as judgeStudy.ts asks it: before each call, `admit` estimates the call from its
// prompt (costEstimate.ts, the model's tokenizer) and lets it start only while spent + in flight + this call stays
// within the budget (budgetGuard.ts); after it, `settle` books what it really cost. A vote's prompt is the same for
// all its votes, so its count is remembered for the next few calls rather than tokenised again.
import type { ChatFailureKind } from '../chatClient.ts';
import { callCost, type ModelPrice } from '../priceTable.ts';
import { BudgetGuard, type BudgetState, type BudgetTicket } from './budgetGuard.ts';
import { CallEstimator, type RequestToEstimate, tokensCost } from './costEstimate.ts';
import type { TokenCounter } from './tokenCount.ts';

/** Failures after which the provider may still have billed the call (it ran, the answer was lost on the way). */
const maybeBilled = new Set<ChatFailureKind>(['timeout', 'connection', 'cancelled']);

/** Prompts whose estimate is remembered (a pair's votes follow each other closely). */
const rememberedPrompts = 1024;

export class OnlineBudget {
  readonly model: string;
  readonly price: ModelPrice;
  private readonly guard: BudgetGuard;
  private readonly estimator: CallEstimator;
  private readonly byPrompt = new Map<string, number>();

  constructor(options: { amount: number; model: string; price: ModelPrice; counter: TokenCounter }) {
    this.guard = new BudgetGuard(options.amount);
    this.model = options.model;
    this.price = options.price;
    this.estimator = new CallEstimator(options.counter);
  }

  get amount(): number {
    return this.guard.amount;
  }

  /** True once a call was refused: the run stops at the budget. */
  get stopped(): boolean {
    return this.guard.stopped;
  }

  /** This call's estimate in USD. */
  estimate(request: Omit<RequestToEstimate, 'calls'>): number {
    const key = `${request.maxTokens ?? ''}\u0000${request.prompt}`;
    let cost = this.byPrompt.get(key);
    if (cost === undefined) {
      cost = tokensCost(this.price, this.estimator.tokens(request));
      if (this.byPrompt.size >= rememberedPrompts) this.byPrompt.delete(this.byPrompt.keys().next().value!);
      this.byPrompt.set(key, cost);
    }
    return cost;
  }

  /** A ticket when the call may start; undefined when it would pass the budget (and then no call starts again). */
  admit(request: Omit<RequestToEstimate, 'calls'>): BudgetTicket | undefined {
    if (this.guard.stopped) return this.guard.reserve(0);
    return this.guard.reserve(this.estimate(request));
  }

  /** The call was answered: its tokens as the endpoint reported them (none reported: its estimate counts). */
  answered(ticket: BudgetTicket, inputTokens?: number, outputTokens?: number): void {
    this.guard.settle(ticket, callCost({ [this.model]: this.price }, this.model, inputTokens, outputTokens));
  }

  /** The call got no answer: refused requests cost nothing; one that may have run counts at its estimate. */
  failed(ticket: BudgetTicket, kind: ChatFailureKind, attempts: number): void {
    this.guard.settle(ticket, attempts > 0 && maybeBilled.has(kind) ? undefined : 0);
  }

  state(): BudgetState {
    return this.guard.state();
  }
}
