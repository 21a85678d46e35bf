import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  batchModelPrice,
  callCost,
  modelPrice,
  type PriceTable,
  parsePriceFlag,
} from '../../../core/judge/priceTable.ts';

test('a price flag: model, then USD per million input and output tokens', () => {
  assert.deepEqual(parsePriceFlag('gpt-4.1-mini=0.4,1.6'), [
    'gpt-4.1-mini',
    { inputPerMillion: 0.4, outputPerMillion: 1.6 },
  ]);
  assert.deepEqual(parsePriceFlag(' gpt-4.1* = 2 , 8 '), ['gpt-4.1*', { inputPerMillion: 2, outputPerMillion: 8 }]);
  assert.deepEqual(parsePriceFlag('qwen2.5:7b=0,0'), ['qwen2.5:7b', { inputPerMillion: 0, outputPerMillion: 0 }]);
  assert.deepEqual(parsePriceFlag('o3=.5,2.'), ['o3', { inputPerMillion: 0.5, outputPerMillion: 2 }]);
});

test('a malformed price flag is an error that shows the expected form', () => {
  const form =
    /^Expected MODEL=INPUT,OUTPUT in USD per million input and output tokens \(e\.g\. gpt-4\.1-mini=0\.4,1\.6\)/;
  for (const [flag, problem] of [
    ['gpt-4.1-mini', 'without "="'],
    ['=0.4,1.6', 'without a model name before "="'],
    ['gpt-4.1-mini=0.4', 'with 1 price(s) after "="'],
    ['gpt-4.1-mini=0.4,1.6,2', 'with 3 price(s) after "="'],
    ['gpt-4.1-mini=-0.4,1.6', 'prices must be non-negative numbers'],
    ['gpt-4.1-mini=cheap,1.6', 'prices must be non-negative numbers'],
    ['gpt-4.1-mini=0.4,', 'prices must be non-negative numbers'],
  ] as const)
    assert.throws(
      () => parsePriceFlag(flag),
      (error: Error) => form.test(error.message) && error.message.includes(problem) && error.message.includes(flag),
      flag,
    );
});

const prices: PriceTable = {
  'gpt-4.1*': { inputPerMillion: 2, outputPerMillion: 8 },
  'gpt-4.1-mini*': { inputPerMillion: 0.4, outputPerMillion: 1.6 },
  'gpt-4.1-mini': { inputPerMillion: 0.3, outputPerMillion: 1.2 },
};

test('lookup: the exact name, then the longest prefix ending in *', () => {
  assert.equal(modelPrice(prices, 'gpt-4.1-mini'), prices['gpt-4.1-mini']);
  assert.equal(modelPrice(prices, 'gpt-4.1-mini-2025-04-14'), prices['gpt-4.1-mini*']);
  assert.equal(modelPrice(prices, 'gpt-4.1-nano'), prices['gpt-4.1*']);
  assert.equal(modelPrice(prices, 'gpt-4.1*'), prices['gpt-4.1*']);
  assert.equal(modelPrice(prices, 'gpt-4o'), undefined);
  assert.equal(modelPrice(prices, 'toString'), undefined);
});

test('cost: input and output tokens at their own prices', () => {
  // 1 000 input tokens at $0.40/M + 500 output tokens at $1.60/M = $0.0004 + $0.0008.
  const cost = callCost(prices, 'gpt-4.1-mini-2025-04-14', 1000, 500);
  assert.ok(cost !== undefined && Math.abs(cost - 0.0012) < 1e-12, String(cost));
  // 2M input at $2/M + 1M output at $8/M.
  assert.equal(callCost(prices, 'gpt-4.1', 2_000_000, 1_000_000), 12);
  assert.equal(callCost(prices, 'gpt-4.1-mini', 0, 0), 0);
});

test('no cost is guessed: unpriced model, unknown tokens', () => {
  assert.equal(callCost(prices, 'llama3.1:8b', 1000, 500), undefined);
  assert.equal(callCost({}, 'gpt-4.1-mini', 1000, 500), undefined);
  assert.equal(callCost(prices, 'gpt-4.1-mini', undefined, 500), undefined);
  assert.equal(callCost(prices, 'gpt-4.1-mini', 1000, undefined), undefined);
  assert.equal(callCost(prices, 'gpt-4.1-mini'), undefined);
});

test('a lone * prices every model not priced otherwise', () => {
  const table: PriceTable = { '*': { inputPerMillion: 1, outputPerMillion: 1 }, ...prices };
  assert.equal(callCost(table, 'mistral-small', 500_000, 500_000), 1);
  assert.equal(callCost(table, 'gpt-4.1', 1_000_000, 0), 2);
});

test('batch prices: an explicit batch entry wins, else half the online price; none without either', () => {
  const online: PriceTable = { 'gpt-4.1-mini': { inputPerMillion: 0.4, outputPerMillion: 1.6 } };
  assert.deepEqual(batchModelPrice(online, 'gpt-4.1-mini'), { inputPerMillion: 0.2, outputPerMillion: 0.8 });
  assert.deepEqual(
    batchModelPrice(online, 'gpt-4.1-mini', { 'gpt-4.1*': { inputPerMillion: 0.1, outputPerMillion: 0.5 } }),
    {
      inputPerMillion: 0.1,
      outputPerMillion: 0.5,
    },
  );
  assert.equal(batchModelPrice(online, 'gpt-4o'), undefined);
});
