// `qrels-studio judge STUDY`: runs one of the study's LLM judges over its pairs (core/judge/judgeStudy.ts) and stores
// what it says as suggestions in the study's database. The endpoint and model come from the study file's `judge`
// block (an endpoint it does not name: --endpoint, else OPENAI_BASE_URL); the API key only from OPENAI_API_KEY, never
// from a file. A study file can come from anyone, so the command calls no endpoint the user has not approved —
// with --allow-endpoint for this run, or once for good in VS Code (core/judge/endpointApproval.ts) — and checks
// that before anything is sent. The prompt is the judge's `prompt` file, or the default that fits the study
// (--write-default-prompts DIR writes the defaults out to be tuned).
//
// Progress goes to stderr about once a second, the summary to stdout. Ctrl+C stops the run: no call starts after
// it, the calls in flight are recorded, and the exit code is 130; running the command again finishes the job
// without asking anything twice (answered calls are cached). Exit code 1 when some calls got no answer (run again
// to retry them).
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { parseStudyFile, resolveStudies } from '../../core/dsl/index.ts';
import type { JudgeModel } from '../../core/dsl/model.ts';
import { pairsToRetry } from '../../core/judge/batch/batchStatus.ts';
import { takeSendingRun } from '../../core/judge/batch/sendingRun.ts';
import { BudgetRefusal, estimateText } from '../../core/judge/budget/budgetGuard.ts';
import { budgetedJob, estimateJudgeJob, type JudgeJobToEstimate } from '../../core/judge/budget/jobEstimate.ts';
import type { OnlineBudget } from '../../core/judge/budget/onlineBudget.ts';
import { createChatClient } from '../../core/judge/chatClient.ts';
import { type DefaultPromptName, defaultPrompts } from '../../core/judge/defaultPrompts.ts';
import { EndpointApprovalError, isEndpointApproved, normaliseEndpoint } from '../../core/judge/endpointApproval.ts';
import type { JudgeCallTotals } from '../../core/judge/judgeCallStore.ts';
import { formatCost, formatCount, judgeProgressText, plural } from '../../core/judge/judgeProgressText.ts';
import { type JudgePrompt, loadJudgePrompt } from '../../core/judge/judgePrompt.ts';
import { judgeAnnotatorName, judgeSetup } from '../../core/judge/judgeSetup.ts';
import {
  type JudgeProgress,
  type JudgeReport,
  JudgeSetupError,
  judgeStudy,
  selectJudge,
} from '../../core/judge/judgeStudy.ts';
import { modelPrice, type PriceTable, parsePriceFlag } from '../../core/judge/priceTable.ts';
import { type CritiqueReport, critiqueReview } from '../../core/review/reviewCritic.ts';
import { importReviewItems } from '../../core/review/reviewSession.ts';
import { storedCorpusKind } from '../../core/store/corpusKind.ts';
import { studyDatabasePath } from '../../core/store/studyDatabase.ts';
import { type CliCommand, type CliContext, InputError, UsageError } from '../cliContext.ts';
import { namesReview, openReviewDatabase, openStudyDatabase, optionValue } from '../studyDatabaseCommand.ts';
import { type BatchAction, runBatchJudge } from './judgeBatch.ts';

interface JudgeArguments {
  study?: string;
  name?: string;
  judge?: string;
  limit?: number;
  onlyUnlabelled: boolean;
  concurrency: number;
  allowed: string[];
  endpoint?: string;
  prices: PriceTable;
  /** USD the run may cost (--budget; else the judge block's `budget`). */
  budget?: number;
  /** --estimate: print the job's estimate and send nothing. */
  estimate: boolean;
  /** Batch API (cli/commands/judgeBatch.ts): --batch (or the judge's `mode batch`), --batch-status, --cancel. */
  batch: boolean;
  batchStatus: boolean;
  cancel: boolean;
  /** --retry-failed [batch|online]: the votes closed batches left unanswered; without a word, as --batch says. */
  retryFailed?: 'batch' | 'online' | 'default';
  wait: boolean;
  /** --batch-price MODEL=IN,OUT: the Batch API's price (else half of --price's). */
  batchPrices: PriceTable;
  batchRequests?: number;
  batchBytes?: number;
  writeDefaultPrompts?: string;
}

