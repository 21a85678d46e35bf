// The Batch API side of `qrels-studio judge` (core/judge/batch/): `--batch` (or the judge block's `mode batch`)
// records the batches that finished since the last run, then writes, uploads and creates batches of the votes still
// owed, prints their ids and returns — `--wait` stays until every batch is recorded; `--batch-status` shows each
// batch of the judge and records the finished ones; `--retry-failed batch` asks the votes closed batches left
// unanswered (failed or expired) in a new batch; `--cancel` cancels the open batches. Input files are written to
// .qrels-studio/batches next to the study's database and deleted once their batch exists. The poll interval of
// --wait is QRELS_STUDIO_BATCH_POLL_MS (default 60 s: batches take minutes to hours).
import { dirname, join } from 'node:path';
import { APIError } from 'openai';
import type { JudgeModel, StudyModel } from '../../core/dsl/model.ts';
import { createBatchApi } from '../../core/judge/batch/batchApi.ts';
import type { RecordedBatch } from '../../core/judge/batch/batchRecord.ts';
import type { BatchRunOptions } from '../../core/judge/batch/batchRun.ts';
import { BatchSplitter } from '../../core/judge/batch/batchSplitter.ts';
import { type BatchState, cancelBatches, pairsToRetry, refreshBatches } from '../../core/judge/batch/batchStatus.ts';
import { type SubmitReport, submitBatches } from '../../core/judge/batch/batchSubmit.ts';
import { formatCount as count, plural } from '../../core/judge/judgeProgressText.ts';
import type { JudgePrompt } from '../../core/judge/judgePrompt.ts';
import { JudgeSetupError } from '../../core/judge/judgeSetup.ts';
import type { PriceTable } from '../../core/judge/priceTable.ts';
import { studyDatabasePath } from '../../core/store/studyDatabase.ts';
import type { StudyStore } from '../../core/store/studyStore.ts';
import { type CliContext, InputError } from '../cliContext.ts';

export type BatchAction = 'submit' | 'status' | 'cancel' | 'retry';

export interface BatchJudgeRequest {
  action: BatchAction;
  studyFile: string;
  study: StudyModel;
  store: StudyStore;
  judge: JudgeModel;
  /** --judge as given. */
  judgeName?: string;
  endpoint: string;
  prompt: JudgePrompt;
  prices: PriceTable;
  batchPrices: PriceTable;
  limit?: number;
  onlyUnlabelled: boolean;
  wait: boolean;
  /** --batch-requests / --batch-bytes: smaller batches than the API allows. */
  maxRequests?: number;
  maxBytes?: number;
}

const defaultPollMs = 60_000;

function pollMs(): number {
  const text = process.env.QRELS_STUDIO_BATCH_POLL_MS;
  const value = text === undefined ? Number.NaN : Number(text);
  return Number.isFinite(value) && value >= 0 ? value : defaultPollMs;
}

function countsText(state: BatchState): string {
  const { batch } = state;
  const counts = batch.counts
    ? `${count(batch.counts.completed)}/${count(batch.counts.total || batch.requests)} done, ${count(batch.counts.failed)} failed`
    : `${plural(batch.requests, 'request')}`;
  const closed = batch.recordedAt !== null ? ' · recorded' : '';
  return `${batch.batchId ?? `(not created: ${batch.batchKey})`}  ${batch.status}  ${counts}${closed}`;
}

function recordedText(recorded: RecordedBatch): string {
  const parts = [`${count(recorded.answered)} answered`];
  if (recorded.unparsed > 0) parts.push(`${count(recorded.unparsed)} not on the scale or not JSON`);
  if (recorded.failed > 0) parts.push(`${count(recorded.failed)} without an answer`);
  if (recorded.strayLines > 0) parts.push(`${plural(recorded.strayLines, 'unreadable line')} skipped`);
  return `recorded ${plural(recorded.recorded, 'call')} (${parts.join(', ')}), ${plural(recorded.suggestions, 'suggestion')} written`;
}

function submitText(report: SubmitReport, studyArg: string): string {
  const asked = report.batches.filter((b) => !b.resumed).reduce((n, b) => n + b.requests, 0);
  const lines = [
    `pairs: ${count(report.pairs)} to judge${report.skipped.length > 0 ? `, ${count(report.skipped.length)} skipped` : ''}`,
    `votes: ${count(report.votes)} (${count(report.cached)} answered already, ${count(report.inOpenBatches)} in open batches), ${count(asked)} sent now`,
  ];
  for (const batch of report.batches) {
    lines.push(
      batch.batchId !== undefined
        ? `batch ${batch.batchId}: ${plural(batch.requests, 'request')}${batch.resumed ? ' (created by a stopped run, found again)' : ''}`
        : `batch ${batch.batchKey}: not created — ${batch.reason}`,
    );
  }
  if (report.batches.length === 0) lines.push('no batch created: nothing to ask');
  else lines.push(`next: qrels-studio judge ${studyArg} --batch-status   (a batch finishes within 24 h)`);
  return `${lines.join('\n')}\n`;
}

