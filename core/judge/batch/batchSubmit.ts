// `judge --batch`: the votes a study's judge still owes, written as Batch API input files within the API's limits,
// each recorded with its requests, uploaded and created as a batch (batchLaunch.ts) — and the run returns, the batches
// running at the API. The cache rule holds both ways: a vote already answered (online or in a batch: the same cache
// key) is not asked, nor one that a batch not yet closed holds. Batches a killed run left recorded but not created are
// created first. Pairs are rendered a slice at a time and their lines go straight to disk.

import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { basename } from 'node:path';
import type { StudyModel } from '../../dsl/model.ts';
import type { JudgeBatchRequest } from '../../store/port/judgeBatchPort.ts';
import type { StudyStore } from '../../store/studyStore.ts';
import { judgeCacheKey } from '../judgeCallStore.ts';
import { judgePairPages } from '../judgePairPages.ts';
import type { SkippedPair } from '../judgePairs.ts';
import { renderPromptOf, voteCallRequest, voteChatRequest, voteParametersOf } from '../judgeVote.ts';
import { inputFileName } from './batchApi.ts';
import { sweepInputFiles } from './batchInputFiles.ts';
import { type LaunchOutcome, launchBatch } from './batchLaunch.ts';
import { batchInputLine, customIdOf } from './batchLines.ts';
import { type BatchRun, type BatchRunOptions, batchPrice, startBatchRun } from './batchRun.ts';
import { BatchSplitter, batchApiLimits } from './batchSplitter.ts';
import { takeSendingRun } from './sendingRun.ts';

export interface SubmitBatchOptions extends BatchRunOptions {
  limit?: number;
  onlyUnlabelled?: boolean;
  /** Only these pairs (ids): a retry of their failed votes. */
  pairIds?: ReadonlySet<number>;
  /**
   * Cancels the submit: no further batch is written or launched; a batch being uploaded or created finishes and is
   * recorded, and the file being written is dropped (never recorded), so nothing is left half-recorded.
   */
  signal?: AbortSignal;
}

export interface SubmittedBatch {
  /** The record's id of the batch. */
  id: number;
  batchKey: string;
  requests: number;
  /** The API's batch id; undefined when it could not be created (`reason`). */
  batchId?: string;
  reason?: string;
  /** Created by an earlier run that was stopped before recording it (found by its key). */
  resumed: boolean;
}

export interface SubmitReport {
  judge: string;
  model: string;
  endpoint: string;
  pairs: number;
  skipped: SkippedPair[];
  /** Votes of the selected pairs. */
  votes: number;
  /** Of those, answered already (online or in a batch): not asked. */
  cached: number;
  /** Of those, held by a batch not yet closed: not asked again. */
  inOpenBatches: number;
  /** Batches created now (the new ones, and those a stopped run left). */
  batches: SubmittedBatch[];
  /** Stopped by the signal: the votes not in `batches` (nor cached, nor in open batches) were not sent. */
  cancelled: boolean;
}

/** Pairs read, rendered and looked up together. */
const pairsPerSlice = 256;

export async function submitBatches(
  store: StudyStore,
  study: StudyModel,
  options: SubmitBatchOptions,
): Promise<SubmitReport> {
  const run = await startBatchRun(store, study, options, {
    ...(options.limit !== undefined && { limit: options.limit }),
  });
  const { annotator } = run;
  // One sending run per judge on this machine (sendingRun.ts): an online run's votes in flight are not on record.
  const release = takeSendingRun(options.folder, annotator, 'batch');
  try {
    return await submitTaken(run, store, study, options);
  } finally {
    release();
  }
}

