// The chat client through the real `openai` SDK against a local OpenAI-compatible server: completions (JSON and
// streamed), which failures are retried and how long it waits, the response_format fallback, the circuit breaker,
// cancellation, and error sentences that never carry the API key.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, test } from 'node:test';
import {
  type AttemptEvent,
  ChatFailure,
  type ChatRequest,
  createChatClient,
  type ResponseFormat,
} from '../../../core/judge/chatClient.ts';
import { retryAfterMs } from '../../../core/judge/retryAfter.ts';
import { type Behaviour, type OpenAiServerOptions, startOpenAiServer } from './openAiServer.ts';

const servers: { close(): Promise<void> }[] = [];
after(() => Promise.all(servers.map((s) => s.close())));

async function server(options: OpenAiServerOptions) {
  const started = await startOpenAiServer(options);
  servers.push(started);
  return started;
}

/** Answers `behaviours[index]`, then `rest` for every later request. */
function sequence(behaviours: Behaviour[], rest: Behaviour = { content: 'ok' }): OpenAiServerOptions['respond'] {
  return ({ index }) => behaviours[index] ?? rest;
}

const ask: ChatRequest = { model: 'judge-model', messages: [{ role: 'user', content: 'is this relevant?' }] };
const schema: ResponseFormat = {
  type: 'json_schema',
  json_schema: { name: 'label', schema: { type: 'object', properties: { label: { type: 'integer' } } }, strict: true },
};
/** Quick retries for tests that are not about the wait. */
const fast = { backoff: { baseMs: 1, maxMs: 5 } };

async function failure(promise: Promise<unknown>): Promise<ChatFailure> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ChatFailure, `expected a ChatFailure, got ${error}`);
    return error;
  }
  assert.fail('expected the call to fail');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('a JSON completion: the text, the token usage, the latency, and the request as the server saw it', async () => {
  const s = await server({
    respond: () => ({ content: '{"label": 2}', latencyMs: 120, usage: { prompt_tokens: 31, completion_tokens: 7 } }),
  });
  const client = createChatClient({ baseURL: s.baseURL, apiKey: 'key' });
  const result = await client.complete({
    ...ask,
    messages: [
      { role: 'system', content: 'You label.' },
      { role: 'user', content: 'q d' },
    ],
    temperature: 0,
    maxTokens: 50,
    seed: 7,
    responseFormat: schema,
  });
  assert.equal(result.text, '{"label": 2}');
  assert.equal(result.inputTokens, 31);
  assert.equal(result.outputTokens, 7);
  assert.equal(result.attempts, 1);
  assert.equal(result.formatDropped, undefined);
  assert.ok(result.latencyMs >= 110, `latency ${result.latencyMs} ms includes the server's 120 ms`);
  assert.equal(client.baseURL, s.baseURL);
  const [body] = s.bodies();
  assert.deepEqual(body, {
    model: 'judge-model',
    messages: [
      { role: 'system', content: 'You label.' },
      { role: 'user', content: 'q d' },
    ],
    temperature: 0,
    max_tokens: 50,
    seed: 7,
    response_format: schema,
    stream: false,
  });
  assert.deepEqual(s.requestsByModel(), new Map([['judge-model', 1]]));
});

test('a streamed completion is collected, with the usage of its last chunk', async () => {
  const s = await server({ respond: () => ({ content: 'the document is relevant', chunkDelayMs: 5 }) });
  const client = createChatClient({ baseURL: s.baseURL, apiKey: 'key' });
  const result = await client.complete({ ...ask, stream: true });
  assert.equal(result.text, 'the document is relevant');
  assert.equal(result.inputTokens, 3);
  assert.equal(result.outputTokens, 4);
  assert.equal(s.bodies()[0]?.stream, true);
  assert.deepEqual(s.bodies()[0]?.stream_options, { include_usage: true });
});

