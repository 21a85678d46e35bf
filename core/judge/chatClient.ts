// One OpenAI-compatible chat endpoint, called through the real `openai` SDK. The SDK's own retries are off
// (maxRetries 0): this module retries itself, so every attempt is visible (onAttempt), cancellable (the wait between
// attempts ends at once on abort), and judged by one policy — 429/5xx/timeouts/dropped connections are retried with
// full-jitter backoff or the server's retry-after; other 4xx are not. A server that refuses `response_format` gets
// the request again without it (and never again from this client). Failures are ChatFailure: a kind the judge can act
// on and a sentence a person can read; the API key is never part of one. A circuit breaker pauses an endpoint that
// fails call after call.
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import type { ChatCompletionChunk, ChatCompletionCreateParamsBase } from 'openai/resources/chat/completions';
import { createCircuitBreaker } from './circuitBreaker.ts';
import { retryAfterMs } from './retryAfter.ts';

export interface ChatMessage {
  role: 'system' | 'user';
  content: string;
}

export type ResponseFormat =
  | { type: 'json_schema'; json_schema: { name: string; schema: Record<string, unknown>; strict?: boolean } }
  | { type: 'json_object' };

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  temperature?: number;
  maxTokens?: number;
  seed?: number;
  responseFormat?: ResponseFormat;
  stream?: boolean;
}

export interface ChatResult {
  text: string;
  inputTokens?: number;
  outputTokens?: number;
  /** Of the successful attempt. */
  latencyMs: number;
  /** Requests made for this call, the successful one included. */
  attempts: number;
  /** The response_format was not sent because the server refused it (on this call or an earlier one). */
  formatDropped?: boolean;
}

export type ChatFailureKind =
  | 'rate-limit'
  | 'server'
  | 'timeout'
  | 'connection'
  | 'client'
  | 'auth'
  | 'cancelled'
  | 'circuit-open';

export class ChatFailure extends Error {
  readonly kind: ChatFailureKind;
  readonly status?: number;
  /** Requests made for the call (0 when it was refused or cancelled before any). */
  readonly attempts: number;

  constructor(message: string, failure: { kind: ChatFailureKind; status?: number; attempts: number }) {
    super(message);
    this.name = 'ChatFailure';
    this.kind = failure.kind;
    if (failure.status !== undefined) this.status = failure.status;
    this.attempts = failure.attempts;
  }
}

export interface AttemptEvent {
  attempt: number;
  ok: boolean;
  kind?: ChatFailureKind;
  status?: number;
  /** Set when another attempt follows: how long the client waits before it. */
  retryInMs?: number;
  /** What went wrong, as a sentence (failed attempts only). */
  message?: string;
}

export interface ChatClientOptions {
  baseURL: string;
  /** Empty for local servers that need none. */
  apiKey: string;
  /** Per attempt; default 60 s. */
  timeoutMs?: number;
  /** Default 5. */
  maxAttempts?: number;
  /** Exponential backoff with full jitter: delay = random() * min(maxMs, baseMs * 2^(attempt-1)); default 500 ms / 30 s. */
  backoff?: { baseMs: number; maxMs: number };
  /** Injected for tests (seeded); default Math.random. */
  random?: () => number;
  /**
   * After `failures` consecutive failed calls (after their retries), the breaker opens: calls fail at once with kind
   * 'circuit-open' until `pauseMs` has passed, then one trial call is let through (half-open). Default 5 / 30 s.
   * Cancelled calls do not count; a 'client' answer (400, 404…) shows the endpoint works and resets the count.
   */
  breaker?: { failures: number; pauseMs: number };
  /** Observer for every attempt (for logging/progress). */
  onAttempt?(event: AttemptEvent): void;
}

export interface ChatClient {
  complete(request: ChatRequest, signal?: AbortSignal): Promise<ChatResult>;
  readonly baseURL: string;
}

/** The longest retry-after the client waits; a server asking for more fails the call, with the wait stated. */
export const maxRetryAfterMs = 120_000;

/** What one failed attempt was; `sentence` describes this attempt alone. */
interface AttemptFailure {
  kind: ChatFailureKind;
  status?: number;
  sentence: string;
  /** For repeated HTTP errors: the server's words, to quote once as "(last: …)". */
  detail?: string;
  retryAfterMs?: number;
  formatRefused?: boolean;
}

const retryableKinds: ReadonlySet<ChatFailureKind> = new Set(['rate-limit', 'server', 'timeout', 'connection']);

