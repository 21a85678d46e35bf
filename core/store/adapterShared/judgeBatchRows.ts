// What both adapters of the judge batch port share: a judge_batch row and a judge_batch_request row mapped to the
// port's records. The SQL stays in each adapter (sqlite/sqliteJudgeBatches.ts, postgres/postgresJudgeBatches.ts).
import type { JudgeBatchRecord, JudgeBatchStatus, StoredBatchRequest } from '../port/judgeBatchPort.ts';

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
