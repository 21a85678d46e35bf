// Keeping a judge run within its budget (`budget 25 USD` in the judge block, or the CLI's --budget). Two guards:
// before the run, the whole job's estimate (costEstimate.ts) against the budget — over it, or a model without a
// price, and nothing is sent; during an online run, each call asks before it starts, and is let through only while
// what was spent plus what is in flight (counted at its estimate) plus its own estimate stays within the budget. Once
// one call is refused no other starts, so the run stops at the budget: calls in flight finish and are recorded
// (nothing paid for is lost), and a cheaper call later in the queue does not slip past.
import { formatCost, formatCount } from '../judgeProgressText.ts';
import type { ModelPrice } from '../priceTable.ts';
import type { JobEstimate } from './costEstimate.ts';
import { describeCounting } from './tokenCount.ts';

/** A run refused before anything was sent: over its budget, or a budget that cannot be kept. */
export class BudgetRefusal extends Error {
  override name = 'BudgetRefusal';
}

const usd = formatCost;

/** The price a budgeted run is checked with; a BudgetRefusal saying why when the model has none. */
export function priceForBudget(model: string, price: ModelPrice | undefined, budget: number): ModelPrice {
  if (price === undefined) {
    throw new BudgetRefusal(
      `refusing to start: judge '${model}' has a budget of ${usd(budget)} but no price, so its cost cannot be ` +
        `estimated or kept — give one with --price ${model}=INPUT,OUTPUT (USD per million tokens); nothing was sent`,
    );
  }
  return price;
}

/** Refuses (BudgetRefusal, nothing sent) when the estimate is over the budget or has no cost. */
export function checkBudget(estimate: JobEstimate, budget: number): void {
  const price = priceForBudget(estimate.model, estimate.price, budget);
  const cost = estimate.cost ?? 0;
  if (cost > budget) {
    throw new BudgetRefusal(
      `refusing to start: the estimated cost ${formatCost(cost)} is over the budget ${usd(budget)} ` +
        `(${formatCount(estimate.calls)} calls at ${price.inputPerMillion}/${price.outputPerMillion} USD per million ` +
        `${estimate.priceKind} input/output tokens); nothing was sent — raise the budget, or judge fewer pairs (--limit)`,
    );
  }
}

/** The estimate as the CLI prints it: what was counted, what was estimated and from what. */
export function estimateText(estimate: JobEstimate, budget?: number): string {
  const output =
    estimate.outputBasis === 'max_tokens'
      ? "at most the judge's max_tokens a call (an upper bound)"
      : estimate.outputBasis === 'schema'
        ? 'estimated from the output schema: the answer with a 150-token rationale (set max_tokens for a bound)'
        : estimate.outputBasis === 'mixed'
          ? "max_tokens where set, else estimated from the output schema's answer"
          : 'none expected';
  const lines = [
    `estimate for judge ${estimate.model}: ${formatCount(estimate.calls)} calls to send ` +
      `(${formatCount(estimate.prompts)} prompts; answers already recorded cost nothing and are not counted)`,
    `input: ${formatCount(estimate.inputTokens)} tokens, ${describeCounting(estimate.counting, estimate.model)}` +
      (estimate.formatTokens > 0 ? ` + ${formatCount(estimate.formatTokens)} for the response schema (estimated)` : ''),
    `output: ${formatCount(estimate.outputTokens)} tokens, ${output}`,
    estimate.cost === undefined
      ? `cost: unknown — no price for ${estimate.model} (--price ${estimate.model}=INPUT,OUTPUT)`
      : `cost: ${formatCost(estimate.cost)} at ${estimate.priceKind} prices` +
        (budget !== undefined ? ` · budget ${usd(budget)}` : ''),
    `estimated in ${(estimate.elapsedMs / 1000).toFixed(1)} s`,
  ];
  return `${lines.join('\n')}\n`;
}

/** What the guard has let through: spent (answered calls' real cost) and in flight (at their estimates). */
export interface BudgetState {
  amount: number;
  spent: number;
  inFlight: number;
  /** Calls refused: the run stopped at the budget. */
  refused: number;
}

/** A call let through: settle it once it ends. */
export interface BudgetTicket {
  readonly estimate: number;
}

export class BudgetGuard {
  readonly amount: number;
  private spentUsd = 0;
  private inFlightUsd = 0;
  private refusedCalls = 0;
  private readonly open = new Set<BudgetTicket>();

  constructor(amount: number) {
    if (!(amount >= 0) || !Number.isFinite(amount)) {
      throw new RangeError(`expected a budget of zero or more USD, found ${amount}`);
    }
    this.amount = amount;
  }

  /** True once a call has been refused: no call starts after it. */
  get stopped(): boolean {
    return this.refusedCalls > 0;
  }

  /** A ticket when spent + in flight + this call's estimate stays within the budget (and none was refused). */
  reserve(estimate: number): BudgetTicket | undefined {
    if (this.stopped || this.spentUsd + this.inFlightUsd + estimate > this.amount) {
      this.refusedCalls++;
      return undefined;
    }
    const ticket: BudgetTicket = { estimate };
    this.open.add(ticket);
    this.inFlightUsd += estimate;
    return ticket;
  }

  /**
   * The call ended: its real cost counts as spent (undefined: the endpoint reported no usage — its estimate counts,
   * to stay on the safe side). A call that got no answer costs what it is settled with: 0 when nothing was billed.
   */
  settle(ticket: BudgetTicket, cost: number | undefined): void {
    if (!this.open.delete(ticket)) return;
    this.inFlightUsd -= ticket.estimate;
    if (this.open.size === 0) this.inFlightUsd = 0; // no drift from float sums once nothing is in flight
    this.spentUsd += cost ?? ticket.estimate;
  }

  state(): BudgetState {
    return { amount: this.amount, spent: this.spentUsd, inFlight: this.inFlightUsd, refused: this.refusedCalls };
  }
}