test('429 with retry-after in seconds, and with retry-after-ms longer than the backoff: waited, then answered', async () => {
  for (const [limit, expectedWait] of [
    [{ retryAfter: '1' }, 1000],
    [{ retryAfterMs: 150 }, 150],
  ] as const) {
    const s = await server({ respond: sequence([{ status: 429, ...limit }]) });
    const events: AttemptEvent[] = [];
    const client = createChatClient({
      baseURL: s.baseURL,
      apiKey: 'key',
      backoff: { baseMs: 1, maxMs: 5 },
      onAttempt: (event) => events.push(event),
    });
    const started = performance.now();
    const result = await client.complete(ask);
    const elapsed = performance.now() - started;
    assert.equal(result.text, 'ok');
    assert.equal(result.attempts, 2);
    assert.equal(s.requests(), 2);
    assert.deepEqual(
      events.map(({ message: _, ...event }) => event),
      [
        { attempt: 1, ok: false, kind: 'rate-limit', status: 429, retryInMs: expectedWait },
        { attempt: 2, ok: true },
      ],
    );
    assert.ok(elapsed >= expectedWait - 5, `waited ${elapsed} ms, at least the ${expectedWait} ms asked`);
  }
});

test('retry-after: seconds, milliseconds (preferred), an HTTP date, and nonsense', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  assert.equal(retryAfterMs(new Headers({ 'retry-after': '3' }), now), 3000);
  assert.equal(retryAfterMs(new Headers({ 'retry-after': '3', 'retry-after-ms': '250' }), now), 250);
  assert.equal(retryAfterMs(new Headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:30 GMT' }), now), 30_000);
  assert.equal(retryAfterMs(new Headers({ 'retry-after': 'Tue, 31 Dec 2024 00:00:00 GMT' }), now), 0);
  assert.equal(retryAfterMs(new Headers({ 'retry-after': 'soon' }), now), undefined);
  assert.equal(retryAfterMs(new Headers(), now), undefined);
});

test('a retry-after beyond 120 s fails the call at once, stating the wait', async () => {
  const s = await server({ respond: () => ({ status: 429, retryAfter: '600' }) });
  const client = createChatClient({ baseURL: s.baseURL, apiKey: 'key' });
  const error = await failure(client.complete(ask));
  assert.equal(error.kind, 'rate-limit');
  assert.equal(error.status, 429);
  assert.equal(error.attempts, 1);
  assert.equal(s.requests(), 1);
  assert.match(error.message, /asked to wait 600 s before trying again, longer than the 120 s/);
});

test('500s are retried with full-jitter exponential backoff, then the call succeeds', async () => {
  const s = await server({ respond: sequence([{ status: 500 }, { status: 502 }, { status: 503 }]) });
  const draws = [0.5, 1, 0.25];
  const events: AttemptEvent[] = [];
  const client = createChatClient({
    baseURL: s.baseURL,
    apiKey: 'key',
    backoff: { baseMs: 20, maxMs: 50 },
    random: () => draws.shift() ?? 0,
    onAttempt: (event) => events.push(event),
  });
  const result = await client.complete(ask);
  assert.equal(result.attempts, 4);
  assert.equal(s.requests(), 4);
  // random() × min(maxMs, baseMs × 2^(attempt-1)): 0.5×20, 1×40, 0.25×min(50, 80)
  assert.deepEqual(
    events.map((e) => [e.status, e.retryInMs]),
    [
      [500, 10],
      [502, 40],
      [503, 12.5],
      [undefined, undefined],
    ],
  );
});

test('500s until the attempts run out: kind server, one sentence with the count and the last reason', async () => {
  const s = await server({ respond: () => ({ status: 500 }) });
  const client = createChatClient({ baseURL: s.baseURL, apiKey: 'key', ...fast });
  const error = await failure(client.complete(ask));
  assert.equal(error.kind, 'server');
  assert.equal(error.status, 500);
  assert.equal(error.attempts, 5);
  assert.equal(s.requests(), 5);
  assert.equal(error.message, `${s.baseURL} answered 500 five times (last: Internal Server Error)`);
});

test('a dropped connection and a malformed body are retried', async () => {
  const s = await server({ respond: sequence([{ drop: true }, { malformed: true }]) });
  const kinds: (string | undefined)[] = [];
  const client = createChatClient({ baseURL: s.baseURL, apiKey: 'key', ...fast, onAttempt: (e) => kinds.push(e.kind) });
  const result = await client.complete(ask);
  assert.equal(result.text, 'ok');
  assert.equal(result.attempts, 3);
  assert.deepEqual(kinds, ['connection', 'server', undefined]);
});

test('a stream cut off mid-answer is a connection failure, retried — not a short answer', async () => {
  const s = await server({
    respond: sequence([{ content: 'one two three four', dropAfterChunks: 2 }], { content: 'one two three four' }),
  });
  const kinds: (string | undefined)[] = [];
  const client = createChatClient({ baseURL: s.baseURL, apiKey: 'key', ...fast, onAttempt: (e) => kinds.push(e.kind) });
  const result = await client.complete({ ...ask, stream: true });
  assert.equal(result.text, 'one two three four');
  assert.deepEqual(kinds, ['connection', undefined]);
});

test('dropped connections until the attempts run out: kind connection', async () => {
  const s = await server({ respond: () => ({ drop: true }) });
  const client = createChatClient({ baseURL: s.baseURL, apiKey: 'key', maxAttempts: 3, ...fast });
  const error = await failure(client.complete(ask));
  assert.equal(error.kind, 'connection');
  assert.equal(s.requests(), 3);
  assert.equal(error.message, `${s.baseURL} closed the connection without answering (three times)`);
});

test('a refused connection: kind connection, said so', async () => {
  const port = await freePort();
  const client = createChatClient({ baseURL: `http://127.0.0.1:${port}/v1`, apiKey: 'key', maxAttempts: 2, ...fast });
  const error = await failure(client.complete(ask));
  assert.equal(error.kind, 'connection');
  assert.equal(error.attempts, 2);
  assert.equal(error.message, `could not connect to http://127.0.0.1:${port}/v1: connection refused (twice)`);
});

test('a server that hangs: kind timeout after timeoutMs, each attempt', async () => {
  const s = await server({ respond: () => ({ hang: true }) });
  const client = createChatClient({ baseURL: s.baseURL, apiKey: 'key', timeoutMs: 300, maxAttempts: 2, ...fast });
  const started = performance.now();
  const error = await failure(client.complete(ask));
  assert.ok(performance.now() - started >= 590, 'two attempts of 300 ms each');
  assert.equal(error.kind, 'timeout');
  assert.equal(s.requests(), 2);
  assert.equal(error.message, `no answer from ${s.baseURL} within 0.3 s (twice)`);
});

test('a stream that stalls past timeoutMs times out too (the timeout covers the body, not only the headers)', async () => {
  const s = await server({ respond: () => ({ content: 'one two three four five six', chunkDelayMs: 150 }) });
  const client = createChatClient({ baseURL: s.baseURL, apiKey: 'key', timeoutMs: 300, maxAttempts: 1 });
  const error = await failure(client.complete({ ...ask, stream: true }));
  assert.equal(error.kind, 'timeout');
});

test('a stream cancelled half-way is cancelled, not a short answer', async () => {
  const s = await server({ respond: () => ({ content: 'one two three four five six', chunkDelayMs: 100 }) });
  const client = createChatClient({ baseURL: s.baseURL, apiKey: 'key', timeoutMs: 30_000 });
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 250);
  const error = await failure(client.complete({ ...ask, stream: true }, controller.signal));
  assert.equal(error.kind, 'cancelled');
  assert.equal(s.requests(), 1);
});