const defaultConcurrency = 4;

function wholeNumber(args: readonly string[], i: number, least: number): number {
  const text = optionValue(args, i, `a whole number ≥ ${least}`);
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < least) {
    throw new UsageError(`${args[i]} expects a whole number ≥ ${least}, found '${text}'`);
  }
  return value;
}

export function parseJudgeArguments(args: readonly string[]): JudgeArguments {
  const parsed: JudgeArguments = {
    onlyUnlabelled: false,
    concurrency: defaultConcurrency,
    allowed: [],
    prices: {},
    estimate: false,
    batch: false,
    batchStatus: false,
    cancel: false,
    wait: false,
    batchPrices: {},
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--name') parsed.name = optionValue(args, i++, 'a study name');
    else if (arg === '--judge') parsed.judge = optionValue(args, i++, "a judge's model name or number");
    else if (arg === '--limit') parsed.limit = wholeNumber(args, i++, 1);
    else if (arg === '--only-unlabelled') parsed.onlyUnlabelled = true;
    else if (arg === '--concurrency') parsed.concurrency = wholeNumber(args, i++, 1);
    else if (arg === '--allow-endpoint') parsed.allowed.push(optionValue(args, i++, 'an endpoint URL'));
    else if (arg === '--endpoint') parsed.endpoint = optionValue(args, i++, 'an endpoint URL');
    else if (arg === '--budget') {
      const text = optionValue(args, i++, 'an amount in USD');
      if (!/^(\d+(\.\d*)?|\.\d+)$/.test(text)) {
        throw new UsageError(`--budget expects an amount in USD such as 25 or 2.50, found '${text}'`);
      }
      parsed.budget = Number(text);
    } else if (arg === '--estimate') parsed.estimate = true;
    else if (arg === '--batch') parsed.batch = true;
    else if (arg === '--batch-status') parsed.batchStatus = true;
    else if (arg === '--cancel') parsed.cancel = true;
    else if (arg === '--wait') parsed.wait = true;
    else if (arg === '--retry-failed') {
      const next = args[i + 1];
      parsed.retryFailed = next === 'batch' || next === 'online' ? (args[++i] as 'batch' | 'online') : 'default';
    } else if (arg === '--batch-requests') parsed.batchRequests = wholeNumber(args, i++, 1);
    else if (arg === '--batch-bytes') parsed.batchBytes = wholeNumber(args, i++, 1);
    else if (arg === '--batch-price') {
      try {
        const [model, price] = parsePriceFlag(optionValue(args, i++, 'MODEL=INPUT,OUTPUT'));
        parsed.batchPrices[model] = price;
      } catch (error) {
        if (error instanceof UsageError) throw error;
        throw new UsageError(`--batch-price: ${(error as Error).message}`);
      }
    } else if (arg === '--price') {
      try {
        const [model, price] = parsePriceFlag(optionValue(args, i++, 'MODEL=INPUT,OUTPUT'));
        parsed.prices[model] = price;
      } catch (error) {
        if (error instanceof UsageError) throw error;
        throw new UsageError(`--price: ${(error as Error).message}`);
      }
    } else if (arg === '--write-default-prompts') parsed.writeDefaultPrompts = optionValue(args, i++, 'a folder');
    else if (arg.startsWith('-')) throw new UsageError(`unknown option '${arg}'`);
    else if (parsed.study === undefined) parsed.study = arg;
    else throw new UsageError(`unexpected argument '${arg}' (one study file)`);
  }
  return parsed;
}

/** Writes the default prompts as `<name>.md` into `folder`; a file already there is kept (it may be tuned). */
function writeDefaultPrompts(folder: string, context: CliContext): number {
  const absolute = resolve(context.cwd, folder);
  mkdirSync(absolute, { recursive: true });
  for (const name of Object.keys(defaultPrompts) as DefaultPromptName[]) {
    const file = join(absolute, `${name}.md`);
    const shown = join(folder, `${name}.md`);
    if (existsSync(file)) {
      context.stderr(`${shown}: already there, kept as it is\n`);
      continue;
    }
    writeFileSync(file, defaultPrompts[name].text);
    context.stdout(`${shown}: ${defaultPrompts[name].description}\n`);
  }
  return 0;
}

