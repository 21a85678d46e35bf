// `judge --batch-status`: each batch of the study's judge as the API sees it now (validating, in_progress,
// finalizing, completed, failed, expired, cancelling, cancelled; request counts), and every batch that has finished
// since the last look recorded (batchRecord.ts) and closed. Batches a stopped run left recorded but not created are
// created first (batchLaunch.ts). `--wait` calls this until no batch is open.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { StudyModel } from '../../dsl/model.ts';
import type { JudgeBatchRecord } from '../../store/port/judgeBatchPort.ts';
import type { StudyStore } from '../../store/studyStore.ts';
import { inputFileName } from './batchApi.ts';
import { sweepInputFiles } from './batchInputFiles.ts';
import { launchBatch } from './batchLaunch.ts';
import { type RecordedBatch, recordFinishedBatch } from './batchRecord.ts';
import { type BatchRunOptions, startBatchRun } from './batchRun.ts';

/** Statuses after which a batch changes no more. */
export const finishedStatuses: ReadonlySet<string> = new Set(['completed', 'failed', 'expired', 'cancelled']);

export interface BatchState {
  batch: JudgeBatchRecord;
  /** Recorded by this look (the batch had finished). */
  recordedNow?: RecordedBatch;
  /** Why the batch could not be created (a stopped run's batch whose input is gone: forgotten). */
  problem?: string;
}

export interface BatchStatusReport {
  judge: string;
  batches: BatchState[];
  /** Batches not yet closed. */
  open: number;
  /** Open batches of the study's other judges (another model, or this one with another prompt): not followed here. */
  otherJudges: { judge: string; open: number }[];
}

export async function refreshBatches(
  store: StudyStore,
  study: StudyModel,
  options: BatchRunOptions,
): Promise<BatchStatusReport> {
  const run = await startBatchRun(store, study, options);
  const { studyId, annotator } = run;
  await sweepInputFiles(run);
  const recordedNow = new Map<number, RecordedBatch>();
  const problems = new Map<number, string>();
  for (const batch of await store.judgeBatches.batches(studyId, annotator)) {
    if (batch.recordedAt !== null) continue;
    if (batch.batchId === null) {
      const launched = await launchBatch(run, batch);
      if (!launched.launched) problems.set(batch.id, launched.reason);
      continue;
    }
    const api = await options.api.retrieve(batch.batchId);
    await store.judgeBatches.updateBatch(batch.id, {
      status: api.status,
      ...(api.counts && { counts: api.counts }),
      ...(api.outputFileId !== undefined && { outputFileId: api.outputFileId }),
      ...(api.errorFileId !== undefined && { errorFileId: api.errorFileId }),
    });
    if (finishedStatuses.has(api.status)) recordedNow.set(batch.id, await recordFinishedBatch(run, batch, api));
  }
  const batches = (await store.judgeBatches.batches(studyId, annotator)).map(
    (batch): BatchState => ({
      batch,
      ...(recordedNow.has(batch.id) && { recordedNow: recordedNow.get(batch.id)! }),
      ...(problems.has(batch.id) && { problem: problems.get(batch.id)! }),
    }),
  );
  const otherJudges = new Map<string, number>();
  for (const batch of await store.judgeBatches.batches(studyId)) {
    if (batch.judge !== annotator && batch.recordedAt === null)
      otherJudges.set(batch.judge, (otherJudges.get(batch.judge) ?? 0) + 1);
  }
  return {
    judge: annotator,
    batches,
    open: batches.filter((b) => b.batch.recordedAt === null).length,
    otherJudges: [...otherJudges].map(([judge, open]) => ({ judge, open })),
  };
}

/** `judge --cancel`: every open batch of the judge cancelled at the API (a batch not yet created is forgotten). */
export async function cancelBatches(
  store: StudyStore,
  study: StudyModel,
  options: BatchRunOptions,
): Promise<{ judge: string; cancelled: JudgeBatchRecord[]; forgotten: number }> {
  const run = await startBatchRun(store, study, options);
  const { studyId, annotator } = run;
  await sweepInputFiles(run);
  const cancelled: JudgeBatchRecord[] = [];
  let forgotten = 0;
  for (const batch of await store.judgeBatches.batches(studyId, annotator)) {
    if (batch.recordedAt !== null || finishedStatuses.has(batch.status) || batch.status === 'cancelling') continue;
    let batchId = batch.batchId;
    if (batchId === null) {
      // A stopped run may have created it without recording the id.
      const since = Math.floor(Date.parse(batch.createdAt) / 1000) - 3600;
      const found = batch.inputFileId === null ? undefined : await options.api.findBatch(batch.batchKey, since);
      if (found === undefined) {
        await store.judgeBatches.forgetBatch(batch.id);
        rmSync(join(options.folder, inputFileName(batch.batchKey)), { force: true });
        forgotten++;
        continue;
      }
      batchId = found.id;
      await store.judgeBatches.setBatchId(batch.id, batchId);
    }
    const api = await options.api.cancel(batchId);
    await store.judgeBatches.updateBatch(batch.id, { status: api.status, ...(api.counts && { counts: api.counts }) });
    cancelled.push({ ...batch, batchId, status: api.status });
  }
  return { judge: annotator, cancelled, forgotten };
}

/** The pairs with votes that closed batches of the judge left unanswered (failed or expired): `--retry-failed`. */
export async function pairsToRetry(store: StudyStore, studyId: number, judge: string): Promise<Set<number>> {
  return new Set((await store.judgeBatches.failedBatchRequests(studyId, judge)).map((r) => r.pairId));
}
