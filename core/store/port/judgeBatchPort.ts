// What a Batch API judge run (core/judge/batch/) asks of the record: its batches — each recorded, with the requests
// it holds, BEFORE its input file is uploaded, then its file id and batch id as soon as the API gives them — their
// status as last seen, and the lines of their output and error files recorded as calls exactly as online calls are
// (judgePort.ts JudgeCallRecord), each once. The judge's rules stay in core/judge/batch/; this port reads and writes.
import type { JudgeCallRecord } from './judgePort.ts';

/** A batch's status at the Batch API; 'prepared': recorded here, not yet created there. */
export type JudgeBatchStatus =
  | 'prepared'
  | 'validating'
  | 'failed'
  | 'in_progress'
  | 'finalizing'
  | 'completed'
  | 'expired'
  | 'cancelling'
  | 'cancelled';

/** One request of a batch: a pair's vote, with what its call's record needs. */
export interface JudgeBatchRequest {
  /** The line's custom_id, unique in its batch. */
  customId: string;
  /** judgeCacheKey of the request: the same as an online call of the same vote. */
  cacheKey: string;
  pairId: number;
  voteIndex: number;
  /** sha256 of the rendered prompt. */
  promptHash: string;
  /** canonicalJson of the parameters sent. */
  parameters: string;
  /** A conditions judge: how many conditions the answer must have; undefined for a label judge. */
  conditions?: number;
}

/** Per-million-token prices a batch's calls are costed at. */
export interface BatchPrices {
  inputPerMillion: number;
  outputPerMillion: number;
}

/** A batch to record before its input file is uploaded. */
export interface NewJudgeBatch {
  /** Our key: in the input file's name and the batch's metadata, so a re-run finds either after a kill. */
  batchKey: string;
  studyId: number;
  /** The judge's annotator name (llm:…). */
  judge: string;
  /** Normalised. */
  endpoint: string;
  model: string;
  promptTemplateHash: string;
  /** sha256 and size of the input file (JSONL). */
  inputSha256: string;
  inputBytes: number;
  /** Of the batch's calls; none: the model has no price. */
  prices?: BatchPrices;
  /** ISO 8601. */
  createdAt: string;
  requests: readonly JudgeBatchRequest[];
}

/** The API's request counts of a batch. */
export interface BatchRequestCounts {
  total: number;
  completed: number;
  failed: number;
}

/** A recorded batch. */
export interface JudgeBatchRecord {
  /** The record's id of the batch (not the API's). */
  id: number;
  batchKey: string;
  studyId: number;
  judge: string;
  endpoint: string;
  model: string;
  promptTemplateHash: string;
  inputSha256: string;
  inputBytes: number;
  /** Requests it holds. */
  requests: number;
  /** Of those, recorded as calls. */
  recorded: number;
  inputFileId: string | null;
  /** The Batch API's id. */
  batchId: string | null;
  status: JudgeBatchStatus;
  counts: BatchRequestCounts | null;
  outputFileId: string | null;
  errorFileId: string | null;
  prices: BatchPrices | null;
  createdAt: string;
  /** When every line was recorded and the pairs' suggestions written: the batch is closed. */
  recordedAt: string | null;
}

/** What the API said of a batch. */
export interface JudgeBatchUpdate {
  status: Exclude<JudgeBatchStatus, 'prepared'>;
  counts?: BatchRequestCounts;
  outputFileId?: string;
  errorFileId?: string;
}

/** A request of a batch and the call it became, if any. */
export interface StoredBatchRequest extends JudgeBatchRequest {
  /** The recorded call of this line; null while none is. */
  callId: number | null;
}

/** A line of an output or error file, as a call to record for request `customId` of the batch. */
export interface BatchLineCall {
  customId: string;
  call: JudgeCallRecord;
}

export interface JudgeBatchPort {
  /** Records a batch and its requests (one transaction) before anything is uploaded; returns its id. */
  recordBatch(batch: NewJudgeBatch): Promise<number>;
  /** The input file the batch was uploaded as. */
  setInputFile(id: number, inputFileId: string): Promise<void>;
  /** The API's batch id, once created; the status becomes 'validating' unless an update says more. */
  setBatchId(id: number, batchId: string): Promise<void>;
  /** What the API said of the batch now. */
  updateBatch(id: number, update: JudgeBatchUpdate): Promise<void>;
  /** The batch's lines recorded as calls (one transaction); a line whose request has a call already is skipped.
   * Returns how many were recorded now. */
  recordBatchLines(id: number, lines: readonly BatchLineCall[]): Promise<number>;
  /** Every line recorded and the suggestions written: the batch is closed. */
  closeBatch(id: number, recordedAt: string): Promise<void>;
  /** A batch never created at the API ('prepared'), and its requests, forgotten: nothing of it was asked. */
  forgetBatch(id: number): Promise<void>;
  /** The study's batches (of `judge`, when given), oldest first. */
  batches(studyId: number, judge?: string): Promise<JudgeBatchRecord[]>;
  /** The batch's requests, in custom_id order after `after` (at most `limit`). */
  batchRequests(id: number, page: { after?: string; limit: number }): Promise<StoredBatchRequest[]>;
  /** Of `cacheKeys`, those a batch not yet closed holds (they must not be asked again meanwhile). */
  keysInOpenBatches(cacheKeys: readonly string[]): Promise<string[]>;
  /**
   * Requests of study `studyId`'s closed batches (of `judge`) whose call got no answer (failed or expired) and whose
   * vote has no answered call since (none with its cache key): what --retry-failed asks again.
   */
  failedBatchRequests(studyId: number, judge: string): Promise<StoredBatchRequest[]>;
}