export function createChatClient(options: ChatClientOptions): ChatClient {
  const baseURL = options.baseURL.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 60_000;
  const maxAttempts = Math.max(1, Math.floor(options.maxAttempts ?? 5));
  const backoff = options.backoff ?? { baseMs: 500, maxMs: 30_000 };
  const random = options.random ?? Math.random;
  const breaker = createCircuitBreaker(options.breaker ?? { failures: 5, pauseMs: 30_000 });
  const redact = redactor(options.apiKey);
  const sdk = new OpenAI({
    baseURL,
    // The SDK refuses an empty key; local servers ignore the placeholder.
    apiKey: options.apiKey || 'no-key',
    organization: null,
    project: null,
    maxRetries: 0,
    timeout: timeoutMs,
    logLevel: 'off',
  });
  /** The server refused response_format once: it is not sent again. */
  let formatRefused = false;

  const notify = (event: AttemptEvent) => options.onAttempt?.(event);

  async function attempt(
    request: ChatRequest,
    sendFormat: boolean,
    signal: AbortSignal | undefined,
  ): Promise<{ ok: true; result: Omit<ChatResult, 'attempts'> } | { ok: false; failure: AttemptFailure }> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const cancel = () => controller.abort();
    signal?.addEventListener('abort', cancel, { once: true });
    const started = performance.now();
    const body: ChatCompletionCreateParamsBase = {
      model: request.model,
      messages: request.messages,
      ...(request.temperature !== undefined && { temperature: request.temperature }),
      ...(request.maxTokens !== undefined && { max_tokens: request.maxTokens }),
      ...(request.seed !== undefined && { seed: request.seed }),
      ...(sendFormat && request.responseFormat && { response_format: request.responseFormat }),
    };
    try {
      let text = '';
      let usage: { prompt_tokens?: number; completion_tokens?: number } | null | undefined;
      if (request.stream) {
        const stream = await sdk.chat.completions.create(
          { ...body, stream: true, stream_options: { include_usage: true } },
          { signal: controller.signal },
        );
        for await (const chunk of stream as AsyncIterable<ChatCompletionChunk>) {
          text += chunk.choices?.[0]?.delta?.content ?? '';
          if (chunk.usage) usage = chunk.usage;
        }
      } else {
        const completion: unknown = await sdk.chat.completions.create(
          { ...body, stream: false },
          { signal: controller.signal },
        );
        const choice = isChatCompletion(completion) ? completion.choices[0] : undefined;
        if (!choice) throw new NotACompletion();
        text = choice.message?.content ?? '';
        usage = (completion as { usage?: typeof usage }).usage;
      }
      // The SDK ends a stream quietly when it is aborted: a timeout or a cancel mid-stream is not an answer.
      if (controller.signal.aborted) throw new Error('aborted');
      return {
        ok: true,
        result: {
          text,
          latencyMs: performance.now() - started,
          ...(typeof usage?.prompt_tokens === 'number' && { inputTokens: usage.prompt_tokens }),
          ...(typeof usage?.completion_tokens === 'number' && { outputTokens: usage.completion_tokens }),
          ...(request.responseFormat && !sendFormat && { formatDropped: true }),
        },
      };
    } catch (error) {
      return {
        ok: false,
        failure: describeAttempt(error, { timedOut, cancelled: signal?.aborted === true, sendFormat }),
      };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', cancel);
    }
  }

  function describeAttempt(
    error: unknown,
    context: { timedOut: boolean; cancelled: boolean; sendFormat: boolean },
  ): AttemptFailure {
    if (context.cancelled) return { kind: 'cancelled', sentence: `the call to ${baseURL} was cancelled` };
    if (context.timedOut || error instanceof APIConnectionTimeoutError) {
      return { kind: 'timeout', sentence: `no answer from ${baseURL} within ${seconds(timeoutMs)}` };
    }
    if (error instanceof NotACompletion || error instanceof SyntaxError) {
      const what =
        error instanceof SyntaxError ? 'a body that is not valid JSON' : 'something that is not a completion';
      return { kind: 'server', sentence: `${baseURL} answered with ${what}` };
    }
    if (error instanceof APIConnectionError) {
      return { kind: 'connection', sentence: connectionSentence(error) };
    }
    if (error instanceof APIError) {
      const status = error.status;
      const detail = redact(serverWords(error));
      if (status === undefined) {
        // An error event inside a stream.
        return { kind: 'server', sentence: `${baseURL} sent an error in its answer (${detail})`, detail };
      }
      const answered = `${baseURL} answered ${status} (${detail})`;
      if (status === 401 || status === 403) {
        return { kind: 'auth', status, sentence: `${baseURL} refused the API key (${status}: ${detail})`, detail };
      }
      if (status === 429 || status === 408 || status >= 500) {
        const wait = retryAfterMs(error.headers);
        return {
          kind: status === 429 ? 'rate-limit' : status === 408 ? 'timeout' : 'server',
          status,
          sentence: answered,
          detail,
          ...(wait !== undefined && { retryAfterMs: wait }),
        };
      }
      const formatRefused =
        context.sendFormat &&
        (status === 400 || status === 422) &&
        /response.?format|json.?schema|not supported/i.test(detail);
      return { kind: 'client', status, sentence: answered, detail, ...(formatRefused && { formatRefused }) };
    }
    const message = redact(error instanceof Error ? error.message : String(error));
    // A stream cut off mid-way surfaces as a plain error from the body reader.
    if (isConnectionCut(error))
      return { kind: 'connection', sentence: `${baseURL} closed the connection while answering` };
    return { kind: 'client', sentence: `the call to ${baseURL} failed: ${message}` };
  }

  function connectionSentence(error: APIConnectionError): string {
    const codes = errorCodes(error);
    if (codes.has('ECONNREFUSED')) return `could not connect to ${baseURL}: connection refused`;
    if (codes.has('ENOTFOUND') || codes.has('EAI_AGAIN')) return `could not connect to ${baseURL}: host not found`;
    if (codes.has('UND_ERR_CONNECT_TIMEOUT') || codes.has('ETIMEDOUT')) {
      return `could not connect to ${baseURL}: the connection timed out`;
    }
    if (codes.has('ECONNRESET') || codes.has('UND_ERR_SOCKET') || codes.has('EPIPE')) {
      return `${baseURL} closed the connection without answering`;
    }
    const deepest = deepestMessage(error);
    return `could not reach ${baseURL}: ${redact(deepest)}`;
  }

  function finalFailure(failures: AttemptFailure[], attempts: number): ChatFailure {
    const last = failures[failures.length - 1]!;
    const status = last.status !== undefined ? { status: last.status } : {};
    if (failures.length === 1) return new ChatFailure(last.sentence, { kind: last.kind, ...status, attempts });
    const alike = failures.every((f) => f.kind === last.kind && f.status === last.status);
    let message: string;
    if (alike && last.status !== undefined && last.kind !== 'auth') {
      message = `${baseURL} answered ${last.status} ${times(failures.length)} (last: ${last.detail})`;
    } else if (alike && failures.every((f) => f.sentence === last.sentence)) {
      message = `${last.sentence} (${times(failures.length)})`;
    } else {
      message = `${last.sentence} (the last of ${failures.length} failed attempts)`;
    }
    return new ChatFailure(message, { kind: last.kind, ...status, attempts });
  }

  async function run(request: ChatRequest, trial: boolean, signal: AbortSignal | undefined): Promise<ChatResult> {
    const failures: AttemptFailure[] = [];
    let attempts = 0;
    let sendFormat = request.responseFormat !== undefined && !formatRefused;
    let formatRetried = false;
    for (;;) {
      if (attempts > 0 && breaker.isOpenFor(trial)) {
        throw new ChatFailure(`calls to ${baseURL} are ${breaker.pausedReason()}`, { kind: 'circuit-open', attempts });
      }
      attempts++;
      const outcome = await attempt(request, sendFormat, signal);
      if (outcome.ok) {
        notify({ attempt: attempts, ok: true });
        return { ...outcome.result, attempts };
      }
      const failure = outcome.failure;
      const event = { attempt: attempts, ok: false, kind: failure.kind, message: failure.sentence };
      const withStatus = failure.status !== undefined ? { ...event, status: failure.status } : event;
      if (failure.kind === 'cancelled') {
        notify(withStatus);
        throw new ChatFailure(failure.sentence, { kind: 'cancelled', attempts });
      }
      if (failure.formatRefused && sendFormat && !formatRetried) {
        formatRefused = true;
        sendFormat = false;
        formatRetried = true;
        notify({ ...withStatus, retryInMs: 0 });
        continue;
      }
      failures.push(failure);
      if (!retryableKinds.has(failure.kind) || failures.length >= maxAttempts) {
        notify(withStatus);
        throw finalFailure(failures, attempts);
      }
      if (failure.retryAfterMs !== undefined && failure.retryAfterMs > maxRetryAfterMs) {
        notify(withStatus);
        throw new ChatFailure(
          `${failure.sentence} and asked to wait ${seconds(failure.retryAfterMs)} before trying again, longer than the ${seconds(maxRetryAfterMs)} the judge waits`,
          { kind: failure.kind, ...(failure.status !== undefined && { status: failure.status }), attempts },
        );
      }
      const delay =
        failure.retryAfterMs ?? random() * Math.min(backoff.maxMs, backoff.baseMs * 2 ** (failures.length - 1));
      notify({ ...withStatus, retryInMs: delay });
      if (!(await wait(delay, signal))) {
        throw new ChatFailure(`the call to ${baseURL} was cancelled`, { kind: 'cancelled', attempts });
      }
    }
  }

  return {
    baseURL,
    async complete(request, signal) {
      if (signal?.aborted)
        throw new ChatFailure(`the call to ${baseURL} was cancelled`, { kind: 'cancelled', attempts: 0 });
      const admission = breaker.admit();
      if (!admission.admitted) {
        throw new ChatFailure(`calls to ${baseURL} are ${admission.reason}`, { kind: 'circuit-open', attempts: 0 });
      }
      try {
        const result = await run(request, admission.trial, signal);
        breaker.succeeded(admission.trial);
        return result;
      } catch (error) {
        const kind = error instanceof ChatFailure ? error.kind : 'client';
        if (kind === 'cancelled' || kind === 'circuit-open') breaker.released(admission.trial);
        else if (kind === 'client') breaker.succeeded(admission.trial);
        else breaker.failed(admission.trial, (error as Error).message);
        throw error;
      }
    },
  };
}

