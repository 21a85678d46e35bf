// What a judge job will cost, worked out before anything is sent (issue 22 item 2). Input tokens are counted from
// the rendered prompts (tokenCount.ts: the model's own encoding, or a stated estimate). Output tokens cannot be
// counted before the model answers: with max_tokens they are bounded by it (the estimate is then an upper bound);
// without, they are estimated from the answer the output schema asks for — its JSON with the longest allowed
// verdict and a rationale of `rationaleAllowanceTokens` — which the model may exceed. The response_format's schema is
// sent with every call and billed as input by OpenAI; how it is framed is not published, so its JSON's tokens are
// added as an estimate and shown apart.
//
// The requests come as a stream (one pair's prompt at a time, with the votes still to send for it): a job of
// 100,000 pairs is never held in memory, and the votes the cache answers are not in it — they cost nothing.
import type { ResponseFormat } from '../chatClient.ts';
import { callCost, type ModelPrice } from '../priceTable.ts';
import type { TokenCounter, TokenCounting } from './tokenCount.ts';

/** One prompt still to send, `calls` times (its votes the cache does not answer). */
export interface RequestToEstimate {
  prompt: string;
  calls: number;
  maxTokens?: number;
  responseFormat?: ResponseFormat;
}

/** Tokens a free-text field of the answer (the rationale) is assumed to take when max_tokens does not bound it. */
export const rationaleAllowanceTokens = 150;

export interface CallTokens {
  /** The messages, counted. */
  input: number;
  /** The response_format's schema, estimated (0 without one). */
  format: number;
  /** max_tokens, or the schema's answer with a rationale allowance. */
  output: number;
  outputBasis: 'max_tokens' | 'schema' | 'none';
}

export interface JobEstimate {
  model: string;
  /** Calls that will be sent (votes the cache answers are not counted). */
  calls: number;
  /** Distinct prompts among them. */
  prompts: number;
  inputTokens: number;
  formatTokens: number;
  outputTokens: number;
  /** How input tokens were counted. */
  counting: TokenCounting;
  /** Where the output tokens came from: every call's max_tokens, the schema's answer, or both (some of each). */
  outputBasis: 'max_tokens' | 'schema' | 'mixed' | 'none';
  /** The price used (online, or batch), when the model has one. */
  price?: ModelPrice;
  priceKind: 'online' | 'batch';
  /** USD; undefined when the model has no price. */
  cost?: number;
  /** Time spent estimating, for the record (100,000 pairs must take seconds). */
  elapsedMs: number;
}

/** The longest JSON value a schema allows, with free strings left empty (their tokens are the allowance). */
function longestAnswer(schema: Record<string, unknown>): { value: unknown; freeStrings: number } {
  const enumValues = schema.enum as unknown[] | undefined;
  if (Array.isArray(enumValues) && enumValues.length > 0) {
    const longest = enumValues.reduce((a, b) => (JSON.stringify(b).length > JSON.stringify(a).length ? b : a));
    return { value: longest, freeStrings: 0 };
  }
  switch (schema.type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
      const value: Record<string, unknown> = {};
      let freeStrings = 0;
      for (const [key, property] of Object.entries(properties)) {
        const inner = longestAnswer(property);
        value[key] = inner.value;
        freeStrings += inner.freeStrings;
      }
      return { value, freeStrings };
    }
    case 'array': {
      const items = (schema.items ?? {}) as Record<string, unknown>;
      const count = typeof schema.maxItems === 'number' ? schema.maxItems : 1;
      const inner = longestAnswer(items);
      return { value: Array.from({ length: count }, () => inner.value), freeStrings: inner.freeStrings * count };
    }
    case 'boolean':
      return { value: false, freeStrings: 0 };
    case 'integer':
    case 'number':
      return { value: 0, freeStrings: 0 };
    case 'string':
      return { value: '', freeStrings: 1 };
    default:
      return { value: null, freeStrings: 0 };
  }
}

/** Output tokens of the answer `schema` asks for: its JSON, plus the allowance for each free-text field. */
export function schemaAnswerTokens(counter: TokenCounter, schema: Record<string, unknown>): number {
  const { value, freeStrings } = longestAnswer(schema);
  return counter.count(JSON.stringify(value)) + freeStrings * rationaleAllowanceTokens;
}

/** Estimates one call from its prompt; remembers what is the same for every call of a job (format and schema). */
export class CallEstimator {
  readonly counter: TokenCounter;
  private readonly bySchema = new Map<string, { format: number; answer: number }>();
  /** The same schema object is sent with every call of a shape (judgeVote.ts builds it once): no JSON per call. */
  private readonly bySchemaObject = new WeakMap<object, { format: number; answer: number }>();

  constructor(counter: TokenCounter) {
    this.counter = counter;
  }

  tokens(request: Omit<RequestToEstimate, 'calls'>): CallTokens {
    const input = this.counter.countChat([{ role: 'user', content: request.prompt }]);
    let format = 0;
    let answer: number | undefined;
    if (request.responseFormat?.type === 'json_schema') {
      const schema = request.responseFormat.json_schema;
      let known = this.bySchemaObject.get(schema);
      if (known === undefined) {
        const key = JSON.stringify(schema);
        known = this.bySchema.get(key) ?? {
          format: this.counter.count(key),
          answer: schemaAnswerTokens(this.counter, schema.schema),
        };
        this.bySchema.set(key, known);
        this.bySchemaObject.set(schema, known);
      }
      format = known.format;
      answer = known.answer;
    }
    if (request.maxTokens !== undefined) return { input, format, output: request.maxTokens, outputBasis: 'max_tokens' };
    if (answer !== undefined) return { input, format, output: answer, outputBasis: 'schema' };
    return { input, format, output: 0, outputBasis: 'none' };
  }
}

/** USD of one call's estimated tokens at `price`. */
export function tokensCost(price: ModelPrice, tokens: CallTokens): number {
  return callCost({ m: price }, 'm', tokens.input + tokens.format, tokens.output) ?? 0;
}

/** The estimate of a job: every request of the stream counted, priced at `price` (none: no cost). */
export async function estimateJobCost(
  requests: AsyncIterable<RequestToEstimate> | Iterable<RequestToEstimate>,
  options: { model: string; counter: TokenCounter; price?: ModelPrice; priceKind?: 'online' | 'batch' },
): Promise<JobEstimate> {
  const started = performance.now();
  const estimator = new CallEstimator(options.counter);
  let calls = 0;
  let prompts = 0;
  let inputTokens = 0;
  let formatTokens = 0;
  let outputTokens = 0;
  const bases = new Set<CallTokens['outputBasis']>();
  for await (const request of requests) {
    if (request.calls === 0) continue;
    const tokens = estimator.tokens(request);
    prompts++;
    calls += request.calls;
    inputTokens += tokens.input * request.calls;
    formatTokens += tokens.format * request.calls;
    outputTokens += tokens.output * request.calls;
    bases.add(tokens.outputBasis);
  }
  const outputBasis = bases.size > 1 ? 'mixed' : ([...bases][0] ?? 'none');
  const price = options.price;
  return {
    model: options.model,
    calls,
    prompts,
    inputTokens,
    formatTokens,
    outputTokens,
    counting: options.counter.counting,
    outputBasis,
    ...(price !== undefined && {
      price,
      cost: (price.inputPerMillion * (inputTokens + formatTokens) + price.outputPerMillion * outputTokens) / 1_000_000,
    }),
    priceKind: options.priceKind ?? 'online',
    elapsedMs: performance.now() - started,
  };
}