/**
 * The judge's prompt: its `prompt` file, or the default that fits the study. What the model is asked for follows
 * the study either way: one answer per condition when the study derives its label from conditions, else a label.
 */
/**
 * The judge's prompt file checked before the study file is linted, so that its problems point at their own line and
 * column (the study's lint can only point at the `prompt` path). Anything else wrong is left to that lint.
 */
async function checkPromptFirst(studyArg: string, parsed: JudgeArguments, context: CliContext): Promise<void> {
  const path = resolve(context.cwd, studyArg);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return; // openStudyDatabase says what is wrong with the study file
  }
  const studies = resolveStudies(parseStudyFile(text), path).studies;
  const study =
    parsed.name === undefined
      ? studies.length === 1
        ? studies[0]
        : undefined
      : studies.find((s) => s.name === parsed.name);
  if (study === undefined) return;
  let judge: JudgeModel;
  try {
    judge = selectJudge(study, parsed.judge);
  } catch {
    return;
  }
  try {
    await loadJudgePrompt(study, judge, dirname(path), context.cwd);
  } catch (error) {
    if (error instanceof JudgeSetupError) throw new InputError(error.message);
    throw error;
  }
}

const count = formatCount;
const money = formatCost;

/** "judge gpt-x: 412/1,000 · 37.2 calls/s · 81,204 tokens · $0.0312 · 2 failures" */
export function progressLine(model: string, p: JudgeProgress, priced: boolean): string {
  return `judge ${model}: ${judgeProgressText(p, priced)}`;
}

function summary(report: JudgeReport, study: string, studyArg: string, priced: boolean, totals: JudgeCallTotals) {
  const kinds = Object.entries(report.failuresByKind)
    .map(([kind, n]) => `${n} ${kind}`)
    .join(', ');
  const lines = [
    `judge ${report.judge} on study '${study}' at ${report.endpoint}`,
    `pairs: ${count(report.pairs)} to judge${report.skipped.length > 0 ? `, ${count(report.skipped.length)} skipped` : ''}`,
    `votes: ${count(report.done)} of ${count(report.total)} (${count(report.requests)} asked, ${count(report.cached)} from the cache)` +
      (report.inOpenBatches ? `, ${count(report.inOpenBatches)} in open batches` : '') +
      (report.failures > 0 ? `, ${plural(report.failures, 'failure')}: ${kinds}` : ''),
    `tokens: ${count(report.inputTokens)} in, ${count(report.outputTokens)} out` +
      (priced ? ` · cost ${money(report.cost)}` : '') +
      ` · ${(report.elapsedMs / 1000).toFixed(1)} s`,
    `suggestions: ${count(report.suggestions)} written`,
    `all calls of this judge on the study: ${count(totals.calls)} (${count(totals.answered)} answered), ` +
      `${count(totals.inputTokens + totals.outputTokens)} tokens${priced ? ` · ${money(totals.cost)}` : ''}`,
  ];
  for (const [kind, example] of Object.entries(report.failureExamples)) {
    if (kind !== 'cancelled') lines.push(`first ${kind} failure: ${example}`);
  }
  if (report.inOpenBatches) {
    lines.push(
      `in open batches: ${plural(report.inOpenBatches, 'vote')} not asked (a batch of this judge holds them); ` +
        `qrels-studio judge ${studyArg} --batch-status records them when their batches finish`,
    );
  }
  if (report.cancelled) {
    lines.push(`cancelled: ${plural(report.notStarted, 'vote')} not asked; run again to finish (answers are cached)`);
  }
  if (report.stoppedAtBudget && report.budget) {
    lines.push(
      `stopped at the budget: ${money(report.budget.spent)} of ${money(report.budget.amount)} spent, the next call ` +
        `would have passed it; ${plural(report.stoppedAtBudget, 'vote')} not asked — raise the budget and run again ` +
        'to finish (answers are cached)',
    );
  }
  return `${lines.join('\n')}\n`;
}

