// The OpenAI-compatible test server (openAiServer.ts) with the Files and Batch APIs as the real `openai` SDK calls
// them: POST /v1/files (multipart/form-data, streamed to disk), GET /v1/files (cursor pages, purpose filter),
// GET/DELETE /v1/files/{id}, GET /v1/files/{id}/content; POST /v1/batches, GET /v1/batches/{id}, GET /v1/batches
// (cursor pages), POST /v1/batches/{id}/cancel — and /v1/chat/completions from openAiServer.ts. A batch moves
// validating → in_progress → finalizing → completed (or failed when its input is not valid batch JSONL, expired when
// some lines expire, cancelling → cancelled) one step per poll, or as the test advances it. The test decides each
// line's answer (`respondLine`); output and error files are written line by line to disk, so a 100,000-line batch
// never sits in memory. Every request is counted by route, and a test can hold a route (before it acts, or after
// some lines of a download) to kill the client at an exact point.
import { once } from 'node:events';
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync, type WriteStream } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import {
  type ChatBody,
  type CompletionUsage,
  completion,
  errorBody,
  type OpenAiServer,
  type OpenAiServerOptions,
  sendJson,
  startOpenAiServer,
  words,
} from './openAiServer.ts';

export type Route =
  | 'models'
  | 'chat.completions'
  | 'files.create'
  | 'files.list'
  | 'files.retrieve'
  | 'files.content'
  | 'files.delete'
  | 'batches.create'
  | 'batches.list'
  | 'batches.retrieve'
  | 'batches.cancel';

/** What one line of a batch's input gets. */
export type BatchLineAnswer =
  /** A chat completion (status 200) in the output file. */
  | { content: string; usage?: CompletionUsage }
  /** A failed request in the error file: `response.status_code` and an error body. */
  | { status: number; message?: string }
  /** Not run before the window ended: `error.code` "batch_expired" in the error file; the batch ends expired. */
  | { expired: true }
  /** Written to the output file as is (a broken line). */
  | { rawLine: string };

export interface BatchLineSeen {
  batchId: string;
  customId: string;
  /** The request's body (the chat request). */
  body: ChatBody;
  /** 1-based line of the input file. */
  line: number;
}

export interface BatchError {
  code: string;
  message: string;
  param: string | null;
  line: number | null;
}

export type BatchStatus =
  | 'validating'
  | 'failed'
  | 'in_progress'
  | 'finalizing'
  | 'completed'
  | 'expired'
  | 'cancelling'
  | 'cancelled';

export interface BatchObject {
  id: string;
  object: 'batch';
  endpoint: string;
  errors: { object: 'list'; data: BatchError[] } | null;
  input_file_id: string;
  completion_window: string;
  status: BatchStatus;
  output_file_id: string | null;
  error_file_id: string | null;
  created_at: number;
  in_progress_at: number | null;
  expires_at: number;
  finalizing_at: number | null;
  completed_at: number | null;
  failed_at: number | null;
  expired_at: number | null;
  cancelling_at: number | null;
  cancelled_at: number | null;
  request_counts: { total: number; completed: number; failed: number };
  usage: { input_tokens: number; output_tokens: number; total_tokens: number } | null;
  model: string | null;
  metadata: Record<string, string> | null;
}

export interface FileObject {
  id: string;
  object: 'file';
  bytes: number;
  created_at: number;
  filename: string;
  purpose: string;
  status: 'processed';
  expires_at: number | null;
  status_details: null;
}

export interface OpenAiBatchServerOptions extends Omit<OpenAiServerOptions, 'routes'> {
  /** Default: `{ content: 'ok' }` for every line. */
  respondLine?(line: BatchLineSeen): BatchLineAnswer | Promise<BatchLineAnswer>;
  /**
   * How batches move: a step every `pollsPerStep` retrievals of the batch (default 1), at a retrieval `stepMs` or
   * more after the batch's last step (a clock: the status moves over time, seen when polled), or only when the test calls
   * `advance` ('manual').
   */
  progress?: 'manual' | { pollsPerStep: number } | { stepMs: number };
  /** Where files are kept; default a temporary folder removed on close. */
  directory?: string;
}

