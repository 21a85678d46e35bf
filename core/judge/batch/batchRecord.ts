// Recording a finished batch (completed, expired, cancelled or failed): its output and error files downloaded line by
// line, every line a recorded call exactly as an online call is (judgeStudy.ts) — raw output, parsed label or a parse
// failure with its raw text (an answer off the scale or not JSON is a failure, never a label), tokens, cost at the
// batch's price — in transactions of a few hundred lines, each line once (the store skips a line whose request has
// a call already, so a download stopped midway and run again records the rest). Requests with no line (expired,
// cancelled, a batch that failed validation) are recorded as calls that got no answer — `--retry-failed` asks them
// again. Then the pairs' suggestions are written and the batch is closed.

import type { BatchLineCall, JudgeBatchRecord, StoredBatchRequest } from '../../store/port/judgeBatchPort.ts';
import type { JudgeCallRecord, JudgeFailureKind } from '../../store/port/judgePort.ts';
import { interpretAnswer, readingFields } from '../judgeVote.ts';
import type { ApiBatch } from './batchApi.ts';
import { readBatchLine } from './batchLines.ts';
import { type BatchRun, batchCallCost } from './batchRun.ts';
import { writeBatchSuggestions } from './batchSuggestions.ts';

/** Lines recorded per transaction. */
const linesPerTransaction = 500;
/** Requests read per page. */
const requestsPerPage = 10_000;

export interface RecordedBatch {
  /** Calls recorded now (a re-run after a stop records only the rest). */
  recorded: number;
  answered: number;
  /** Answers that did not parse into a label on the scale. */
  unparsed: number;
  /** Requests that got no answer (HTTP errors, expired, cancelled). */
  failed: number;
  /** Lines naming no request of the batch, or unreadable without a custom_id: not recorded. */
  strayLines: number;
  suggestions: number;
}

function failureKind(status: number): JudgeFailureKind {
  if (status === 429) return 'rate-limit';
  if (status === 401 || status === 403) return 'auth';
  if (status >= 500) return 'server';
  return 'client';
}

/** The failure of a request the batch has no line for, by how the batch ended. */
function missingLine(
  status: ApiBatch['status'],
  errors: readonly string[],
): { kind: JudgeFailureKind; message: string } {
  if (status === 'expired') return { kind: 'timeout', message: 'the batch expired (24 h) before this request ran' };
  if (status === 'cancelled' || status === 'cancelling')
    return { kind: 'cancelled', message: 'the batch was cancelled before this request ran' };
  if (status === 'failed') {
    return {
      kind: 'client',
      message: `the batch failed${errors.length > 0 ? `: ${errors.slice(0, 3).join('; ')}` : ''}`,
    };
  }
  return { kind: 'server', message: `the batch ended ${status} without a line for this request` };
}

/** Records batch `batch` (finished as `api` says) and closes it. */
export async function recordFinishedBatch(
  run: BatchRun,
  batch: JudgeBatchRecord,
  api: ApiBatch,
): Promise<RecordedBatch> {
  const { store, study, setup, now } = run;
  const requests = new Map<string, StoredBatchRequest>();
  for (let after: string | undefined; ; ) {
    const page = await store.judgeBatches.batchRequests(batch.id, {
      ...(after !== undefined && { after }),
      limit: requestsPerPage,
    });
    for (const request of page) requests.set(request.customId, request);
    if (page.length < requestsPerPage) break;
    after = page[page.length - 1]!.customId;
  }
  const result: RecordedBatch = { recorded: 0, answered: 0, unparsed: 0, failed: 0, strayLines: 0, suggestions: 0 };
  const seen = new Set<string>();
  let pending: BatchLineCall[] = [];
  const flush = async () => {
    if (pending.length === 0) return;
    result.recorded += await store.judgeBatches.recordBatchLines(batch.id, pending);
    pending = [];
  };
  const callOf = (request: StoredBatchRequest): Omit<JudgeCallRecord, 'rawOutput' | 'attempts'> => ({
    cacheKey: request.cacheKey,
    request: {
      endpoint: batch.endpoint,
      model: batch.model,
      parameters: request.parameters,
      promptHash: request.promptHash,
      voteIndex: request.voteIndex,
    },
    promptTemplateHash: batch.promptTemplateHash,
    studyId: batch.studyId,
    pairId: request.pairId,
    judge: batch.judge,
    createdAt: now().toISOString(),
  });
  const add = async (request: StoredBatchRequest, call: JudgeCallRecord) => {
    seen.add(request.customId);
    if (request.callId !== null) return; // recorded by an earlier run
    if (call.failure === undefined) result.answered++;
    else if (call.failure.kind === 'parse') result.unparsed++;
    else result.failed++;
    pending.push({ customId: request.customId, call });
    if (pending.length >= linesPerTransaction) await flush();
  };

  for (const fileId of [api.outputFileId, api.errorFileId]) {
    if (fileId === undefined) continue;
    for await (const line of run.options.api.lines(fileId)) {
      const read = readBatchLine(line);
      const request = read.customId === undefined ? undefined : requests.get(read.customId);
      if (request === undefined || seen.has(request.customId)) {
        result.strayLines++;
        continue;
      }
      const base = callOf(request);
      if (read.kind === 'answer') {
        const shape =
          request.conditions !== undefined ? { conditions: request.conditions } : { scale: setup.scaleValues };
        const cost = batchCallCost(batch.prices, read.inputTokens, read.outputTokens);
        await add(request, {
          ...base,
          rawOutput: read.text,
          ...readingFields(interpretAnswer(study, setup, read.text, shape)),
          ...(read.inputTokens !== undefined && { inputTokens: read.inputTokens }),
          ...(read.outputTokens !== undefined && { outputTokens: read.outputTokens }),
          attempts: 1,
          ...(cost !== undefined && { cost }),
        });
      } else if (read.kind === 'http-error') {
        await add(request, {
          ...base,
          rawOutput: read.raw,
          failure: { kind: failureKind(read.status), message: `${read.status}: ${read.message}` },
          attempts: 1,
        });
      } else if (read.kind === 'batch-error') {
        const expired = read.code === 'batch_expired';
        await add(request, {
          ...base,
          rawOutput: '',
          failure: { kind: expired ? 'timeout' : 'server', message: `${read.code}: ${read.message}` },
          attempts: expired ? 0 : 1,
        });
      } else {
        await add(request, {
          ...base,
          rawOutput: read.raw,
          failure: { kind: 'server', message: read.message },
          attempts: 1,
        });
      }
    }
  }
  for (const request of requests.values()) {
    if (seen.has(request.customId)) continue;
    await add(request, {
      ...callOf(request),
      rawOutput: '',
      failure: missingLine(api.status, api.errors),
      attempts: 0,
    });
  }
  await flush();
  result.suggestions = await writeBatchSuggestions(run, new Set([...requests.values()].map((r) => r.pairId)));
  await store.judgeBatches.closeBatch(batch.id, now().toISOString());
  return result;
}