export const judgeCommand: CliCommand = {
  name: 'judge',
  summary: "run a study's LLM judge over its pairs; its labels become suggestions (cached, resumable, Ctrl+C to stop)",
  usage:
    'qrels-studio judge STUDY.assess [--name STUDY] [--judge MODEL|N] [--limit N] [--only-unlabelled] ' +
    '[--concurrency N] [--allow-endpoint URL] [--endpoint URL] [--price MODEL=IN,OUT]… [--budget USD] [--estimate] ' +
    '[--batch [--wait] [--batch-price MODEL=IN,OUT]… [--batch-requests N] [--batch-bytes N] | --batch-status | ' +
    '--cancel | --retry-failed [batch|online]] | qrels-studio judge --write-default-prompts DIR',
  async run(args, context) {
    const parsed = parseJudgeArguments(args);
    if (parsed.study !== undefined && (await namesReview(parsed.study, parsed.name, context))) {
      return critique(parsed, context);
    }
    if (parsed.writeDefaultPrompts !== undefined) {
      if (parsed.study !== undefined) throw new UsageError('--write-default-prompts takes no study file');
      return writeDefaultPrompts(parsed.writeDefaultPrompts, context);
    }
    if (parsed.study === undefined) throw new UsageError('no study file');
    await checkPromptFirst(parsed.study, parsed, context);
    const { study, folder, store } = await openStudyDatabase(parsed.study, parsed.name, context);
    try {
      let judge: JudgeModel;
      try {
        judge = selectJudge(study, parsed.judge);
      } catch (error) {
        if (!(error instanceof JudgeSetupError)) throw error;
        throw new InputError(`${error.message}${study.judges.length > 1 ? ' (--judge MODEL or its number)' : ''}`);
      }
      // An estimate sends nothing: it needs the endpoint (part of the cache key) but not its approval.
      const endpoint = approvedEndpoint(judge, parsed, `study '${study.name}'`, context, !parsed.estimate);
      let prompt: JudgePrompt;
      try {
        prompt = await loadJudgePrompt(study, judge, folder, context.cwd, await storedCorpusKind(store, study.name));
      } catch (error) {
        if (error instanceof JudgeSetupError) throw new InputError(error.message);
        throw error;
      }
      const batchAction = batchActionOf(parsed, judge);
      // --retry-failed online: the online run below, over the pairs whose batch votes got no answer.
      const retryOnline = parsed.retryFailed !== undefined && batchAction === undefined;
      const batchMode = batchAction === 'submit' || batchAction === 'retry';
      const retryPairs = retryOnline
        ? await pairsToRetry(
            store,
            await store.studies.studyId(study.name),
            judgeAnnotatorName(judge.model, prompt.hash),
          )
        : undefined;
      // With a budget the job's estimate is checked before anything is sent (core/judge/budget/); --estimate only
      // prints it.
      const amount = parsed.budget ?? judge.budget?.amount;
      let budget: OnlineBudget | undefined;
      // Looking at or cancelling batches costs nothing: no estimate, no check.
      const sends = batchAction !== 'status' && batchAction !== 'cancel';
      if (sends && (parsed.estimate || amount !== undefined)) {
        try {
          const job: JudgeJobToEstimate = {
            setup: judgeSetup(study, {
              ...(parsed.judge !== undefined && { judge: parsed.judge }),
              prompt,
              ...(parsed.limit !== undefined && { limit: parsed.limit }),
            }),
            prompt,
            endpoint,
            prices: parsed.prices,
            batchPrices: parsed.batchPrices,
            mode: batchMode ? 'batch' : 'online',
            ...(parsed.limit !== undefined && { limit: parsed.limit }),
            onlyUnlabelled: parsed.onlyUnlabelled,
            ...(retryPairs !== undefined && { pairIds: retryPairs }),
          };
          if (parsed.estimate) {
            context.stdout(estimateText(await estimateJudgeJob(store, study, job), amount));
            return 0;
          }
          const checked = await budgetedJob(store, study, job, amount!);
          context.stderr(estimateText(checked.estimate, amount));
          budget = checked.budget;
        } catch (error) {
          if (error instanceof BudgetRefusal || error instanceof JudgeSetupError) throw new InputError(error.message);
          throw error;
        }
      }
      if (batchAction !== undefined) {
        return await runBatchJudge(
          {
            action: batchAction,
            studyFile: resolve(context.cwd, parsed.study),
            study,
            store,
            judge,
            ...(parsed.judge !== undefined && { judgeName: parsed.judge }),
            endpoint,
            prompt,
            prices: parsed.prices,
            batchPrices: parsed.batchPrices,
            ...(parsed.limit !== undefined && { limit: parsed.limit }),
            onlyUnlabelled: parsed.onlyUnlabelled,
            wait: parsed.wait,
            ...(parsed.batchRequests !== undefined && { maxRequests: parsed.batchRequests }),
            ...(parsed.batchBytes !== undefined && { maxBytes: parsed.batchBytes }),
          },
          parsed.study,
          context,
        );
      }
      if (retryPairs !== undefined) {
        context.stdout(`retrying online the votes batches left unanswered: ${plural(retryPairs.size, 'pair')}\n`);
        if (retryPairs.size === 0) return 0;
      }
      const apiKey = process.env.OPENAI_API_KEY ?? '';
      const client = createChatClient({ baseURL: endpoint, apiKey });
      const priced = modelPrice(parsed.prices, judge.model) !== undefined;

      const controller = new AbortController();
      const interrupt = () => {
        context.stderr('\ncancelling: no new call starts; recording the calls in flight (Ctrl+C again to quit now)\n');
        controller.abort();
      };
      process.once('SIGINT', interrupt);
      let lastPrinted = performance.now();
      let report: JudgeReport;
      // One sending run per judge on this machine (a batch submit meanwhile would ask the votes in flight again).
      let releaseRun = () => {};
      try {
        releaseRun = takeSendingRun(
          join(dirname(studyDatabasePath(resolve(context.cwd, parsed.study!))), 'batches'),
          judgeAnnotatorName(judge.model, prompt.hash),
          'online',
        );
        report = await judgeStudy(store, study, {
          ...(parsed.judge !== undefined && { judge: parsed.judge }),
          ...(parsed.limit !== undefined && { limit: parsed.limit }),
          onlyUnlabelled: parsed.onlyUnlabelled,
          ...(retryPairs !== undefined && { pairIds: retryPairs }),
          concurrency: parsed.concurrency,
          client,
          prompt,
          prices: parsed.prices,
          ...(budget !== undefined && { budget }),
          signal: controller.signal,
          onProgress(progress) {
            const now = performance.now();
            if (now - lastPrinted < 1000) return;
            lastPrinted = now;
            context.stderr(`${progressLine(judge.model, progress, priced)}\n`);
          },
        });
      } catch (error) {
        if (error instanceof JudgeSetupError) throw new InputError(error.message);
        throw error;
      } finally {
        releaseRun();
        process.removeListener('SIGINT', interrupt);
      }
      for (const pair of report.skipped.slice(0, 5)) {
        context.stderr(`skipped ${pair.qid}/${pair.docid}: ${pair.reason}\n`);
      }
      if (report.skipped.length > 5) context.stderr(`… and ${count(report.skipped.length - 5)} more skipped\n`);
      if (report.pairs === 0 && report.skipped.length === 0) {
        context.stderr(
          `study '${study.name}' has no pairs to judge${parsed.onlyUnlabelled ? ' that no person has labelled' : ''}` +
            `: import its queries, corpus and runs first (qrels-studio import ${parsed.study})\n`,
        );
      }
      const studyId = await store.studies.studyId(study.name);
      context.stdout(
        summary(report, study.name, parsed.study!, priced, await store.judge.callTotals(studyId, report.judge)),
      );
      if (report.failuresByKind.auth) {
        context.stderr(
          apiKey === ''
            ? `${endpoint} wants an API key: set OPENAI_API_KEY\n`
            : `${endpoint} refused the API key: check OPENAI_API_KEY\n`,
        );
      }
      if (report.cancelled) return 130;
      if (report.stoppedAtBudget) return 1;
      const unanswered = report.failures - (report.failuresByKind.parse ?? 0);
      if (unanswered > 0) {
        context.stderr(`${plural(unanswered, 'call')} got no answer: run the command again to retry them\n`);
        return 1;
      }
      return 0;
    } finally {
      await store.close();
    }
  },
};

