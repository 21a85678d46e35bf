// The Batch API's JSONL, both ways. An input line is one chat completion request — {"custom_id", "method": "POST",
// "url": "/v1/chat/completions", "body"} — whose body is exactly what the online client (chatClient.ts) sends for
// the same vote: model, messages, temperature, max_tokens, seed, response_format, stream false, in that order. So a vote's cache
// key (judgeCacheKey: endpoint, model, parameters, prompt hash, vote index) is the same asked online or in a batch,
// and an answer from either serves the other. An output or error line is read back into what came of the request:
// an answer (its text and tokens), an HTTP error, an error of the batch (a line that expired), or a line that is
// not what the API writes (said so, with its text kept).
import type { ChatRequest } from '../chatClient.ts';

/** A vote's custom_id: its pair and vote index (unique in a batch: a job asks each pair's vote once). */
export function customIdOf(pairId: number, voteIndex: number): string {
  return `p${pairId}v${voteIndex}`;
}

/** The chat completion body the online client sends for `request` (chatClient.ts, response_format accepted). */
export function chatCompletionBody(request: ChatRequest): Record<string, unknown> {
  return {
    model: request.model,
    messages: request.messages,
    ...(request.temperature !== undefined && { temperature: request.temperature }),
    ...(request.maxTokens !== undefined && { max_tokens: request.maxTokens }),
    ...(request.seed !== undefined && { seed: request.seed }),
    ...(request.responseFormat && { response_format: request.responseFormat }),
  };
}

/** One input line, with its newline; its body says `stream: false`, as the online client's does. */
export function batchInputLine(customId: string, request: ChatRequest): string {
  const body = { ...chatCompletionBody(request), stream: false };
  return `${JSON.stringify({ custom_id: customId, method: 'POST', url: '/v1/chat/completions', body })}\n`;
}

/** What one output or error line says of its request. */
export type BatchLineResult =
  | { kind: 'answer'; customId: string; text: string; inputTokens?: number; outputTokens?: number }
  | { kind: 'http-error'; customId: string; status: number; message: string; raw: string }
  | { kind: 'batch-error'; customId: string; code: string; message: string }
  /** Not a line of the API's shape; `customId` when one could still be read from it. */
  | { kind: 'unreadable'; customId?: string; message: string; raw: string };

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Reads one line of an output or error file. */
export function readBatchLine(line: string): BatchLineResult {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    const id = /"custom_id"\s*:\s*"([^"\\]+)"/.exec(line)?.[1];
    return {
      kind: 'unreadable',
      ...(id !== undefined && { customId: id }),
      message: 'the batch file has a line that is not valid JSON',
      raw: line,
    };
  }
  if (!isObject(value) || typeof value.custom_id !== 'string') {
    return { kind: 'unreadable', message: 'the batch file has a line without a custom_id', raw: line };
  }
  const customId = value.custom_id;
  if (isObject(value.error)) {
    return {
      kind: 'batch-error',
      customId,
      code: typeof value.error.code === 'string' ? value.error.code : 'error',
      message: typeof value.error.message === 'string' ? value.error.message : JSON.stringify(value.error),
    };
  }
  const response = value.response;
  if (!isObject(response) || typeof response.status_code !== 'number') {
    return { kind: 'unreadable', customId, message: 'the batch line has neither a response nor an error', raw: line };
  }
  const body = response.body;
  if (response.status_code !== 200) {
    const error = isObject(body) && isObject(body.error) ? body.error : undefined;
    const message = typeof error?.message === 'string' ? error.message : `status ${response.status_code}`;
    return { kind: 'http-error', customId, status: response.status_code, message, raw: JSON.stringify(body ?? null) };
  }
  const choices = isObject(body) && Array.isArray(body.choices) ? body.choices : undefined;
  const first: unknown = choices?.[0];
  const content = isObject(first) && isObject(first.message) ? first.message.content : undefined;
  if (typeof content !== 'string') {
    return {
      kind: 'unreadable',
      customId,
      message: 'the batch line answered something that is not a chat completion',
      raw: JSON.stringify(body ?? null),
    };
  }
  const usage = isObject(body) && isObject(body.usage) ? body.usage : undefined;
  return {
    kind: 'answer',
    customId,
    text: content,
    ...(typeof usage?.prompt_tokens === 'number' && { inputTokens: usage.prompt_tokens }),
    ...(typeof usage?.completion_tokens === 'number' && { outputTokens: usage.completion_tokens }),
  };
}
