// A stand-in for an OpenAI-compatible endpoint, for the judge's tests and the benchmark: a plain node:http server on
// 127.0.0.1 with `GET /v1/models` and `POST /v1/chat/completions` (JSON, and SSE streaming with `data: {…}` chunks and
// `data: [DONE]`). The test decides each answer (`respond`): a completion, an HTTP error with retry-after, a dropped
// connection, a hang, a malformed body — so the real `openai` SDK meets the failures real servers produce. The server
// counts and records what it was sent, and measures how many requests it served at once.
import { createServer, type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CompletionUsage {
  prompt_tokens: number;
  completion_tokens: number;
}

/** What the server does with one chat request. `latencyMs` delays any of them (before the first byte). */
export type Behaviour =
  | {
      content: string;
      latencyMs?: number;
      /** Default: words of the messages / of the content. */
      usage?: CompletionUsage;
      /** Streaming only: the pause between chunks (the content is sent a word per chunk). */
      chunkDelayMs?: number;
      /** Streaming only: destroy the socket after this many content chunks (a connection cut mid-answer). */
      dropAfterChunks?: number;
    }
  | { status: number; retryAfter?: string; retryAfterMs?: number; body?: string; latencyMs?: number }
  | { drop: true; latencyMs?: number }
  | { hang: true }
  | { malformed: true; latencyMs?: number };

export interface ChatRequestSeen {
  /** The parsed JSON body. */
  body: ChatBody;
  /** 0 for the server's first chat request, counting every one (refused ones too). */
  index: number;
  /** The Authorization header, if any. */
  authorization?: string;
}

export interface ChatBody {
  model?: string;
  messages?: { role: string; content: string }[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  response_format?: unknown;
  [key: string]: unknown;
}

export interface OpenAiServerOptions {
  /** Default: `{ content: 'ok' }` for every request. */
  respond?(request: ChatRequestSeen): Behaviour | Promise<Behaviour>;
  /** Answer 400 ("response_format is not supported") to any request that carries response_format. */
  rejectResponseFormat?: boolean;
  /** When set, requests whose bearer token differs get 401 — with the token they sent quoted, as some servers do. */
  apiKey?: string;
  /** Listed by GET /v1/models; default ['test-model']. */
  models?: string[];
  /** A wider server's own routes (openAiBatchServer.ts), tried first for every request: true when it answered. */
  routes?(request: IncomingMessage, response: ServerResponse): Promise<boolean>;
}

export interface OpenAiServer {
  /** `http://127.0.0.1:PORT/v1` */
  baseURL: string;
  port: number;
  /** Chat requests received (refused, dropped and hung ones included). */
  requests(): number;
  requestsByModel(): Map<string, number>;
  /** The parsed bodies of the chat requests, in arrival order. */
  bodies(): ChatBody[];
  /** Chat requests being served now, and the most ever served at once. */
  inFlight(): number;
  maxInFlight(): number;
  close(): Promise<void>;
}

export async function startOpenAiServer(options: OpenAiServerOptions = {}): Promise<OpenAiServer> {
  const respond: NonNullable<OpenAiServerOptions['respond']> = options.respond ?? (() => ({ content: 'ok' }));
  const models = options.models ?? ['test-model'];
  const bodies: ChatBody[] = [];
  const byModel = new Map<string, number>();
  let inFlight = 0;
  let maxInFlight = 0;

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent && !response.destroyed)
        sendJson(response, 500, errorBody(String(error), 'server_error'));
      else response.destroy();
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (options.routes && (await options.routes(request, response))) return;
    const path = (request.url ?? '').split('?')[0];
    if (request.method === 'GET' && path === '/v1/models') {
      sendJson(response, 200, {
        object: 'list',
        data: models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'test' })),
      });
      return;
    }
    if (request.method !== 'POST' || path !== '/v1/chat/completions') {
      sendJson(response, 404, errorBody(`no route ${request.method} ${path}`, 'invalid_request_error'));
      return;
    }
    const text = await readBody(request);
    let body: ChatBody;
    try {
      body = JSON.parse(text) as ChatBody;
    } catch {
      body = {};
    }
    const index = bodies.length;
    bodies.push(body);
    const model = typeof body.model === 'string' ? body.model : '';
    byModel.set(model, (byModel.get(model) ?? 0) + 1);
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    response.once('close', () => inFlight--);

    const authorization = request.headers.authorization;
    if (options.apiKey !== undefined && authorization !== `Bearer ${options.apiKey}`) {
      const sent = authorization?.replace(/^Bearer /, '') ?? '';
      sendJson(response, 401, errorBody(`Incorrect API key provided: ${sent}.`, 'invalid_request_error'));
      return;
    }
    if (options.rejectResponseFormat && body.response_format !== undefined) {
      sendJson(
        response,
        400,
        errorBody("'response_format' of type 'json_schema' is not supported", 'invalid_request_error'),
      );
      return;
    }
    const behaviour = await respond({ body, index, ...(authorization !== undefined && { authorization }) });
    if ('hang' in behaviour) return; // the response stays open until the client goes away or the server closes
    if (behaviour.latencyMs) {
      const answered = await delay(behaviour.latencyMs, response);
      if (!answered) return;
    }
    if ('drop' in behaviour) {
      request.socket.destroy();
    } else if ('malformed' in behaviour) {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"id": "chatcmpl-broken", "choices": [');
    } else if ('status' in behaviour) {
      const headers: Record<string, string> = {};
      if (behaviour.retryAfter !== undefined) headers['retry-after'] = behaviour.retryAfter;
      if (behaviour.retryAfterMs !== undefined) headers['retry-after-ms'] = String(behaviour.retryAfterMs);
      if (behaviour.body !== undefined) {
        const isJson = isJsonText(behaviour.body);
        response.writeHead(behaviour.status, {
          ...headers,
          'content-type': isJson ? 'application/json' : 'text/plain',
        });
        response.end(behaviour.body);
      } else {
        const reason = STATUS_CODES[behaviour.status] ?? 'Error';
        sendJson(
          response,
          behaviour.status,
          errorBody(reason, behaviour.status >= 500 ? 'server_error' : 'error'),
          headers,
        );
      }
    } else {
      const usage = behaviour.usage ?? {
        prompt_tokens: (body.messages ?? []).reduce((sum, m) => sum + words(String(m.content)).length, 0),
        completion_tokens: words(behaviour.content).length,
      };
      if (body.stream) await stream(response, model, behaviour, body, usage);
      else sendJson(response, 200, completion(model, behaviour.content, usage));
    }
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    port,
    requests: () => bodies.length,
    requestsByModel: () => new Map(byModel),
    bodies: () => [...bodies],
    inFlight: () => inFlight,
    maxInFlight: () => maxInFlight,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/** Resolves true after `ms`, or false as soon as the client has gone away. */
function delay(ms: number, response: ServerResponse): Promise<boolean> {
  return new Promise((resolve) => {
    const gone = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      response.off('close', gone);
      resolve(!response.destroyed);
    }, ms);
    response.once('close', gone);
  });
}