export interface Hold {
  /** Resolves when a request of the held route has arrived (and waits). */
  arrived: Promise<void>;
  /** Lets the request go on: it takes effect and is answered (if its client is still there). */
  release(): void;
  /** Drops the request: it takes no effect and its connection is closed, as if it had never been sent. */
  drop(): void;
}

export interface OpenAiBatchServer extends OpenAiServer {
  /** Requests received per route (held and dropped ones included). */
  routeCounts(): Map<Route, number>;
  /** Every request, in arrival order. */
  requestLog(): { route: Route; method: string; path: string }[];
  /** The batches created, oldest first (a copy of each). */
  batches(): BatchObject[];
  /** The custom ids of a batch's input, in file order (known once it has been validated). */
  customIds(batchId: string): string[];
  /** Files stored (uploaded and generated), oldest first. */
  files(): FileObject[];
  /** Moves a batch one step (the only way under progress 'manual'); resolves once the step's work is written. */
  advance(batchId: string): Promise<BatchStatus>;
  /** Steps until the batch is done (completed, failed, expired or cancelled). */
  finish(batchId: string): Promise<BatchStatus>;
  /**
   * Holds the next request of `route` before it acts — or, for files.content with `afterLines`, after that many lines
   * of the content were sent.
   */
  hold(route: Route, options?: { afterLines?: number }): Hold;
}

interface StoredFile extends FileObject {
  path: string;
  deleted: boolean;
}

interface BatchState {
  batch: BatchObject;
  polls: number;
  /** performance.now() of the batch's creation or last step. */
  steppedAt: number;
  customIds: string[];
  stepping: Promise<BatchStatus> | undefined;
}

interface PendingHold {
  route: Route;
  afterLines: number | undefined;
  arrived: () => void;
  decided: Promise<'release' | 'drop'>;
  decide: (decision: 'release' | 'drop') => void;
}

const doneStatuses: ReadonlySet<BatchStatus> = new Set(['completed', 'failed', 'expired', 'cancelled']);
const now = () => Math.floor(Date.now() / 1000);