/** Runs a batch action; returns the exit code. */
export async function runBatchJudge(
  request: BatchJudgeRequest,
  studyArg: string,
  context: CliContext,
): Promise<number> {
  const { store, study } = request;
  const options: BatchRunOptions = {
    ...(request.judgeName !== undefined && { judge: request.judgeName }),
    prompt: request.prompt,
    api: createBatchApi({ baseURL: request.endpoint, apiKey: process.env.OPENAI_API_KEY ?? '' }),
    folder: join(dirname(studyDatabasePath(request.studyFile)), 'batches'),
    prices: request.prices,
    batchPrices: request.batchPrices,
    ...((request.maxRequests !== undefined || request.maxBytes !== undefined) && {
      limits: {
        maxRequests: request.maxRequests ?? 50_000,
        maxBytes: request.maxBytes ?? 200 * 1024 * 1024,
      },
    }),
  };
  // The splitter refuses impossible limits before anything is sent.
  if (options.limits)
    new BatchSplitter({ limits: options.limits, folder: '', nameFile: () => '', onFile: async () => {} });
  try {
    context.stdout(`judge ${request.judge.model} on study '${study.name}' at ${request.endpoint} — Batch API\n`);
    if (request.action === 'cancel') {
      const result = await cancelBatches(store, study, options);
      for (const batch of result.cancelled) context.stdout(`batch ${batch.batchId}: ${batch.status}\n`);
      if (result.forgotten > 0) context.stdout(`${plural(result.forgotten, 'batch')} never created: forgotten\n`);
      if (result.cancelled.length === 0 && result.forgotten === 0) context.stdout('no open batch to cancel\n');
      else context.stdout(`next: qrels-studio judge ${studyArg} --batch-status   (records what they had done)\n`);
      return 0;
    }
    let unanswered = 0;
    const status = async (print: boolean) => {
      const report = await refreshBatches(store, study, options);
      for (const state of report.batches) {
        if (state.recordedNow) unanswered += state.recordedNow.failed;
        if (!print && state.recordedNow === undefined && state.problem === undefined) continue;
        if (!print && state.batch.recordedAt !== null && state.recordedNow === undefined) continue;
        context.stdout(
          `batch ${countsText(state)}${state.recordedNow ? `\n  ${recordedText(state.recordedNow)}` : ''}` +
            `${state.problem ? `\n  ${state.problem}` : ''}\n`,
        );
      }
      return report;
    };

    let report = await status(request.action === 'status');
    for (const other of report.otherJudges) {
      // A changed prompt is another judge: its batches are followed with the prompt (or --judge) they were made with.
      context.stderr(
        `${plural(other.open, 'open batch')} of judge ${other.judge} not followed here: ` +
          'run with the model and prompt it was made with to record it\n',
      );
    }
    if (request.action === 'status' && report.batches.length === 0) {
      context.stdout(`no batch yet: qrels-studio judge ${studyArg} --batch\n`);
    }
    if (request.action === 'submit' || request.action === 'retry') {
      let pairIds: Set<number> | undefined;
      if (request.action === 'retry') {
        pairIds = await pairsToRetry(store, await store.studies.studyId(study.name), report.judge);
        context.stdout(`retrying the votes closed batches left unanswered: ${plural(pairIds.size, 'pair')}\n`);
      }
      if (pairIds === undefined || pairIds.size > 0) {
        const submitted = await submitBatches(store, study, {
          ...options,
          ...(request.limit !== undefined && { limit: request.limit }),
          onlyUnlabelled: request.onlyUnlabelled,
          ...(pairIds !== undefined && { pairIds }),
        });
        context.stdout(submitText(submitted, studyArg));
      }
    }
    if (request.wait) {
      let stopped = false;
      const interrupt = () => {
        stopped = true;
      };
      process.once('SIGINT', interrupt);
      try {
        report = await status(false);
        while (report.open > 0 && !stopped) {
          context.stderr(`waiting for ${plural(report.open, 'open batch')}…\n`);
          await new Promise((resolve) => setTimeout(resolve, pollMs()));
          report = await status(false);
        }
      } finally {
        process.removeListener('SIGINT', interrupt);
      }
      if (stopped) {
        context.stderr(
          `stopped waiting: the batches go on; qrels-studio judge ${studyArg} --batch-status records them\n`,
        );
        return 130;
      }
    }
    if (unanswered > 0) {
      context.stderr(
        `${plural(unanswered, 'request')} got no answer (failed or expired): ` +
          `qrels-studio judge ${studyArg} --retry-failed batch (or online) asks them again\n`,
      );
      return 1;
    }
    return 0;
  } catch (error) {
    if (error instanceof JudgeSetupError) throw new InputError(error.message);
    // What the Files or Batch API refused, said as it said it (never with the key).
    if (error instanceof APIError) {
      throw new InputError(`${request.endpoint} refused a Batch API request: ${error.status ?? ''} ${error.message}`);
    }
    throw error;
  }
}
