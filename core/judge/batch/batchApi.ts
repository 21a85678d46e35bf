// The Files and Batch APIs as a batch judge run uses them, through the real `openai` SDK: upload an input file
// (purpose "batch"), create a batch of chat completions (completion window 24h) whose metadata names our batch key,
// find a file or a batch again by that key after a kill (files.list, batches.list), follow a batch, cancel it, and
// read an output or error file line by line (never the whole file in memory). The SDK's own retries stay on here
// (unlike chatClient.ts): these calls are few, and none of them is a paid answer that a retry could repeat — a
// create retried after a lost reply is the one case that could double a batch, which the key lookup catches.
import { createReadStream } from 'node:fs';
import OpenAI, { toStreamingFile } from 'openai';
import type { JudgeBatchStatus } from '../../store/port/judgeBatchPort.ts';

/** The metadata key a batch carries our batch key under. */
export const batchKeyMetadata = 'qrels_studio_batch';

/** The input file's name for a batch key: what files.list finds it by. */
export function inputFileName(batchKey: string): string {
  return `qrels-studio-batch-${batchKey}.jsonl`;
}

/** The batch key an input file's name carries (inputFileName), or undefined for another file. */
export function batchKeyOfInputFile(name: string): string | undefined {
  return /^qrels-studio-batch-(.+)\.jsonl$/.exec(name)?.[1];
}

export interface ApiBatch {
  id: string;
  status: Exclude<JudgeBatchStatus, 'prepared'>;
  counts?: { total: number; completed: number; failed: number };
  outputFileId?: string;
  errorFileId?: string;
  /** Unix seconds. */
  createdAt: number;
  /** What the API said went wrong with the batch (a failed validation). */
  errors: string[];
}

export interface BatchApi {
  readonly baseURL: string;
  upload(path: string, filename: string): Promise<string>;
  /** An uploaded batch input file with this name and size, if there is one: its id. */
  findFile(filename: string, bytes: number): Promise<string | undefined>;
  create(inputFileId: string, batchKey: string): Promise<ApiBatch>;
  /** The batch whose metadata names `batchKey`, looking back to batches created at `since` (Unix seconds). */
  findBatch(batchKey: string, since: number): Promise<ApiBatch | undefined>;
  retrieve(batchId: string): Promise<ApiBatch>;
  cancel(batchId: string): Promise<ApiBatch>;
  /** A file's lines, read as they arrive. */
  lines(fileId: string): AsyncIterable<string>;
}

export interface BatchApiOptions {
  baseURL: string;
  /** Empty for local servers that need none. */
  apiKey: string;
  /** Per request; default 10 minutes (an upload of 200 MB). */
  timeoutMs?: number;
}

function apiBatch(batch: OpenAI.Batches.Batch): ApiBatch {
  const counts = batch.request_counts;
  return {
    id: batch.id,
    status: batch.status,
    ...(counts && { counts: { total: counts.total, completed: counts.completed, failed: counts.failed } }),
    ...(batch.output_file_id && { outputFileId: batch.output_file_id }),
    ...(batch.error_file_id && { errorFileId: batch.error_file_id }),
    createdAt: batch.created_at,
    errors: (batch.errors?.data ?? []).map((e) =>
      [e.line !== undefined && e.line !== null ? `line ${e.line}` : '', e.code, e.message].filter(Boolean).join(': '),
    ),
  };
}

export function createBatchApi(options: BatchApiOptions): BatchApi {
  const baseURL = options.baseURL.replace(/\/+$/, '');
  const sdk = new OpenAI({
    baseURL,
    // The SDK refuses an empty key; local servers ignore the placeholder.
    apiKey: options.apiKey || 'no-key',
    organization: null,
    project: null,
    maxRetries: 3,
    timeout: options.timeoutMs ?? 600_000,
    logLevel: 'off',
  });
  return {
    baseURL,
    async upload(path, filename) {
      // Streamed from disk as the request is sent (toFile would read the whole file, up to 200 MB, first). A stream
      // cannot be sent twice: no retry here — a re-run finds the file by its name or uploads it again.
      const file = await sdk.files.create(
        { file: toStreamingFile(createReadStream(path), filename, { type: 'application/jsonl' }), purpose: 'batch' },
        { maxRetries: 0 },
      );
      return file.id;
    },
    async findFile(filename, bytes) {
      // The size too: an upload cut off midway is not the file.
      for await (const file of sdk.files.list({ purpose: 'batch' })) {
        if (file.filename === filename && file.bytes === bytes) return file.id;
      }
      return undefined;
    },
    async create(inputFileId, batchKey) {
      return apiBatch(
        await sdk.batches.create({
          input_file_id: inputFileId,
          endpoint: '/v1/chat/completions',
          completion_window: '24h',
          metadata: { [batchKeyMetadata]: batchKey },
        }),
      );
    },
    async findBatch(batchKey, since) {
      // Newest first: stop at batches older than ours could be.
      for await (const batch of sdk.batches.list({ limit: 100 })) {
        if (batch.metadata?.[batchKeyMetadata] === batchKey) return apiBatch(batch);
        if (batch.created_at < since) return undefined;
      }
      return undefined;
    },
    async retrieve(batchId) {
      return apiBatch(await sdk.batches.retrieve(batchId));
    },
    async cancel(batchId) {
      return apiBatch(await sdk.batches.cancel(batchId));
    },
    async *lines(fileId) {
      const response = await sdk.files.content(fileId);
      if (response.body === null) return;
      // Read a chunk only when the caller has taken the lines before it: readline's async iterator queues every
      // line it reads however slowly they are consumed (a 100,000-line output file ended up in memory).
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let rest = '';
      for (;;) {
        const { done, value } = await reader.read();
        rest += done ? decoder.decode() : decoder.decode(value, { stream: true });
        let start = 0;
        for (let end = rest.indexOf('\n'); end !== -1; end = rest.indexOf('\n', start)) {
          const line = rest.slice(start, end).replace(/\r$/, '');
          start = end + 1;
          if (line.trim() !== '') yield line;
        }
        rest = rest.slice(start);
        if (done) break;
      }
      if (rest.trim() !== '') yield rest;
    },
  };
}