export async function startOpenAiBatchServer(options: OpenAiBatchServerOptions = {}): Promise<OpenAiBatchServer> {
  const respondLine: NonNullable<OpenAiBatchServerOptions['respondLine']> =
    options.respondLine ?? (() => ({ content: 'ok' }));
  const progress = options.progress ?? { pollsPerStep: 1 };
  const ownDirectory = options.directory === undefined;
  const directory = options.directory ?? mkdtempSync(join(tmpdir(), 'openai-batch-server-'));
  const files = new Map<string, StoredFile>();
  const batches = new Map<string, BatchState>();
  const counts = new Map<Route, number>();
  const log: { route: Route; method: string; path: string }[] = [];
  const holds: PendingHold[] = [];
  /** Every hold made, so that closing the server lets no request wait for ever. */
  const allHolds: PendingHold[] = [];
  let nextId = 0;
  const newId = (prefix: string) => `${prefix}-${(++nextId).toString().padStart(6, '0')}`;

  function takeHold(route: Route): PendingHold | undefined {
    const index = holds.findIndex((h) => h.route === route);
    return index < 0 ? undefined : holds.splice(index, 1)[0];
  }

  async function routes(request: IncomingMessage, response: ServerResponse): Promise<boolean> {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const method = request.method ?? 'GET';
    const found = route(method, url.pathname);
    if (found === undefined) return false;
    counts.set(found.route, (counts.get(found.route) ?? 0) + 1);
    log.push({ route: found.route, method, path: url.pathname });
    // Chat and models are openAiServer's: counted here, answered there.
    if (found.route === 'chat.completions' || found.route === 'models') return false;
    if (options.apiKey !== undefined && request.headers.authorization !== `Bearer ${options.apiKey}`) {
      request.resume();
      sendJson(response, 401, errorBody('Incorrect API key provided.', 'invalid_request_error'));
      return true;
    }
    // A batch's creation is read whole first: held, it then acts even if its client has gone since.
    const createBody = found.route === 'batches.create' ? await readText(request) : undefined;
    const hold = takeHold(found.route);
    if (hold && hold.afterLines === undefined) {
      hold.arrived();
      if ((await hold.decided) === 'drop') {
        request.socket.destroy();
        return true;
      }
    }
    switch (found.route) {
      case 'files.create':
        await createFile(request, response);
        break;
      case 'files.list':
        request.resume();
        listFiles(url, response);
        break;
      case 'files.retrieve': {
        request.resume();
        const file = liveFile(found.id!);
        if (file) sendJson(response, 200, fileObject(file));
        else notFound(response, 'file', found.id!);
        break;
      }
      case 'files.content':
        request.resume();
        await sendContent(found.id!, response, hold);
        break;
      case 'files.delete': {
        request.resume();
        const file = liveFile(found.id!);
        if (!file) {
          notFound(response, 'file', found.id!);
          break;
        }
        file.deleted = true;
        rmSync(file.path, { force: true });
        sendJson(response, 200, { id: file.id, object: 'file', deleted: true });
        break;
      }
      case 'batches.create':
        createBatch(createBody!, response);
        break;
      case 'batches.list':
        request.resume();
        listBatches(url, response);
        break;
      case 'batches.retrieve': {
        request.resume();
        const state = batches.get(found.id!);
        if (!state) {
          notFound(response, 'batch', found.id!);
          break;
        }
        if (progress !== 'manual' && !doneStatuses.has(state.batch.status)) {
          state.polls++;
          const due =
            'stepMs' in progress
              ? performance.now() - state.steppedAt >= progress.stepMs
              : state.polls % progress.pollsPerStep === 0;
          if (due) await step(state);
        }
        sendJson(response, 200, state.batch);
        break;
      }
      case 'batches.cancel': {
        request.resume();
        const state = batches.get(found.id!);
        if (!state) {
          notFound(response, 'batch', found.id!);
          break;
        }
        if (state.batch.status === 'validating' || state.batch.status === 'in_progress') {
          state.batch.status = 'cancelling';
          state.batch.cancelling_at = now();
        } else if (state.batch.status !== 'cancelling') {
          sendJson(
            response,
            409,
            errorBody(`Cannot cancel a batch with status '${state.batch.status}'.`, 'invalid_request_error'),
          );
          break;
        }
        sendJson(response, 200, state.batch);
        break;
      }
    }
    return true;
  }

  function liveFile(id: string): StoredFile | undefined {
    const file = files.get(id);
    return file && !file.deleted ? file : undefined;
  }

  async function createFile(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(request.headers['content-type'] ?? '');
    if (!boundary) {
      request.resume();
      sendJson(response, 400, errorBody('Expected a multipart/form-data body.', 'invalid_request_error'));
      return;
    }
    const id = newId('file');
    const path = join(directory, id);
    let upload: { fields: Map<string, string>; filename: string | undefined; bytes: number };
    try {
      upload = await readMultipart(request, boundary[1] ?? boundary[2]!, path);
    } catch (error) {
      rmSync(path, { force: true });
      sendJson(response, 400, errorBody(`Malformed multipart body: ${String(error)}`, 'invalid_request_error'));
      return;
    }
    const purpose = upload.fields.get('purpose');
    const problem =
      upload.filename === undefined
        ? "Missing required parameter: 'file'."
        : purpose === undefined
          ? "Missing required parameter: 'purpose'."
          : undefined;
    if (problem) {
      rmSync(path, { force: true });
      sendJson(response, 400, errorBody(problem, 'invalid_request_error'));
      return;
    }
    const file = storeFile(id, path, upload.filename!, purpose!);
    sendJson(response, 200, fileObject(file));
  }

  function storeFile(id: string, path: string, filename: string, purpose: string): StoredFile {
    const file: StoredFile = {
      id,
      object: 'file',
      bytes: statSync(path).size,
      created_at: now(),
      filename,
      purpose,
      status: 'processed',
      expires_at: null,
      status_details: null,
      path,
      deleted: false,
    };
    files.set(id, file);
    return file;
  }

  function listFiles(url: URL, response: ServerResponse): void {
    const purpose = url.searchParams.get('purpose');
    const all = [...files.values()].filter((f) => !f.deleted && (purpose === null || f.purpose === purpose));
    sendJson(response, 200, page(all.map(fileObject), url, 10000, 'desc'));
  }

  function listBatches(url: URL, response: ServerResponse): void {
    sendJson(
      response,
      200,
      page(
        [...batches.values()].map((s) => s.batch),
        url,
        20,
        'desc',
      ),
    );
  }

  async function sendContent(id: string, response: ServerResponse, hold: PendingHold | undefined): Promise<void> {
    const file = liveFile(id);
    if (!file) {
      notFound(response, 'file', id);
      return;
    }
    response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': file.bytes });
    let linesLeft = hold?.afterLines;
    for await (const chunk of createReadStream(file.path) as AsyncIterable<Buffer>) {
      if (response.destroyed) return;
      let rest = chunk;
      if (linesLeft !== undefined && hold) {
        let cut = -1;
        for (let at = rest.indexOf(10); at >= 0; at = rest.indexOf(10, at + 1)) {
          if (--linesLeft === 0) {
            cut = at + 1;
            break;
          }
        }
        if (cut >= 0) {
          await send(response, rest.subarray(0, cut));
          rest = rest.subarray(cut);
          linesLeft = undefined;
          hold.arrived();
          if ((await hold.decided) === 'drop' || response.destroyed) {
            response.destroy();
            return;
          }
        }
      }
      await send(response, rest);
    }
    response.end();
  }

  function createBatch(text: string, response: ServerResponse): void {
    const checked = checkBatchRequest(text);
    if ('status' in checked) {
      sendJson(response, checked.status, errorBody(checked.message, 'invalid_request_error'));
      return;
    }
    const { input, metadata } = checked;
    const created = now();
    const batch: BatchObject = {
      id: newId('batch'),
      object: 'batch',
      endpoint: '/v1/chat/completions',
      errors: null,
      input_file_id: input.id,
      completion_window: '24h',
      status: 'validating',
      output_file_id: null,
      error_file_id: null,
      created_at: created,
      in_progress_at: null,
      expires_at: created + 24 * 3600,
      finalizing_at: null,
      completed_at: null,
      failed_at: null,
      expired_at: null,
      cancelling_at: null,
      cancelled_at: null,
      request_counts: { total: 0, completed: 0, failed: 0 },
      usage: null,
      model: null,
      metadata,
    };
    batches.set(batch.id, { batch, polls: 0, steppedAt: performance.now(), customIds: [], stepping: undefined });
    sendJson(response, 200, batch);
  }

  /** The request to create a batch, checked as the API does before a batch exists. */
  function checkBatchRequest(
    text: string,
  ): { status: number; message: string } | { input: StoredFile; metadata: Record<string, string> | null } {
    let body: { input_file_id?: unknown; endpoint?: unknown; completion_window?: unknown; metadata?: unknown };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      return { status: 400, message: 'The request body is not valid JSON.' };
    }
    if (body === null || typeof body !== 'object') return { status: 400, message: 'The body must be an object.' };
    if (typeof body.input_file_id !== 'string') {
      return { status: 400, message: "Missing required parameter: 'input_file_id'." };
    }
    if (body.endpoint !== '/v1/chat/completions') {
      return { status: 400, message: `Invalid 'endpoint': ${JSON.stringify(body.endpoint)} is not supported here.` };
    }
    if (body.completion_window !== '24h') {
      return { status: 400, message: "Invalid 'completion_window': only '24h' is supported." };
    }
    const input = liveFile(body.input_file_id);
    if (!input) return { status: 404, message: `No such file: '${body.input_file_id}'.` };
    if (input.purpose !== 'batch') {
      return {
        status: 400,
        message: `Invalid 'input_file_id': ${input.id} has purpose '${input.purpose}', not 'batch'.`,
      };
    }
    if (body.metadata !== undefined && body.metadata !== null && !isStringRecord(body.metadata)) {
      return { status: 400, message: "Invalid 'metadata': values must be strings." };
    }
    return { input, metadata: body.metadata ?? null };
  }

  /** One step of a batch's life; steps of one batch never overlap. */
  function step(state: BatchState): Promise<BatchStatus> {
    const previous = state.stepping ?? Promise.resolve(state.batch.status);
    const next = previous.then(() => stepNow(state));
    state.stepping = next;
    return next;
  }

  async function stepNow(state: BatchState): Promise<BatchStatus> {
    const batch = state.batch;
    state.steppedAt = performance.now();
    switch (batch.status) {
      case 'validating': {
        const errors = await validate(state);
        if (errors.length > 0) {
          batch.status = 'failed';
          batch.failed_at = now();
          batch.errors = { object: 'list', data: errors };
        } else {
          batch.status = 'in_progress';
          batch.in_progress_at = now();
        }
        break;
      }
      case 'in_progress':
        await run(state);
        batch.status = 'finalizing';
        batch.finalizing_at = now();
        break;
      case 'finalizing':
        if (batch.expired_at !== null) batch.status = 'expired';
        else {
          batch.status = 'completed';
          batch.completed_at = now();
        }
        break;
      case 'cancelling':
        batch.status = 'cancelled';
        batch.cancelled_at = now();
        break;
      default:
        break;
    }
    return batch.status;
  }

  /** Reads the input file line by line as the Batch API checks it; keeps the custom ids only. */
  async function validate(state: BatchState): Promise<BatchError[]> {
    const errors: BatchError[] = [];
    const seen = new Set<string>();
    const input = liveFile(state.batch.input_file_id);
    if (!input) return [{ code: 'file_not_found', message: 'The input file was deleted.', param: null, line: null }];
    let line = 0;
    let model: string | undefined;
    const fail = (code: string, message: string, param: string | null = null) => {
      if (errors.length < 1000) errors.push({ code, message, param, line });
    };
    for await (const text of createInterface({ input: createReadStream(input.path), crlfDelay: Infinity })) {
      line++;
      if (text.trim() === '') continue;
      let request: { custom_id?: unknown; method?: unknown; url?: unknown; body?: unknown };
      try {
        request = JSON.parse(text) as typeof request;
      } catch {
        fail('invalid_json_line', `This line is not parseable as valid JSON.`);
        continue;
      }
      if (request === null || typeof request !== 'object' || Array.isArray(request)) {
        fail('invalid_json_line', 'This line is not a JSON object.');
        continue;
      }
      const missing = (['custom_id', 'method', 'url', 'body'] as const).find((key) => request[key] === undefined);
      if (missing) {
        fail('missing_required_parameter', `Missing required parameter: '${missing}'.`, missing);
        continue;
      }
      if (typeof request.custom_id !== 'string') {
        fail('invalid_custom_id', "'custom_id' must be a string.", 'custom_id');
        continue;
      }
      if (seen.has(request.custom_id)) {
        fail('duplicate_custom_id', `The custom_id '${request.custom_id}' is used more than once.`, 'custom_id');
        continue;
      }
      seen.add(request.custom_id);
      state.customIds.push(request.custom_id);
      if (request.method !== 'POST') fail('invalid_method', "Only 'POST' is supported.", 'method');
      else if (request.url !== state.batch.endpoint) {
        fail('mismatched_endpoint', `The url '${String(request.url)}' does not match the batch's endpoint.`, 'url');
      } else if (request.body === null || typeof request.body !== 'object') {
        fail('invalid_body', "'body' must be a JSON object.", 'body');
      } else {
        const lineModel = (request.body as ChatBody).model;
        if (typeof lineModel !== 'string') fail('missing_required_parameter', "Missing 'body.model'.", 'body.model');
        else if (model === undefined) model = lineModel;
        else if (lineModel !== model) {
          fail('mismatched_model', `The model '${lineModel}' differs from the batch's model '${model}'.`, 'body.model');
        }
      }
    }
    if (line === 0 || seen.size === 0) {
      fail('empty_file', 'The input file has no requests.');
    }
    state.batch.request_counts.total = seen.size;
    state.batch.model = model ?? null;
    return errors;
  }

  /** Answers every line, writing the output and error files as it goes. */
  async function run(state: BatchState): Promise<void> {
    const batch = state.batch;
    const input = liveFile(batch.input_file_id)!;
    const outputId = newId('file');
    const errorId = newId('file');
    const output = createWriteStream(join(directory, outputId));
    const errorOut = createWriteStream(join(directory, errorId));
    let outputLines = 0;
    let errorLines = 0;
    let inputTokens = 0;
    let outputTokens = 0;
    let line = 0;
    let sequence = 0;
    const requestIds = () => {
      sequence++;
      return { id: `batch_req_${batch.id}_${sequence}`, request_id: `req_${batch.id}_${sequence}` };
    };
    for await (const text of createInterface({ input: createReadStream(input.path), crlfDelay: Infinity })) {
      line++;
      if (text.trim() === '') continue;
      const request = JSON.parse(text) as { custom_id: string; body: ChatBody };
      const answer = await respondLine({ batchId: batch.id, customId: request.custom_id, body: request.body, line });
      const ids = requestIds();
      if ('expired' in answer) {
        batch.expired_at ??= now();
        batch.request_counts.failed++;
        errorLines++;
        await write(
          errorOut,
          {
            id: ids.id,
            custom_id: request.custom_id,
            response: null,
            error: {
              code: 'batch_expired',
              message: 'This request could not be executed before the completion window expired.',
            },
          },
          undefined,
        );
      } else if ('status' in answer) {
        batch.request_counts.failed++;
        errorLines++;
        const type = answer.status >= 500 ? 'server_error' : 'invalid_request_error';
        await write(
          errorOut,
          {
            id: ids.id,
            custom_id: request.custom_id,
            response: {
              status_code: answer.status,
              request_id: ids.request_id,
              body: errorBody(answer.message ?? `The request failed with status ${answer.status}.`, type),
            },
            error: null,
          },
          undefined,
        );
      } else if ('rawLine' in answer) {
        batch.request_counts.completed++;
        outputLines++;
        await write(output, undefined, answer.rawLine);
      } else {
        const model = typeof request.body.model === 'string' ? request.body.model : '';
        const usage = answer.usage ?? {
          prompt_tokens: (request.body.messages ?? []).reduce((sum, m) => sum + words(String(m.content)).length, 0),
          completion_tokens: words(answer.content).length,
        };
        inputTokens += usage.prompt_tokens;
        outputTokens += usage.completion_tokens;
        batch.request_counts.completed++;
        outputLines++;
        const body = { ...completion(model, answer.content, usage), id: `chatcmpl-${ids.id}` };
        await write(
          output,
          {
            id: ids.id,
            custom_id: request.custom_id,
            response: { status_code: 200, request_id: ids.request_id, body },
            error: null,
          },
          undefined,
        );
      }
    }
    output.end();
    errorOut.end();
    await Promise.all([once(output, 'close'), once(errorOut, 'close')]);
    // As the API does: a file only when it has lines.
    if (outputLines > 0) {
      storeFile(outputId, join(directory, outputId), `${batch.id}_output.jsonl`, 'batch_output');
      batch.output_file_id = outputId;
    } else rmSync(join(directory, outputId), { force: true });
    if (errorLines > 0) {
      storeFile(errorId, join(directory, errorId), `${batch.id}_error.jsonl`, 'batch_output');
      batch.error_file_id = errorId;
    } else rmSync(join(directory, errorId), { force: true });
    batch.usage = { input_tokens: inputTokens, output_tokens: outputTokens, total_tokens: inputTokens + outputTokens };
  }

  const chat = await startOpenAiServer({ ...options, routes });
  return {
    ...chat,
    routeCounts: () => new Map(counts),
    requestLog: () => log.map((entry) => ({ ...entry })),
    batches: () => [...batches.values()].map((s) => structuredClone(s.batch)),
    customIds: (batchId) => [...(batches.get(batchId)?.customIds ?? [])],
    files: () => [...files.values()].filter((f) => !f.deleted).map(fileObject),
    advance: (batchId) => {
      const state = batches.get(batchId);
      if (!state) throw new Error(`no batch ${batchId}`);
      return step(state);
    },
    finish: async (batchId) => {
      const state = batches.get(batchId);
      if (!state) throw new Error(`no batch ${batchId}`);
      while (!doneStatuses.has(await step(state))) {}
      return state.batch.status;
    },
    hold: (route, holdOptions = {}) => {
      let arrived!: () => void;
      let decide!: (decision: 'release' | 'drop') => void;
      const arrival = new Promise<void>((resolve) => {
        arrived = resolve;
      });
      const decided = new Promise<'release' | 'drop'>((resolve) => {
        decide = resolve;
      });
      const hold = { route, afterLines: holdOptions.afterLines, arrived, decided, decide };
      holds.push(hold);
      allHolds.push(hold);
      return { arrived: arrival, release: () => decide('release'), drop: () => decide('drop') };
    },
    close: async () => {
      for (const hold of allHolds) {
        hold.arrived();
        hold.decide('drop');
      }
      await chat.close();
      if (ownDirectory) rmSync(directory, { recursive: true, force: true });
    },
  };
}

