// "Run LLM judge" through the Batch API, without `vscode` (the command shows what this returns; the tests run it in
// Node): submit (estimated against the judge's budget first, at batch prices — refused beyond it, nothing sent),
// status (each batch's status and counts; batches that finished are downloaded and recorded by core), cancel. The
// same endpoint and API key as the online run; input files are written next to the study's database
// (.qrels-studio/batches/, git-ignored with it) and deleted by core once their batch exists.
import { join } from 'node:path';
import type { JudgeModel, StudyModel } from '../../core/dsl/model.ts';
import { createBatchApi } from '../../core/judge/batch/batchApi.ts';
import type { BatchRunOptions } from '../../core/judge/batch/batchRun.ts';
import {
  type BatchStatusReport,
  cancelBatches,
  finishedStatuses,
  pairsToRetry,
  refreshBatches,
} from '../../core/judge/batch/batchStatus.ts';
import { type SubmitReport, submitBatches } from '../../core/judge/batch/batchSubmit.ts';
import type { JobEstimate } from '../../core/judge/budget/costEstimate.ts';
import { budgetedJob } from '../../core/judge/budget/jobEstimate.ts';
import { formatCount, plural } from '../../core/judge/judgeProgressText.ts';
import { type JudgeRunPrompt, judgeAnnotatorName, judgeSetup } from '../../core/judge/judgeSetup.ts';
import type { PriceTable } from '../../core/judge/priceTable.ts';
import type { JudgeBatchRecord } from '../../core/store/port/judgeBatchPort.ts';
import type { StudyStore } from '../../core/store/studyStore.ts';
import type { BatchesOnRecord } from './judgeActions.ts';

export interface BatchJudgeRun {
  judge: JudgeModel;
  /** The judge's 1-based place among the study's judges (two may share a model). */
  place: number;
  /** Normalised (endpointApproval.ts), approved by the user. */
  endpoint: string;
  /** From SecretStorage or OPENAI_API_KEY; empty for a local server that needs none. */
  apiKey: string;
  prompt: JudgeRunPrompt;
  prices: PriceTable;
  /** The study file's folder: input files go to its .qrels-studio/batches/. */
  studyFolder: string;
  /** Requests and bytes per batch (default: the API's limits). */
  limits?: BatchRunOptions['limits'];
}

/** Where a study's batch input files are written while they are uploaded. */
export const batchInputFolder = (studyFolder: string): string => join(studyFolder, '.qrels-studio', 'batches');

function runOptions(run: BatchJudgeRun): BatchRunOptions {
  return {
    judge: String(run.place),
    prompt: run.prompt,
    api: createBatchApi({ baseURL: run.endpoint, apiKey: run.apiKey }),
    folder: batchInputFolder(run.studyFolder),
    prices: run.prices,
    ...(run.limits && { limits: run.limits }),
  };
}

/** The judge's batches on record: how many are open, how many finished at the API and wait to be recorded. */
export async function batchesOnRecord(
  store: StudyStore,
  study: StudyModel,
  judge: JudgeModel,
  prompt: JudgeRunPrompt,
): Promise<BatchesOnRecord> {
  const studyId = await store.studies.studyId(study.name);
  const batches = await store.judgeBatches.batches(studyId, judgeAnnotatorName(judge.model, prompt.hash));
  const unrecorded = batches.filter((b) => b.recordedAt === null);
  const finished = unrecorded.filter((b) => finishedStatuses.has(b.status));
  const unanswered =
    batches.length === 0
      ? 0
      : (await store.judgeBatches.failedBatchRequests(studyId, judgeAnnotatorName(judge.model, prompt.hash))).length;
  return { open: unrecorded.length - finished.length, toCollect: finished.length, unanswered };
}

/** The pairs whose votes closed batches left unanswered (failed or expired, none answered since). */
export async function pairsLeftUnanswered(
  store: StudyStore,
  study: StudyModel,
  run: BatchJudgeRun,
): Promise<Set<number>> {
  return pairsToRetry(
    store,
    await store.studies.studyId(study.name),
    judgeAnnotatorName(run.judge.model, run.prompt.hash),
  );
}

/**
 * Writes, uploads and creates the batches of the votes not yet answered nor held by an open batch. With a budget,
 * the job is estimated at batch prices first: a BudgetRefusal (nothing sent) when it is over or has no price.
 */
export interface SubmitJudgeBatchesOptions {
  /** The estimate, once made (only with a budget): before anything is sent. */
  onEstimate?: (estimate: JobEstimate) => void;
  /** Only these pairs: a retry of what batches left unanswered (pairsLeftUnanswered). */
  pairIds?: ReadonlySet<number>;
  /** The notification's Cancel: no further batch is written; one being uploaded or created is finished and recorded. */
  signal?: AbortSignal;
}

