// How many tokens a chat request's messages are, counted offline before anything is sent (issue 22: a budget is
// checked against an estimate). OpenAI's models have published byte-pair encodings — o200k_base for gpt-4o, gpt-4.1,
// gpt-4.5, gpt-5 and the o-series, cl100k_base for gpt-4 and gpt-3.5 — which gpt-tokenizer carries with it (no
// download). A chat request costs its messages' content plus a fixed frame per message, counted as OpenAI's cookbook
// does ("How to count tokens with tiktoken": 3 per message, 1 per name, 3 to prime the reply). Any other model
// (Ollama, vLLM, an Azure deployment's own name) has no known tokenizer: its tokens are estimated from characters and
// the estimate says so. The tokenizer tables are a few MB: they are loaded the first time a count is asked for, so
// commands that never count do not pay for them.

import { existsSync } from 'node:fs';
import { join } from 'node:path';

export type EncodingName = 'o200k_base' | 'cl100k_base';

/** A message as sent to the chat endpoint. */
export interface ChatMessageText {
  role: string;
  content: string;
  name?: string;
}

/** How the tokens were counted: by the model's own encoding, or estimated from characters. */
export type TokenCounting = { kind: 'encoding'; encoding: EncodingName } | { kind: 'estimate'; charsPerToken: number };

export interface TokenCounter {
  readonly counting: TokenCounting;
  /** Tokens of `text` alone. */
  count(text: string): number;
  /** Tokens a chat request with these messages is billed as input (frames included). */
  countChat(messages: readonly ChatMessageText[]): number;
}

/**
 * Characters per token for a model whose tokenizer is unknown. OpenAI's rule of thumb for English is about 4; text
 * with numbers, markup, tables or other languages takes more tokens per character, and an estimate that guards a
 * budget should err high, so 3.
 */
export const estimatedCharsPerToken = 3;

/** cookbook: every message is framed as <|start|>{role/name}\n{content}<|end|>\n */
const tokensPerMessage = 3;
const tokensPerName = 1;
/** cookbook: every reply is primed with <|start|>assistant<|message|> */
const replyPrimingTokens = 3;

/** The encoding of an OpenAI model by its name (a fine-tune, ft:BASE:…, by its base); undefined when unknown. */
export function encodingForModel(model: string): EncodingName | undefined {
  const name = (model.startsWith('ft:') ? model.slice(3) : model).toLowerCase();
  if (/^(gpt-4o|chatgpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|gpt-oss|o1|o3|o4)(\b|-|$)/.test(name)) return 'o200k_base';
  if (/^(gpt-4|gpt-3\.5|text-embedding-3|text-embedding-ada-002)(\b|-|$)/.test(name)) return 'cl100k_base';
  return undefined;
}

/** "o200k_base (gpt-tokenizer)" or "estimated at 3 characters per token (no tokenizer known for MODEL)". */
export function describeCounting(counting: TokenCounting, model: string): string {
  return counting.kind === 'encoding'
    ? `counted with ${counting.encoding}`
    : `estimated at ${counting.charsPerToken} characters per token (no tokenizer known for ${model})`;
}

interface Encoder {
  countTokens(text: string): number;
}

const loaded = new Map<EncodingName, Promise<Encoder>>();

/**
 * The encoding's tables. In the built product (dist/*.cjs) each encoding is a file of its own beside the bundle
 * (scripts/build.ts), required only here, so a command that counts nothing does not load a few MB of tables; from
 * the sources (tests, scripts) the package itself.
 */
function loadEncoding(encoding: EncodingName): Promise<Encoder> {
  let encoder = loaded.get(encoding);
  if (encoder === undefined) {
    const beside = typeof __dirname === 'string' ? join(__dirname, 'tokenizer', `${encoding}.cjs`) : undefined;
    encoder =
      beside !== undefined && typeof require === 'function' && existsSync(beside)
        ? Promise.resolve(require(beside) as Encoder)
        : encoding === 'o200k_base'
          ? import('gpt-tokenizer/encoding/o200k_base')
          : import('gpt-tokenizer/encoding/cl100k_base');
    loaded.set(encoding, encoder);
  }
  return encoder;
}

function frameTokens(messages: readonly ChatMessageText[], count: (text: string) => number): number {
  let total = replyPrimingTokens;
  for (const message of messages) {
    total += tokensPerMessage + count(message.role) + count(message.content);
    if (message.name !== undefined) total += tokensPerName + count(message.name);
  }
  return total;
}

/** A counter for `model`: its encoding when known (loaded now), else the characters-per-token estimate. */
export async function tokenCounter(model: string): Promise<TokenCounter> {
  const encoding = encodingForModel(model);
  if (encoding === undefined) {
    const count = (text: string) => Math.ceil([...text].length / estimatedCharsPerToken);
    return {
      counting: { kind: 'estimate', charsPerToken: estimatedCharsPerToken },
      count,
      countChat: (messages) => frameTokens(messages, count),
    };
  }
  const encoder = await loadEncoding(encoding);
  const count = linesCounted((text) => (text === '' ? 0 : encoder.countTokens(text)));
  return { counting: { kind: 'encoding', encoding }, count, countChat: (messages) => frameTokens(messages, count) };
}

/**
 * Where a text is cut into lines that are counted apart: after a run of line breaks, before a letter or digit. Both
 * encodings' pre-tokenisers always end a piece there (a piece with line breaks ends at the last of them, and no
 * piece starts with one and goes on into a letter or a digit), and byte-pair merges never cross pieces — so the
 * lines' counts add up to the text's count exactly.
 */
const letterOrDigit = /[\p{L}\p{N}]/u;

function* lines(text: string): Generator<string> {
  let start = 0;
  let at = text.indexOf('\n');
  while (at !== -1) {
    let end = at + 1;
    while (text[end] === '\n' || text[end] === '\r') end++;
    const next = text.codePointAt(end);
    if (next !== undefined && letterOrDigit.test(String.fromCodePoint(next))) {
      yield text.slice(start, end);
      start = end;
    }
    at = text.indexOf('\n', end);
  }
  yield text.slice(start);
}

/** Lines remembered with their count: the template's own lines recur in every prompt of a job. */
const rememberedLines = 4096;

/**
 * A count that cuts the text into lines and remembers their counts: a job's prompts share the template's lines (most
 * of a prompt), so only what differs — the document, the query — is tokenised each time.
 */
function linesCounted(countText: (text: string) => number): (text: string) => number {
  const known = new Map<string, number>();
  return (text) => {
    let total = 0;
    for (const line of lines(text)) {
      let tokens = known.get(line);
      if (tokens === undefined) {
        tokens = countText(line);
        if (known.size >= rememberedLines) known.clear();
        known.set(line, tokens);
      }
      total += tokens;
    }
    return total;
  };
}