function route(method: string, path: string): { route: Route; id?: string } | undefined {
  if (path === '/v1/models' && method === 'GET') return { route: 'models' };
  if (path === '/v1/chat/completions' && method === 'POST') return { route: 'chat.completions' };
  if (path === '/v1/files') {
    if (method === 'POST') return { route: 'files.create' };
    if (method === 'GET') return { route: 'files.list' };
  }
  let match = /^\/v1\/files\/([^/]+)(\/content)?$/.exec(path);
  if (match) {
    const id = decodeURIComponent(match[1]!);
    if (match[2] && method === 'GET') return { route: 'files.content', id };
    if (!match[2] && method === 'GET') return { route: 'files.retrieve', id };
    if (!match[2] && method === 'DELETE') return { route: 'files.delete', id };
    return undefined;
  }
  if (path === '/v1/batches') {
    if (method === 'POST') return { route: 'batches.create' };
    if (method === 'GET') return { route: 'batches.list' };
  }
  match = /^\/v1\/batches\/([^/]+)(\/cancel)?$/.exec(path);
  if (match) {
    const id = decodeURIComponent(match[1]!);
    if (match[2] && method === 'POST') return { route: 'batches.cancel', id };
    if (!match[2] && method === 'GET') return { route: 'batches.retrieve', id };
  }
  return undefined;
}