export function sendJson(
  response: ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): void {
  if (response.destroyed) return;
  const text = JSON.stringify(value);
  response.writeHead(status, {
    ...headers,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}

export function errorBody(message: string, type: string) {
  return { error: { message, type, param: null, code: null } };
}

export function completion(model: string, content: string, usage: CompletionUsage) {
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop', logprobs: null }],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  };
}

async function stream(
  response: ServerResponse,
  model: string,
  answer: { content: string; chunkDelayMs?: number; dropAfterChunks?: number },
  body: ChatBody,
  usage: CompletionUsage,
): Promise<void> {
  const chunkDelayMs = answer.chunkDelayMs ?? 0;
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const base = { id: 'chatcmpl-test', object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model };
  const send = (chunk: unknown) => {
    if (!response.destroyed) response.write(`data: ${JSON.stringify(chunk)}\n\n`);
  };
  send({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] });
  let sent = 0;
  for (const piece of answer.content.match(/\S+\s*|\s+/g) ?? []) {
    if (sent++ === answer.dropAfterChunks) {
      response.socket?.destroy();
      return;
    }
    if (chunkDelayMs > 0 && !(await delay(chunkDelayMs, response))) return;
    send({ ...base, choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] });
  }
  send({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
  if (body.stream_options?.include_usage) {
    send({ ...base, choices: [], usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } });
  }
  if (!response.destroyed) response.end('data: [DONE]\n\n');
}

export function words(text: string): string[] {
  return text.split(/\s+/).filter((w) => w !== '');
}

function isJsonText(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