test('401 and 403: kind auth, not retried, the key refused — and never quoted, though the server echoes it', async () => {
  const key = 'sk-test-0123456789abcdefSECRET';
  const s = await server({ apiKey: 'the-right-key' });
  const client = createChatClient({ baseURL: s.baseURL, apiKey: key, ...fast });
  const error = await failure(client.complete(ask));
  assert.equal(error.kind, 'auth');
  assert.equal(error.status, 401);
  assert.equal(error.attempts, 1);
  assert.equal(s.requests(), 1);
  assert.match(error.message, /refused the API key/);
  assert.ok(!error.message.includes(key) && !error.message.includes('SECRET'), error.message);
  assert.ok(!String(error.stack).includes(key));

  const forbidden = await server({ respond: () => ({ status: 403 }) });
  const other = createChatClient({ baseURL: forbidden.baseURL, apiKey: key, ...fast });
  const error403 = await failure(other.complete(ask));
  assert.equal(error403.kind, 'auth');
  assert.equal(forbidden.requests(), 1);
});

test('other 4xx: kind client, not retried, the server reason quoted', async () => {
  const s = await server({
    respond: () => ({ status: 404, body: '{"error": {"message": "The model `judge-model` does not exist"}}' }),
  });
  const client = createChatClient({ baseURL: s.baseURL, apiKey: 'key', ...fast });
  const error = await failure(client.complete(ask));
  assert.equal(error.kind, 'client');
  assert.equal(error.status, 404);
  assert.equal(s.requests(), 1);
  assert.equal(error.message, `${s.baseURL} answered 404 (The model \`judge-model\` does not exist)`);
});