/** A 200 whose JSON is not a chat completion. */
class NotACompletion extends Error {}

function isChatCompletion(value: unknown): value is { choices: { message?: { content?: string | null } }[] } {
  return typeof value === 'object' && value !== null && Array.isArray((value as { choices?: unknown }).choices);
}

/** Resolves true after `ms`, or false at once when `signal` aborts. */
function wait(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (value: boolean) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', aborted);
      resolve(value);
    };
    const aborted = () => done(false);
    const timer = setTimeout(() => done(true), ms);
    signal?.addEventListener('abort', aborted, { once: true });
  });
}

/** The server's own words for an HTTP error, on one short line. */
function serverWords(error: APIError): string {
  const body = error.error as { message?: unknown } | undefined;
  let words = typeof body?.message === 'string' ? body.message : error.message.replace(/^\d{3}\s+/, '');
  if (words === 'status code (no body)' || words.trimStart().startsWith('<') || words.trim() === '') {
    words = (error.status !== undefined && httpReasons[error.status]) || 'no reason given';
  }
  words = words.replace(/\s+/g, ' ').trim();
  return words.length > 200 ? `${words.slice(0, 199)}…` : words;
}

const httpReasons: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  408: 'Request Timeout',
  413: 'Payload Too Large',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** Removes the API key (and anything shaped like one) from text that came from a server or a library. */
