import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  BudgetGuard,
  BudgetRefusal,
  checkBudget,
  estimateText,
  priceForBudget,
} from '../../../../core/judge/budget/budgetGuard.ts';
import {
  CallEstimator,
  estimateJobCost,
  type JobEstimate,
  rationaleAllowanceTokens,
  schemaAnswerTokens,
} from '../../../../core/judge/budget/costEstimate.ts';
import { tokenCounter } from '../../../../core/judge/budget/tokenCount.ts';
import { judgeOutputSchema } from '../../../../core/judge/judgeOutput.ts';

test('the guard lets a call start only while spent + in flight + its estimate stays within the budget', () => {
  const guard = new BudgetGuard(1);
  const a = guard.reserve(0.4)!;
  const b = guard.reserve(0.4)!;
  assert.ok(a && b);
  assert.deepEqual(guard.state(), { amount: 1, spent: 0, inFlight: 0.8, refused: 0 });
  // 0.8 in flight + 0.3 > 1: refused, and from then on nothing starts, however cheap.
  assert.equal(guard.reserve(0.3), undefined);
  assert.ok(guard.stopped);
  guard.settle(a, 0.1);
  guard.settle(b, undefined); // no usage reported: its estimate counts
  assert.equal(guard.reserve(0.01), undefined);
  const state = guard.state();
  assert.deepEqual([state.inFlight, state.refused], [0, 2]);
  assert.ok(Math.abs(state.spent - 0.5) < 1e-12);
  // A ticket settles once.
  guard.settle(a, 5);
  assert.ok(Math.abs(guard.state().spent - 0.5) < 1e-12);
  assert.throws(() => new BudgetGuard(-1), RangeError);
  assert.throws(() => new BudgetGuard(Number.NaN), RangeError);
  // Exactly at the budget is within it.
  const exact = new BudgetGuard(0.5);
  assert.ok(exact.reserve(0.5));
});

test("the output estimate: max_tokens when set, else the schema's answer with a rationale allowance", async () => {
  const counter = await tokenCounter('gpt-4o');
  const label = judgeOutputSchema('label', { scale: [0, 1, 2, 10] });
  const answer = JSON.stringify({ rationale: '', label: 10 });
  assert.equal(schemaAnswerTokens(counter, label.schema), counter.count(answer) + rationaleAllowanceTokens);
  const conditions = judgeOutputSchema('conditions', { conditions: 3 });
  assert.equal(
    schemaAnswerTokens(counter, conditions.schema),
    counter.count(JSON.stringify({ rationale: '', conditions: [false, false, false] })) + rationaleAllowanceTokens,
  );
  const estimator = new CallEstimator(counter);
  const responseFormat = { type: 'json_schema' as const, json_schema: label };
  const bySchema = estimator.tokens({ prompt: 'Is it relevant?', responseFormat });
  assert.deepEqual(bySchema, {
    input: counter.countChat([{ role: 'user', content: 'Is it relevant?' }]),
    format: counter.count(JSON.stringify(label)),
    output: counter.count(answer) + rationaleAllowanceTokens,
    outputBasis: 'schema',
  });
  assert.equal(estimator.tokens({ prompt: 'x', responseFormat, maxTokens: 20 }).output, 20);
});

test('a job estimate sums its requests (cached votes, calls 0, cost nothing) and prices them', async () => {
  const counter = await tokenCounter('gpt-4o');
  async function* requests() {
    yield { prompt: 'first prompt', calls: 3, maxTokens: 10 };
    yield { prompt: 'all its votes cached', calls: 0, maxTokens: 10 };
    yield { prompt: 'second', calls: 1, maxTokens: 10 };
  }
  const price = { inputPerMillion: 2, outputPerMillion: 8 };
  const estimate = await estimateJobCost(requests(), { model: 'gpt-4o', counter, price });
  const input = (text: string) => counter.countChat([{ role: 'user', content: text }]);
  assert.deepEqual(
    [estimate.calls, estimate.prompts, estimate.inputTokens, estimate.outputTokens, estimate.outputBasis],
    [4, 2, 3 * input('first prompt') + input('second'), 40, 'max_tokens'],
  );
  assert.ok(Math.abs(estimate.cost! - (estimate.inputTokens * 2 + 40 * 8) / 1e6) < 1e-15);
  const unpriced = await estimateJobCost([{ prompt: 'p', calls: 1 }], { model: 'gpt-4o', counter });
  assert.equal(unpriced.cost, undefined);
  assert.equal(unpriced.outputBasis, 'none');
});

const estimate: JobEstimate = {
  model: 'gpt-4.1-mini',
  calls: 300_000,
  prompts: 100_000,
  inputTokens: 180_000_000,
  formatTokens: 30_000_000,
  outputTokens: 19_200_000,
  counting: { kind: 'encoding', encoding: 'o200k_base' },
  outputBasis: 'max_tokens',
  price: { inputPerMillion: 0.4, outputPerMillion: 1.6 },
  priceKind: 'online',
  cost: 114.72,
  elapsedMs: 4_200,
};

test('the budget check refuses an estimate over it, and a budget without a price; passes one within it', () => {
  assert.throws(
    () => checkBudget(estimate, 100),
    (error: Error) =>
      error instanceof BudgetRefusal &&
      error.message ===
        'refusing to start: the estimated cost $114.72 is over the budget $100.00 (300,000 calls at 0.4/1.6 USD per ' +
          'million online input/output tokens); nothing was sent — raise the budget, or judge fewer pairs (--limit)',
  );
  checkBudget(estimate, 114.72);
  const { price: _, cost: __, ...unpriced } = estimate;
  assert.throws(() => checkBudget(unpriced, 1000), /has a budget of \$1000\.00 but no price/);
  assert.throws(() => priceForBudget('llama3', undefined, 5), /--price llama3=INPUT,OUTPUT/);
});

test('the printed estimate says what was counted and what was estimated', () => {
  assert.equal(
    estimateText(estimate, 200),
    [
      'estimate for judge gpt-4.1-mini: 300,000 calls to send (100,000 prompts; answers already recorded cost nothing and are not counted)',
      'input: 180,000,000 tokens, counted with o200k_base + 30,000,000 for the response schema (estimated)',
      "output: 19,200,000 tokens, at most the judge's max_tokens a call (an upper bound)",
      'cost: $114.72 at online prices · budget $200.00',
      'estimated in 4.2 s',
      '',
    ].join('\n'),
  );
  const guessed = estimateText({
    ...estimate,
    counting: { kind: 'estimate', charsPerToken: 3 },
    outputBasis: 'schema',
    price: undefined,
    cost: undefined,
  } as JobEstimate);
  assert.match(
    guessed,
    /input: 180,000,000 tokens, estimated at 3 characters per token \(no tokenizer known for gpt-4\.1-mini\)/,
  );
  assert.match(guessed, /output: 19,200,000 tokens, estimated from the output schema/);
  assert.match(guessed, /cost: unknown — no price for gpt-4\.1-mini \(--price gpt-4\.1-mini=INPUT,OUTPUT\)/);
});