/** Which Batch API action the flags ask for (the judge block's `mode batch` makes a plain run a batch); none: online. */
function batchActionOf(parsed: JudgeArguments, judge: JudgeModel): BatchAction | undefined {
  const asked = [parsed.batchStatus && '--batch-status', parsed.cancel && '--cancel'].filter(Boolean);
  if (asked.length > 1) throw new UsageError(`${asked.join(' and ')} do different things: give one`);
  if (parsed.batchStatus) return 'status';
  if (parsed.cancel) return 'cancel';
  const batch = parsed.batch || (judge.mode === 'batch' && parsed.retryFailed !== 'online');
  if (parsed.retryFailed === 'batch' || (parsed.retryFailed === 'default' && batch)) return 'retry';
  if (parsed.retryFailed === 'online') return undefined;
  return batch && parsed.retryFailed === undefined ? 'submit' : undefined;
}

/** The judge's endpoint, normalised, once the user has approved it (else an InputError saying how to). */
function approvedEndpoint(
  judge: JudgeModel,
  parsed: JudgeArguments,
  of: string,
  context: CliContext,
  needApproval = true,
): string {
  const endpointText = judge.endpoint ?? parsed.endpoint ?? (process.env.OPENAI_BASE_URL || undefined);
  if (endpointText === undefined) {
    throw new InputError(
      `judge '${judge.model}' of ${of} names no endpoint: add endpoint "URL" to its judge block, ` +
        'pass --endpoint URL, or set OPENAI_BASE_URL',
    );
  }
  if (judge.endpoint !== undefined && parsed.endpoint !== undefined) {
    context.stderr(`--endpoint ignored: judge '${judge.model}' names its endpoint, ${judge.endpoint}\n`);
  }
  let endpoint: string;
  let allowed: boolean;
  try {
    endpoint = normaliseEndpoint(endpointText);
    allowed = parsed.allowed.some((url) => normaliseEndpoint(url) === endpoint) || isEndpointApproved(endpoint);
  } catch (error) {
    if (error instanceof EndpointApprovalError) throw new InputError(error.message);
    throw error;
  }
  if (!allowed && needApproval) {
    throw new InputError(
      `refusing to call ${endpoint} : not approved — pass --allow-endpoint ${endpoint} or approve it once in VS Code`,
    );
  }
  return endpoint;
}