function redactor(apiKey: string): (text: string) => string {
  return (text) => {
    let clean = apiKey.length >= 4 ? text.split(apiKey).join('[the API key]') : text;
    clean = clean.replace(/\b(sk|rk|pk)-[A-Za-z0-9_*-]{8,}/g, '[an API key]');
    return clean;
  };
}

function errorCodes(error: unknown): Set<string> {
  const codes = new Set<string>();
  for (let cause = error, depth = 0; cause && depth < 8; depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string') codes.add(code);
    for (const inner of (cause as { errors?: unknown[] }).errors ?? []) {
      const innerCode = (inner as { code?: unknown }).code;
      if (typeof innerCode === 'string') codes.add(innerCode);
    }
    cause = (cause as { cause?: unknown }).cause;
  }
  return codes;
}

function deepestMessage(error: unknown): string {
  let message = error instanceof Error ? error.message : String(error);
  for (let cause = (error as { cause?: unknown }).cause, depth = 0; cause && depth < 8; depth++) {
    if (cause instanceof Error && cause.message) message = cause.message;
    cause = (cause as { cause?: unknown }).cause;
  }
  return message;
}

function isConnectionCut(error: unknown): boolean {
  const codes = errorCodes(error);
  return (
    codes.has('ECONNRESET') ||
    codes.has('UND_ERR_SOCKET') ||
    codes.has('EPIPE') ||
    (error instanceof TypeError && error.message === 'terminated')
  );
}

function seconds(ms: number): string {
  const s = ms / 1000;
  return s >= 10 ? `${Math.round(s)} s` : `${Number(s.toFixed(2))} s`;
}

function times(n: number): string {
  const words = ['', 'once', 'twice', 'three times', 'four times', 'five times', 'six times', 'seven times'];
  return words[n] ?? `${n} times`;
}
