// The words of a judge run's progress (CLI progress lines and VS Code's notification): the cost appears only with a
// price, and with a budget it reads as spent / budget.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { judgeProgressText, spentOfBudgetText } from '../../../core/judge/judgeProgressText.ts';
import type { JudgeProgress } from '../../../core/judge/judgeStudy.ts';

const progress: JudgeProgress = {
  total: 1000,
  done: 412,
  cached: 12,
  requests: 400,
  failures: 2,
  inputTokens: 80_000,
  outputTokens: 1204,
  cost: 0.0312,
  elapsedMs: 10_750,
  callsPerSecond: 37.2093,
};

test('done/total, calls/s, tokens, the cost when priced, failures', () => {
  assert.equal(judgeProgressText(progress, true), '412/1,000 · 37.2 calls/s · 81,204 tokens · $0.0312 · 2 failures');
  assert.equal(judgeProgressText(progress, false), '412/1,000 · 37.2 calls/s · 81,204 tokens · 2 failures');
  assert.equal(
    judgeProgressText({ ...progress, failures: 1 }, false),
    '412/1,000 · 37.2 calls/s · 81,204 tokens · 1 failure',
  );
  assert.equal(
    judgeProgressText({ ...progress, inOpenBatches: 1500 }, false),
    '412/1,000 · 37.2 calls/s · 81,204 tokens · 2 failures · 1,500 in open batches',
  );
});

test('with a budget the cost is spent / budget; above a dollar both have two decimals', () => {
  assert.equal(
    judgeProgressText(progress, true, { amount: 25 }),
    '412/1,000 · 37.2 calls/s · 81,204 tokens · $0.0312 / $25.00 budget · 2 failures',
  );
  assert.equal(spentOfBudgetText(12.345, { amount: 25 }), '$12.35 / $25.00 budget');
  assert.equal(spentOfBudgetText(0, { amount: 0.5 }), '$0.0000 / $0.50 budget');
  // No price: the budget is still named, the spent part says it is not known (never "$0.0000" pretending).
  assert.equal(
    judgeProgressText(progress, false, { amount: 25 }),
    '412/1,000 · 37.2 calls/s · 81,204 tokens · cost unknown / $25.00 budget · 2 failures',
  );
});

test("the budget guard's account when the progress carries it: spent, and what is in flight at its estimate", () => {
  const guarded = { ...progress, budget: { amount: 25, spent: 12.345, inFlight: 0.0125, refused: 0 } };
  assert.equal(
    judgeProgressText(guarded, true, { amount: 25 }),
    '412/1,000 · 37.2 calls/s · 81,204 tokens · $12.35 / $25.00 budget · $0.0125 in flight · 2 failures',
  );
  assert.equal(
    judgeProgressText({ ...guarded, budget: { ...guarded.budget, inFlight: 0 } }, true),
    '412/1,000 · 37.2 calls/s · 81,204 tokens · $12.35 / $25.00 budget · 2 failures',
  );
});