/** The review's LLM critic over its items (core/review/reviewCritic.ts). */
async function critique(parsed: JudgeArguments, context: CliContext): Promise<number> {
  const { review, folder, store } = await openReviewDatabase(parsed.study!, parsed.name, context);
  try {
    const judge = review.judges[0];
    if (!judge) throw new InputError(`review '${review.name}' declares no judge: add judge "MODEL" { endpoint "URL" }`);
    const endpoint = approvedEndpoint(judge, parsed, `review '${review.name}'`, context);
    await importReviewItems(store, review, folder);
    const client = createChatClient({ baseURL: endpoint, apiKey: process.env.OPENAI_API_KEY ?? '' });
    const controller = new AbortController();
    const interrupt = () => controller.abort();
    process.once('SIGINT', interrupt);
    let report: CritiqueReport;
    try {
      report = await critiqueReview(store, review, {
        client,
        judge,
        folder,
        shownFrom: context.cwd,
        concurrency: parsed.concurrency,
        signal: controller.signal,
      });
    } finally {
      process.removeListener('SIGINT', interrupt);
    }
    context.stdout(
      `critic ${report.critic} on review '${review.name}' at ${endpoint}: ${report.items} items, ` +
        `${report.stored} rated now, ${report.skipped} already rated, ${report.requests} requests, ` +
        `${report.cached} answers from the cache, ${report.failed.length} failed\n`,
    );
    for (const failure of report.failed.slice(0, 5)) context.stderr(`${failure.itemId}: ${failure.error}\n`);
    return report.failed.length > 0 ? 1 : 0;
  } finally {
    await store.close();
  }
}
