// What every step of a Batch API judge run shares: its options, the judge settled once (judgeSetup.ts) with its
// annotator name, study id and endpoint, and the rule for what a batch's calls cost — the Batch API's price, which
// is half the chat price: a model's `batchPrices` entry when the user gave one (`--batch-price`), else half its
// entry in `prices` (`--price`), else no cost (nothing is guessed, as online).
import type { StudyModel } from '../../dsl/model.ts';
import type { BatchPrices } from '../../store/port/judgeBatchPort.ts';
import type { StudyStore } from '../../store/studyStore.ts';
import { normaliseEndpoint } from '../endpointApproval.ts';
import { type JudgeRunPrompt, type JudgeSetup, judgeAnnotatorName, judgeSetup } from '../judgeSetup.ts';
import { modelPrice, type PriceTable } from '../priceTable.ts';
import type { BatchApi } from './batchApi.ts';
import type { BatchLimits } from './batchSplitter.ts';

export interface BatchRunOptions {
  /** The study's judge to run: its model name, or its 1-based place among the study's judges; optional with one. */
  judge?: string;
  prompt: JudgeRunPrompt;
  api: BatchApi;
  /** Where input files are written; each is deleted once its batch is created. */
  folder: string;
  /** Chat prices (USD per million tokens); a batch costs half of them unless `batchPrices` names the model. */
  prices: PriceTable;
  batchPrices?: PriceTable;
  /** Default: the API's (batchSplitter.ts batchApiLimits). */
  limits?: BatchLimits;
  /** The clock batches and calls are stamped with. */
  now?: () => Date;
}

export interface BatchRun {
  store: StudyStore;
  study: StudyModel;
  options: BatchRunOptions;
  setup: JudgeSetup;
  studyId: number;
  /** The judge's annotator name. */
  annotator: string;
  endpoint: string;
  now: () => Date;
}

/** The run's settled choices; a JudgeSetupError (nothing sent) when the judge cannot run as asked. */
export async function startBatchRun(
  store: StudyStore,
  study: StudyModel,
  options: BatchRunOptions,
  selection: { limit?: number } = {},
): Promise<BatchRun> {
  const setup = judgeSetup(study, { ...options, ...selection });
  const studyId = await store.studies.studyId(study.name);
  const annotator = judgeAnnotatorName(setup.judge.model, options.prompt.hash);
  // Recorded before anything is sent: a person's name is refused first.
  await store.judge.judgeAnnotator(annotator);
  return {
    store,
    study,
    options,
    setup,
    studyId,
    annotator,
    endpoint: normaliseEndpoint(options.api.baseURL),
    now: options.now ?? (() => new Date()),
  };
}

/** The price a batch of `model` is costed at (see above); undefined when the model has none. */
export function batchPrice(
  prices: PriceTable,
  batchPrices: PriceTable | undefined,
  model: string,
): BatchPrices | undefined {
  const explicit = batchPrices && modelPrice(batchPrices, model);
  if (explicit) return { inputPerMillion: explicit.inputPerMillion, outputPerMillion: explicit.outputPerMillion };
  const chat = modelPrice(prices, model);
  return chat && { inputPerMillion: chat.inputPerMillion / 2, outputPerMillion: chat.outputPerMillion / 2 };
}

/** Cost in USD of a call at batch prices; undefined without a price or tokens. */
export function batchCallCost(
  prices: BatchPrices | null,
  inputTokens?: number,
  outputTokens?: number,
): number | undefined {
  if (prices === null || inputTokens === undefined || outputTokens === undefined) return undefined;
  return (inputTokens * prices.inputPerMillion + outputTokens * prices.outputPerMillion) / 1_000_000;
}
