// How a judge run's progress reads, in the CLI's progress lines and in VS Code's progress notification alike:
// "412/1,000 · 37.2 calls/s · 81,204 tokens · $0.0312 · 2 failures" (the cost only when the model has a price);
// with a budget the cost reads as spent / budget: "$0.0312 / $25.00 budget" (issue 22: the progress shows both).
import type { JudgeProgress } from './judgeStudy.ts';

export const formatCount = (n: number): string => n.toLocaleString('en-US');

/** USD: four decimals under a dollar (a call costs fractions of a cent), two above. */
export const formatCost = (usd: number): string => `$${usd < 1 ? usd.toFixed(4) : usd.toFixed(2)}`;

export const plural = (n: number, word: string): string => `${formatCount(n)} ${word}${n === 1 ? '' : 's'}`;

/** What the run may spend, in USD (the judge block's `budget 25 USD`, or the CLI's `--budget`). */
export interface ProgressBudget {
  amount: number;
}

/** "$0.0312 / $25.00 budget"; the budget is shown with two decimals, as it is declared. */
export function spentOfBudgetText(spent: number, budget: ProgressBudget): string {
  return `${formatCost(spent)} / $${budget.amount.toFixed(2)} budget`;
}

/**
 * The cost part: spent / budget when the run has a budget — the budget guard's own account when the progress carries
 * it (spent on answered calls, and what the calls in flight may still cost at their estimates), else the cost so far.
 */
function costText(p: JudgeProgress, priced: boolean, budget: ProgressBudget | undefined): string[] {
  if (p.budget) {
    const inFlight = p.budget.inFlight > 0 ? ` · ${formatCost(p.budget.inFlight)} in flight` : '';
    return [`${spentOfBudgetText(p.budget.spent, p.budget)}${inFlight}`];
  }
  // A budget without a price cannot be kept (the run refuses to start); if it got here, say the cost is unknown.
  if (budget)
    return [priced ? spentOfBudgetText(p.cost, budget) : `cost unknown / $${budget.amount.toFixed(2)} budget`];
  return priced ? [formatCost(p.cost)] : [];
}

export function judgeProgressText(p: JudgeProgress, priced: boolean, budget?: ProgressBudget): string {
  return [
    `${formatCount(p.done)}/${formatCount(p.total)}`,
    `${p.callsPerSecond.toFixed(1)} calls/s`,
    `${formatCount(p.inputTokens + p.outputTokens)} tokens`,
    ...costText(p, priced, budget),
    plural(p.failures, 'failure'),
    // Votes an open batch holds: not asked by this run (not in the total), the batch answers them.
    ...(p.inOpenBatches ? [`${formatCount(p.inOpenBatches)} in open batches`] : []),
  ].join(' · ');
}
