// What a judge run cost, from prices the user gives (`--price gpt-4.1-mini=0.4,1.6` or settings). The product
// ships no price list: prices change and self-hosted endpoints cost nothing per token, so a model without a price
// has no cost rather than a guessed one.

export interface ModelPrice {
  /** USD per million input (prompt) tokens */
  inputPerMillion: number;
  /** USD per million output (completion) tokens */
  outputPerMillion: number;
}

/** Model name (or a prefix ending in '*', "gpt-4.1*") → price. */
export type PriceTable = Record<string, ModelPrice>;

const priceFlagExample = 'gpt-4.1-mini=0.4,1.6';

/** "gpt-4.1-mini=0.4,1.6" (USD per 1M input, output tokens) → entry; a clear error otherwise. */
export function parsePriceFlag(text: string): [string, ModelPrice] {
  const usage = `Expected MODEL=INPUT,OUTPUT in USD per million input and output tokens (e.g. ${priceFlagExample})`;
  const equals = text.lastIndexOf('=');
  if (equals === -1) throw new Error(`${usage}, found "${text}" without "=".`);
  const model = text.slice(0, equals).trim();
  if (model === '') throw new Error(`${usage}, found "${text}" without a model name before "=".`);
  const parts = text.slice(equals + 1).split(',');
  if (parts.length !== 2) throw new Error(`${usage}, found "${text}" with ${parts.length} price(s) after "=".`);
  const [input, output] = parts.map((part) =>
    /^\s*(\d+(\.\d*)?|\.\d+)\s*$/.test(part) ? Number(part) : Number.NaN,
  ) as [number, number];
  if (Number.isNaN(input) || Number.isNaN(output))
    throw new Error(`${usage}, found "${text}": prices must be non-negative numbers.`);
  return [model, { inputPerMillion: input, outputPerMillion: output }];
}

/** The price of a model: its exact entry, else the longest prefix entry ending in '*' ("gpt-4.1*"). */
export function modelPrice(prices: PriceTable, model: string): ModelPrice | undefined {
  if (Object.hasOwn(prices, model)) return prices[model];
  let best: string | undefined;
  for (const key of Object.keys(prices))
    if (key.endsWith('*') && model.startsWith(key.slice(0, -1)) && (best === undefined || key.length > best.length))
      best = key;
  return best === undefined ? undefined : prices[best];
}

/**
 * Cost in USD, or undefined when the model has no price (then nothing is guessed) or tokens are unknown. Model
 * lookup: exact name, then the longest prefix entry ending in '*' ("gpt-4.1*").
 */
export function callCost(
  prices: PriceTable,
  model: string,
  inputTokens?: number,
  outputTokens?: number,
): number | undefined {
  const price = modelPrice(prices, model);
  if (!price || inputTokens === undefined || outputTokens === undefined) return undefined;
  return (inputTokens * price.inputPerMillion + outputTokens * price.outputPerMillion) / 1_000_000;
}

/**
 * The Batch API's price of a model: its entry in `batchPrices` (prices given for batch use) when there is one, else
 * half its online price — OpenAI's batch discount; undefined when the model has neither.
 */
export function batchModelPrice(
  prices: PriceTable,
  model: string,
  batchPrices: PriceTable = {},
): ModelPrice | undefined {
  const explicit = modelPrice(batchPrices, model);
  if (explicit !== undefined) return explicit;
  const online = modelPrice(prices, model);
  return online && { inputPerMillion: online.inputPerMillion / 2, outputPerMillion: online.outputPerMillion / 2 };
}