test('a server that refuses response_format gets the request again without it, and never again', async () => {
  const s = await server({ rejectResponseFormat: true });
  const client = createChatClient({ baseURL: s.baseURL, apiKey: 'key', maxAttempts: 1 });
  const first = await client.complete({ ...ask, responseFormat: schema });
  assert.equal(first.formatDropped, true);
  assert.equal(first.attempts, 2, 'the refused request and the one without the format');
  assert.equal(s.requests(), 2);
  assert.deepEqual(
    s.bodies().map((b) => b.response_format !== undefined),
    [true, false],
  );
  const second = await client.complete({ ...ask, responseFormat: { type: 'json_object' } });
  assert.equal(second.formatDropped, true);
  assert.equal(second.attempts, 1);
  assert.equal(s.requests(), 3);
  assert.equal(s.bodies()[2]?.response_format, undefined);
});

test('a 400 about something else is not taken for a format refusal when no format was sent', async () => {
  const s = await server({ respond: () => ({ status: 400, body: '{"error": {"message": "seed is not supported"}}' }) });
  const client = createChatClient({ baseURL: s.baseURL, apiKey: 'key' });
  const error = await failure(client.complete(ask));
  assert.equal(error.kind, 'client');
  assert.equal(s.requests(), 1);
});

test('the breaker opens after N failed calls: calls fail at once without a request, then one trial is let through', async () => {
  let healthy = false;
  const s = await server({ respond: () => (healthy ? { content: 'back', latencyMs: 150 } : { status: 500 }) });
  const client = createChatClient({
    baseURL: s.baseURL,
    apiKey: 'key',
    maxAttempts: 2,
    ...fast,
    breaker: { failures: 3, pauseMs: 300 },
  });
  for (let i = 0; i < 3; i++) assert.equal((await failure(client.complete(ask))).kind, 'server');
  assert.equal(s.requests(), 6);

  const refused = await failure(client.complete(ask));
  assert.equal(refused.kind, 'circuit-open');
  assert.equal(refused.attempts, 0);
  assert.match(
    refused.message,
    /^calls to http:\/\/127\.0\.0\.1:\d+\/v1 are paused after 3 failures in a row: .* answered 500 twice \(last: Internal Server Error\); the next try is in 0\.\d+ s$/,
  );
  assert.equal(s.requests(), 6, 'no request while open');

  await sleep(350);
  healthy = true;
  const trial = client.complete(ask);
  const duringTrial = await failure(client.complete(ask));
  assert.equal(duringTrial.kind, 'circuit-open', 'one trial at a time');
  assert.match(duringTrial.message, /a trial call is under way$/);
  assert.equal((await trial).text, 'back');
  assert.equal(s.requests(), 7);
  assert.equal((await client.complete(ask)).text, 'back', 'closed again');
  assert.equal(s.requests(), 8);
});