/** A cursor page as the API answers lists: `after` is the id of the last item of the previous page. */
function page<T extends { id: string; created_at: number }>(
  items: T[],
  url: URL,
  defaultLimit: number,
  defaultOrder: 'asc' | 'desc',
) {
  const order = url.searchParams.get('order') ?? defaultOrder;
  const limit = Number(url.searchParams.get('limit') ?? defaultLimit);
  // Items are kept in creation order; ids break ties of the same second.
  const ordered = order === 'asc' ? items : [...items].reverse();
  const after = url.searchParams.get('after');
  const start = after === null ? 0 : ordered.findIndex((item) => item.id === after) + 1;
  const data = ordered.slice(start, start + limit);
  return {
    object: 'list',
    data,
    first_id: data[0]?.id ?? null,
    last_id: data.at(-1)?.id ?? null,
    has_more: start + limit < ordered.length,
  };
}

function fileObject(file: FileObject): FileObject {
  return {
    id: file.id,
    object: 'file',
    bytes: file.bytes,
    created_at: file.created_at,
    filename: file.filename,
    purpose: file.purpose,
    status: file.status,
    expires_at: file.expires_at,
    status_details: null,
  };
}

function notFound(response: ServerResponse, kind: 'file' | 'batch', id: string): void {
  sendJson(response, 404, errorBody(`No such ${kind}: '${id}'.`, 'invalid_request_error'));
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    Object.values(value).every((v) => typeof v === 'string')
  );
}