export async function submitJudgeBatches(
  store: StudyStore,
  study: StudyModel,
  run: BatchJudgeRun,
  { onEstimate, pairIds, signal }: SubmitJudgeBatchesOptions = {},
): Promise<SubmitReport> {
  if (run.judge.budget) {
    const { estimate } = await budgetedJob(
      store,
      study,
      {
        setup: judgeSetup(study, { judge: String(run.place), prompt: run.prompt }),
        prompt: run.prompt,
        endpoint: run.endpoint,
        prices: run.prices,
        mode: 'batch',
        ...(pairIds && { pairIds }),
      },
      run.judge.budget.amount,
    );
    onEstimate?.(estimate);
  }
  return submitBatches(store, study, { ...runOptions(run), ...(pairIds && { pairIds }), ...(signal && { signal }) });
}

/** Each batch as the API sees it now; those that finished are downloaded and recorded. */
export function judgeBatchStatus(store: StudyStore, study: StudyModel, run: BatchJudgeRun): Promise<BatchStatusReport> {
  return refreshBatches(store, study, runOptions(run));
}

/** Asks the API to cancel every open batch of the judge. */
export function cancelJudgeBatches(
  store: StudyStore,
  study: StudyModel,
  run: BatchJudgeRun,
): Promise<{ judge: string; cancelled: JudgeBatchRecord[]; forgotten: number }> {
  return cancelBatches(store, study, runOptions(run));
}

const batchCount = (n: number): string => `${formatCount(n)} batch${n === 1 ? '' : 'es'}`;

/** "batch_abc: in_progress · 40 of 100 done, 2 failed" — what the output channel and the QuickPick list show. */
export function batchLine(batch: JudgeBatchRecord): string {
  const id = batch.batchId ?? `not created yet (key ${batch.batchKey})`;
  // A batch still validating has counts of 0 of 0: say how many requests it holds instead.
  const counts =
    batch.counts && batch.counts.total > 0
      ? ` · ${formatCount(batch.counts.completed)} of ${formatCount(batch.counts.total)} done` +
        (batch.counts.failed > 0 ? `, ${formatCount(batch.counts.failed)} failed` : '')
      : ` · ${plural(batch.requests, 'request')}`;
  const recorded = batch.recordedAt !== null ? ` · recorded (${plural(batch.recorded, 'call')})` : '';
  return `${id}: ${batch.status}${counts}${recorded}`;
}

/** The status report as lines: one a batch, what this look recorded, and what to do next. */
export function batchStatusLines(report: BatchStatusReport): string[] {
  if (report.batches.length === 0) return [`judge ${report.judge}: no batch on record`];
  const lines = [`judge ${report.judge}: ${batchCount(report.batches.length)}, ${formatCount(report.open)} open`];
  for (const state of report.batches) {
    lines.push(`  ${batchLine(state.batch)}`);
    const r = state.recordedNow;
    if (r) {
      lines.push(
        `    recorded now: ${plural(r.recorded, 'call')} (${formatCount(r.answered)} answered, ` +
          `${formatCount(r.unparsed)} unparsed, ${formatCount(r.failed)} failed), ${plural(r.suggestions, 'suggestion')}`,
      );
    }
    if (state.problem) lines.push(`    ${state.problem}`);
  }
  return lines;
}

/** A submit report in a sentence (the notification) and its batches (the output channel). */
export function submitLines(report: SubmitReport): string[] {
  const sent = report.batches.reduce((n, b) => n + b.requests, 0);
  const head = report.cancelled
    ? `judge ${report.judge}: cancelled — ` +
      (report.batches.length === 0
        ? 'no batch was created'
        : `${batchCount(report.batches.length)} created before the cancel with ${plural(sent, 'request')}, recorded ` +
          '("Batch status" records their results)') +
      '; the votes not in a batch were not sent: judge with the Batch API again to send them'
    : report.batches.length === 0
      ? `judge ${report.judge}: nothing to send — ${formatCount(report.cached)} of ${formatCount(report.votes)} votes answered already` +
        (report.inOpenBatches > 0 ? `, ${formatCount(report.inOpenBatches)} in open batches` : '')
      : `judge ${report.judge}: ${batchCount(report.batches.length)} created with ${plural(sent, 'request')} ` +
        `(${formatCount(report.cached)} answered already, ${formatCount(report.inOpenBatches)} in open batches); ` +
        'results within 24 h — "Batch status" records them';
  return [
    head,
    ...report.batches.map(
      (b) =>
        `  ${b.batchId ?? `not created (key ${b.batchKey})`}: ${plural(b.requests, 'request')}` +
        (b.resumed ? ' (found: created by a run that was stopped)' : '') +
        (b.reason ? ` — ${b.reason}` : ''),
    ),
  ];
}