test('a failed trial opens the breaker for another pause', async () => {
  const s = await server({ respond: () => ({ status: 503 }) });
  const client = createChatClient({
    baseURL: s.baseURL,
    apiKey: 'key',
    maxAttempts: 1,
    breaker: { failures: 2, pauseMs: 200 },
  });
  await failure(client.complete(ask));
  await failure(client.complete(ask));
  assert.equal((await failure(client.complete(ask))).kind, 'circuit-open');
  await sleep(250);
  assert.equal((await failure(client.complete(ask))).kind, 'server', 'the trial reaches the server');
  assert.equal(s.requests(), 3);
  assert.equal((await failure(client.complete(ask))).kind, 'circuit-open');
  assert.equal(s.requests(), 3);
});

test('cancelled and client failures do not open the breaker', async () => {
  const s = await server({ respond: () => ({ status: 422 }) });
  const client = createChatClient({ baseURL: s.baseURL, apiKey: 'key', breaker: { failures: 2, pauseMs: 10_000 } });
  for (let i = 0; i < 4; i++) assert.equal((await failure(client.complete(ask))).kind, 'client');
  for (let i = 0; i < 4; i++)
    assert.equal((await failure(client.complete(ask, AbortSignal.abort()))).kind, 'cancelled');
  assert.equal(s.requests(), 4);
});

test('abort during the backoff: cancelled at once, and no further request', async () => {
  const s = await server({ respond: () => ({ status: 500 }) });
  const controller = new AbortController();
  const client = createChatClient({
    baseURL: s.baseURL,
    apiKey: 'key',
    backoff: { baseMs: 20_000, maxMs: 20_000 },
    random: () => 1,
    onAttempt: (event) => {
      if (event.retryInMs) setTimeout(() => controller.abort(), 50);
    },
  });
  const started = performance.now();
  const error = await failure(client.complete(ask, controller.signal));
  const elapsed = performance.now() - started;
  assert.equal(error.kind, 'cancelled');
  assert.equal(error.attempts, 1);
  assert.ok(elapsed < 10_000, `cancelled after ${elapsed} ms, not after the 20 s backoff`);
  await sleep(100);
  assert.equal(s.requests(), 1);
});

test('abort during a request in flight (JSON and streamed): cancelled at once, the connection closed, no further request', async () => {
  const s = await server({ respond: () => ({ hang: true }) });
  const client = createChatClient({ baseURL: s.baseURL, apiKey: 'key', timeoutMs: 30_000 });
  for (const stream of [false, true]) {
    const before = s.requests();
    const controller = new AbortController();
    const call = client.complete({ ...ask, stream }, controller.signal);
    while (s.inFlight() === 0) await sleep(5);
    const started = performance.now();
    controller.abort();
    const error = await failure(call);
    assert.equal(error.kind, 'cancelled');
    assert.equal(error.message, `the call to ${s.baseURL} was cancelled`);
    assert.ok(performance.now() - started < 10_000, 'not after the 30 s timeout');
    const deadline = performance.now() + 5000;
    while (s.inFlight() > 0 && performance.now() < deadline) await sleep(5);
    assert.equal(s.inFlight(), 0, 'the client closed the connection');
    await sleep(100);
    assert.equal(s.requests(), before + 1);
  }
});

test('an already aborted signal: cancelled without a request', async () => {
  const s = await server({});
  const client = createChatClient({ baseURL: s.baseURL, apiKey: 'key' });
  const error = await failure(client.complete(ask, AbortSignal.abort()));
  assert.equal(error.kind, 'cancelled');
  assert.equal(error.attempts, 0);
  assert.equal(s.requests(), 0);
});

/** A port nothing listens on. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