async function readText(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** Writes to a response, waiting while its buffer is full (or until the client has gone). */
async function send(response: ServerResponse, data: Buffer): Promise<void> {
  if (response.write(data)) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    response.on('drain', done);
    response.on('close', done);
  });
}

/** One JSONL line to a file, waiting when the stream's buffer is full. */
async function write(stream: WriteStream, value: unknown, raw: string | undefined): Promise<void> {
  if (!stream.write(`${raw ?? JSON.stringify(value)}\n`)) await once(stream, 'drain');
}

/**
 * A multipart/form-data body read as it arrives: the part named "file" streams to `path`, the other parts are kept
 * as text fields. Throws on a body that does not follow the format (RFC 7578).
 */
async function readMultipart(
  request: IncomingMessage,
  boundary: string,
  path: string,
): Promise<{ fields: Map<string, string>; filename: string | undefined; bytes: number }> {
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  const fields = new Map<string, string>();
  let filename: string | undefined;
  let bytes = 0;
  // The body starts with "--boundary"; prefixing CRLF lets every delimiter be searched the same way.
  let pending: Buffer = Buffer.from('\r\n');
  let state: 'preamble' | 'headers' | 'body' | 'done' = 'preamble';
  let part: { name: string; file: WriteStream | undefined; text: Buffer[] } | undefined;

  const emit = async (data: Buffer) => {
    if (!part || data.length === 0) return;
    if (part.file) {
      bytes += data.length;
      if (!part.file.write(data)) await once(part.file, 'drain');
    } else part.text.push(Buffer.from(data));
  };
  const endPart = async () => {
    if (!part) return;
    if (part.file) {
      part.file.end();
      await once(part.file, 'close');
    } else fields.set(part.name, Buffer.concat(part.text).toString('utf8'));
    part = undefined;
  };

  try {
    for await (const chunk of request as AsyncIterable<Buffer>) {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      for (;;) {
        if (state === 'preamble' || state === 'body') {
          const at = pending.indexOf(delimiter);
          if (at < 0) {
            // Keep what could be the start of a delimiter split across chunks.
            const keep = Math.min(pending.length, delimiter.length - 1);
            if (state === 'body') await emit(pending.subarray(0, pending.length - keep));
            pending = pending.subarray(pending.length - keep);
            break;
          }
          if (pending.length < at + delimiter.length + 2) break;
          if (state === 'body') {
            await emit(pending.subarray(0, at));
            await endPart();
          }
          const after = pending.subarray(at + delimiter.length, at + delimiter.length + 2).toString('latin1');
          pending = pending.subarray(at + delimiter.length + 2);
          if (after === '--') {
            state = 'done';
            break;
          }
          if (after !== '\r\n') throw new Error('a boundary line must end with CRLF');
          state = 'headers';
        } else if (state === 'headers') {
          const at = pending.indexOf('\r\n\r\n');
          if (at < 0) break;
          const headers = pending.subarray(0, at).toString('utf8');
          pending = pending.subarray(at + 4);
          const disposition = /^content-disposition:\s*form-data(.*)$/im.exec(headers);
          if (!disposition) throw new Error('a part without Content-Disposition: form-data');
          const name = /;\s*name="([^"]*)"/i.exec(disposition[1]!)?.[1];
          if (name === undefined) throw new Error('a part without a name');
          const partFilename = /;\s*filename="([^"]*)"/i.exec(disposition[1]!)?.[1];
          if (name === 'file') {
            filename = partFilename ?? 'upload';
            part = { name, file: createWriteStream(path), text: [] };
          } else part = { name, file: undefined, text: [] };
          state = 'body';
        } else break;
      }
    }
  } finally {
    if (part?.file && !part.file.closed) {
      part.file.end();
      await once(part.file, 'close');
    }
  }
  if (state !== 'done') throw new Error('the body ended before its closing boundary');
  return { fields, filename, bytes };
}