async function submitTaken(
  run: BatchRun,
  store: StudyStore,
  study: StudyModel,
  options: SubmitBatchOptions,
): Promise<SubmitReport> {
  const { setup, studyId, annotator, endpoint, now } = run;
  mkdirSync(options.folder, { recursive: true });
  const batches: SubmittedBatch[] = [];
  const outcome = (id: number, batchKey: string, requests: number, launched: LaunchOutcome, resumed: boolean) => {
    batches.push({
      id,
      batchKey,
      requests,
      resumed,
      ...(launched.launched ? { batchId: launched.batchId } : { reason: launched.reason }),
    });
  };

  await sweepInputFiles(run);
  const cancelled = () => options.signal?.aborted === true;
  // What a stopped run recorded but did not create comes first: its requests are held by it.
  for (const batch of await store.judgeBatches.batches(studyId, annotator)) {
    if (cancelled()) break;
    if (batch.status !== 'prepared') continue;
    const launched = await launchBatch(run, batch);
    outcome(batch.id, batch.batchKey, batch.requests, launched, launched.launched && launched.found !== 'none');
  }

  const parametersFor = voteParametersOf(setup);
  const prices = batchPrice(options.prices, options.batchPrices, setup.judge.model);
  const keyOfFile = new Map<string, string>();
  const splitter = new BatchSplitter<JudgeBatchRequest>({
    limits: options.limits ?? batchApiLimits,
    folder: options.folder,
    nameFile: () => {
      const key = randomUUID();
      const name = inputFileName(key);
      keyOfFile.set(name, key);
      return name;
    },
    onFile: async (file) => {
      const batchKey = keyOfFile.get(basename(file.path))!;
      const id = await store.judgeBatches.recordBatch({
        batchKey,
        studyId,
        judge: annotator,
        endpoint,
        model: setup.judge.model,
        promptTemplateHash: options.prompt.hash,
        inputSha256: file.sha256,
        inputBytes: file.bytes,
        ...(prices && { prices }),
        createdAt: now().toISOString(),
        requests: file.items,
      });
      const [recorded] = (await store.judgeBatches.batches(studyId, annotator)).filter((b) => b.id === id);
      outcome(id, batchKey, file.items.length, await launchBatch(run, recorded!, true), false);
    },
  });

  let votes = 0;
  let cached = 0;
  let inOpenBatches = 0;
  let pairs = 0;
  const skipped: SkippedPair[] = [];
  // A page of pairs at a time: the job's prompts are never all in memory, only a page's and the lines on disk.
  for await (const page of judgePairPages(store, study, studyId, options, setup.output, pairsPerSlice)) {
    if (cancelled()) break;
    skipped.push(...page.skipped);
    pairs += page.pairs.length;
    const slice = page.pairs;
    if (slice.length === 0) continue;
    const asks = [];
    // A slice's documents and cache entries in one read each.
    const documents = await store.judge.documentsToJudge(
      studyId,
      slice.map((pair) => pair.docid),
    );
    for (const pair of slice) {
      const row = documents.get(pair.docid);
      if (row === undefined) throw new Error(`the corpus has no document '${pair.docid}' any more`);
      const rendered = renderPromptOf(row, study, setup, options.prompt, pair);
      for (let voteIndex = 0; voteIndex < setup.votesPerPair; voteIndex++) {
        const parameters = parametersFor(rendered.shape, voteIndex);
        const call = voteCallRequest(setup, endpoint, parameters, rendered.promptHash, voteIndex);
        asks.push({ pair, voteIndex, rendered, parameters, call, cacheKey: judgeCacheKey(call) });
      }
    }
    votes += asks.length;
    const keys = asks.map((a) => a.cacheKey);
    const open = new Set(await store.judgeBatches.keysInOpenBatches(keys));
    const answered = await store.judge.cachedCalls(keys);
    for (const ask of asks) {
      // Checked per line: a file that fills up is launched by add(), which may take a while (an upload).
      if (cancelled()) break;
      if (open.has(ask.cacheKey)) {
        inOpenBatches++;
        continue;
      }
      if (answered.has(ask.cacheKey)) {
        cached++;
        continue;
      }
      const customId = customIdOf(ask.pair.pairId, ask.voteIndex);
      await splitter.add(batchInputLine(customId, voteChatRequest(setup, ask.rendered.prompt, ask.parameters)), {
        customId,
        cacheKey: ask.cacheKey,
        pairId: ask.pair.pairId,
        voteIndex: ask.voteIndex,
        promptHash: ask.rendered.promptHash,
        parameters: ask.parameters.json,
        ...(ask.rendered.shape.conditions !== undefined && { conditions: ask.rendered.shape.conditions }),
      });
    }
  }
  // Cancelled: the file being written holds votes no batch asked; it is dropped, not launched.
  if (cancelled()) splitter.discard();
  else await splitter.finish();
  return {
    judge: annotator,
    model: setup.judge.model,
    endpoint,
    pairs,
    skipped,
    votes,
    cached,
    inOpenBatches,
    batches,
    cancelled: cancelled(),
  };
}
