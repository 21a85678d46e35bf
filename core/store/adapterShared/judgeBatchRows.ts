// What both adapters of the judge batch port share: a new batch and its requests as the values of their rows, and a
// judge_batch row and a judge_batch_request row mapped to the port's records. The SQL stays in each adapter (sqlite/sqliteJudgeBatches.ts, postgres/postgresJudgeBatches.ts).
import type {
  JudgeBatchRecord,
  JudgeBatchRequest,
  JudgeBatchStatus,
  JudgeBatchUpdate,
  NewJudgeBatch,
  StoredBatchRequest,
} from '../port/judgeBatchPort.ts';

/**
 * A new batch's judge_batch values, in the order both adapters' INSERT lists them: batch_key, study_id, judge,
 * endpoint, model, prompt_template_hash, input_sha256, input_bytes, request_count, price_input_per_million,
 * price_output_per_million, created_at (its status is 'prepared').
 */
export function newBatchValues(batch: NewJudgeBatch): unknown[] {
  return [
    batch.batchKey,
    batch.studyId,
    batch.judge,
    batch.endpoint,
    batch.model,
    batch.promptTemplateHash,
    batch.inputSha256,
    batch.inputBytes,
    batch.requests.length,
    batch.prices?.inputPerMillion ?? null,
    batch.prices?.outputPerMillion ?? null,
    batch.createdAt,
  ];
}

/**
 * A request's judge_batch_request values after batch_id, in the order both adapters' INSERT lists them: custom_id,
 * cache_key, pair_id, vote_index, prompt_hash, parameters, conditions.
 */
export function batchRequestValues(request: JudgeBatchRequest): unknown[] {
  return [
    request.customId,
    request.cacheKey,
    request.pairId,
    request.voteIndex,
    request.promptHash,
    request.parameters,
    request.conditions ?? null,
  ];
}

/** An update's judge_batch values, in the order both adapters' UPDATE lists them (a missing one keeps the column). */
export function batchUpdateValues(update: JudgeBatchUpdate): unknown[] {
  return [
    update.status,
    update.counts?.total ?? null,
    update.counts?.completed ?? null,
    update.counts?.failed ?? null,
    update.outputFileId ?? null,
    update.errorFileId ?? null,
  ];
}

/** A row of `SELECT b.*, (recorded requests) AS recorded FROM judge_batch AS b`. */
export interface BatchRow {
  id: number;
  batch_key: string;
  study_id: number;
  judge: string;
  endpoint: string;
  model: string;
  prompt_template_hash: string;
  input_sha256: string;
  input_bytes: number | string;
  request_count: number;
  recorded: number | string;
  input_file_id: string | null;
  api_batch_id: string | null;
  status: JudgeBatchStatus;
  total_count: number | null;
  completed_count: number | null;
  failed_count: number | null;
  output_file_id: string | null;
  error_file_id: string | null;
  price_input_per_million: number | null;
  price_output_per_million: number | null;
  created_at: string;
  recorded_at: string | null;
}

export function judgeBatchRecord(row: BatchRow): JudgeBatchRecord {
  return {
    id: row.id,
    batchKey: row.batch_key,
    studyId: row.study_id,
    judge: row.judge,
    endpoint: row.endpoint,
    model: row.model,
    promptTemplateHash: row.prompt_template_hash,
    inputSha256: row.input_sha256,
    // PostgreSQL's bigint and count(*) come as text.
    inputBytes: Number(row.input_bytes),
    requests: row.request_count,
    recorded: Number(row.recorded),
    inputFileId: row.input_file_id,
    batchId: row.api_batch_id,
    status: row.status,
    counts:
      row.total_count === null
        ? null
        : { total: row.total_count, completed: row.completed_count ?? 0, failed: row.failed_count ?? 0 },
    outputFileId: row.output_file_id,
    errorFileId: row.error_file_id,
    prices:
      row.price_input_per_million === null || row.price_output_per_million === null
        ? null
        : { inputPerMillion: row.price_input_per_million, outputPerMillion: row.price_output_per_million },
    createdAt: row.created_at,
    recordedAt: row.recorded_at,
  };
}

/** The columns of judge_batch_request row `r` as StoredBatchRequest reads them (SELECT list of both adapters). */
export const batchRequestColumns = `r.custom_id AS "customId", r.cache_key AS "cacheKey", r.pair_id AS "pairId",
  r.vote_index AS "voteIndex", r.prompt_hash AS "promptHash", r.parameters, r.conditions, r.llm_call_id AS "callId"`;

/** A request row read with batchRequestColumns: a NULL conditions count left out. */
export function storedBatchRequest(row: StoredBatchRequest & { conditions?: number | null }): StoredBatchRequest {
  const { conditions, ...rest } = row;
  return conditions === null || conditions === undefined ? rest : { ...rest, conditions };
}
