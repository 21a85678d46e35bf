// Runs one LLM judge of a study over its pairs: the pre-labels an annotator sees as suggestions in the Label view.
// Each pair is asked `votes` times (pairs in the Label view's query order, a pair's votes one after another); every
// call is recorded in the study's record as it ends (the storage port's judge area, through judgeCallStore.ts), and a
// pair's suggestion — the majority of its votes, with their spread and the share that agreed — is written with its
// last vote, in the same transaction. The records are written one at a time, in the order votes finish, each
// committed before the next starts (the calls themselves run `concurrency` at a time). So a run
// stopped at any point (Ctrl+C, a crash, a closed window) has stored everything it paid for, and running it again
// asks only what is missing: answered calls are served from the cache, and a finished run makes no request at all.
//
// A judge is a model and a prompt template: its annotator name is llm:<model>@<first 8 hex of the template's hash>,
// so a changed prompt is a different judge, compared with the first rather than overwriting it. What the judge says
// is only ever read (judgeOutput.ts): output that does not parse into a label on the study's scale is recorded as a
// failed vote with its raw text, never turned into a label.
//
// Cancelling (the signal): no call starts after it; calls in flight are aborted by the chat client and recorded as
// cancelled (not cached), and pairs with some votes in get a suggestion from those votes.
import type { StudyModel } from '../dsl/model.ts';
import type { StudyStore } from '../store/studyStore.ts';
import type { BudgetState } from './budget/budgetGuard.ts';
import type { OnlineBudget } from './budget/onlineBudget.ts';
import { type ChatClient, ChatFailure } from './chatClient.ts';
import { normaliseEndpoint } from './endpointApproval.ts';
import { JudgeCallStore, type JudgeFailureKind, judgeCacheKey, type NewJudgeCall } from './judgeCallStore.ts';
import { type JudgePair, type SkippedPair, selectJudgePairs } from './judgePairs.ts';
import { runJobs } from './judgeScheduler.ts';
import { type JudgeRunPrompt, JudgeSetupError, judgeAnnotatorName, judgeSetup } from './judgeSetup.ts';
import {
  interpretAnswer,
  type PairVote,
  pairSuggestion,
  type RenderedPrompt,
  readingFields,
  renderPairPrompt,
  voteCallRequest,
  voteChatRequest,
  voteParametersOf,
} from './judgeVote.ts';
import { callCost, type PriceTable } from './priceTable.ts';

export type { SkippedPair } from './judgePairs.ts';
// What moved to modules the Batch API run shares (batch/): the setup checks and judge names (judgeSetup.ts), the pair
// selection (judgePairs.ts), a vote's prompt, parameters, request, reading and the pair's suggestion (judgeVote.ts).
export { JudgeSetupError, judgeAnnotatorName, selectJudge } from './judgeSetup.ts';

export interface JudgeStudyOptions {
  /** The study's judge to run: its model name, or its 1-based place among the study's judges; optional with one. */
  judge?: string;
  /** Judge at most this many pairs (the first, in query order, of those selected). */
  limit?: number;
  /** Only pairs no person has a current label for. */
  onlyUnlabelled?: boolean;
  /** Calls in flight at once. */
  concurrency: number;
  client: ChatClient;
  /** The template, and what it asks the model for: a label, or one true/false per condition of the query. */
  prompt: JudgeRunPrompt;
  /** Only these pairs (ids), when given: a retry of some pairs' votes (batch/ --retry-failed online). */
  pairIds?: ReadonlySet<number>;
  prices: PriceTable;
  /** A budget the run stops at (budget/jobEstimate.ts budgetedJob, after the job's estimate was checked): asked
   * before each call; once one would pass it, no call starts. */
  budget?: OnlineBudget;
  signal?: AbortSignal;
  /** The clock calls and suggestions are stamped with. */
  now?: () => Date;
  /** After every finished vote; must not throw. */
  onProgress?(progress: JudgeProgress): void;
}

export interface JudgeProgress {
  /** Votes to collect: pairs × votes. */
  total: number;
  /** Votes finished: answered (parsed or not), served from the cache, or failed. */
  done: number;
  /** Of those, served from the cache (no request). */
  cached: number;
  /** Calls that went to the endpoint (each may have made several HTTP requests: retries). */
  requests: number;
  /** Votes without a label: calls that failed and answers that did not parse (cached ones too). */
  failures: number;
  /** Tokens of this run's calls (cached ones cost nothing now). */
  inputTokens: number;
  outputTokens: number;
  /** Of this run's calls, at the price table's prices; 0 when the model has none. */
  cost: number;
  elapsedMs: number;
  /** requests / elapsed seconds. */
  callsPerSecond: number;
  /** With a budget: USD spent (answered calls) and in flight (at their estimates), of `amount`. */
  budget?: BudgetState;
}

export interface JudgeReport extends JudgeProgress {
  /** The judge's annotator name: llm:<model>@<first 8 hex of the prompt template hash>. */
  judge: string;
  model: string;
  endpoint: string;
  /** Pairs judged (selected and judgeable). */
  pairs: number;
  /** Suggestions written (pairs with at least one answered vote). */
  suggestions: number;
  failuresByKind: Partial<Record<JudgeFailureKind, number>>;
  /** The first failure's sentence of each kind, to show what went wrong. */
  failureExamples: Partial<Record<JudgeFailureKind, string>>;
  /** Pairs that cannot be judged (no document, no query, no conditions), with why; not counted in `total`. */
  skipped: SkippedPair[];
  /** Votes never asked because the run was cancelled. */
  notStarted: number;
  /** With a budget: votes never asked because the next call would have passed it (the run stopped at it). */
  stoppedAtBudget?: number;
  cancelled: boolean;
}

/** A pair being judged: its prompt (rendered at its first vote) and its votes as they come in. */
interface PairState extends JudgePair {
  rendered?: Promise<RenderedPrompt>;
  /** By vote index; undefined until the vote is in. */
  votes: (PairVote | undefined)[];
  finished: number;
}

interface VoteJob {
  pair: PairState;
  voteIndex: number;
}

export async function judgeStudy(
  store: StudyStore,
  study: StudyModel,
  options: JudgeStudyOptions,
): Promise<JudgeReport> {
  const setup = judgeSetup(study, options);
  const { judge, votesPerPair } = setup;
  const concurrency = options.concurrency;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new JudgeSetupError(`expected the concurrency to be a whole number ≥ 1, found ${concurrency}`);
  }

  const now = options.now ?? (() => new Date());
  const calls = new JudgeCallStore(store.judge);
  const studyId = await store.studies.studyId(study.name);
  const annotator = judgeAnnotatorName(judge.model, options.prompt.hash);
  // Recorded before any call: a person's name is refused before anything is sent.
  await calls.judgeAnnotator(annotator);
  const endpoint = normaliseEndpoint(options.client.baseURL);

  // The pairs, in the Label view's query order (core/labelling/labelQueue.ts).
  const selection = await selectJudgePairs(store, study, studyId, options, setup.output);
  const pairs: PairState[] = selection.pairs.map((pair) => ({ ...pair, votes: [], finished: 0 }));
  const { skipped } = selection;
  const jobs: VoteJob[] = [];
  for (const pair of pairs) for (let v = 0; v < votesPerPair; v++) jobs.push({ pair, voteIndex: v });

  const started = performance.now();
  const progress: JudgeProgress = {
    total: jobs.length,
    done: 0,
    cached: 0,
    requests: 0,
    failures: 0,
    inputTokens: 0,
    outputTokens: 0,
    cost: 0,
    elapsedMs: 0,
    callsPerSecond: 0,
  };
  const failuresByKind: Partial<Record<JudgeFailureKind, number>> = {};
  const failureExamples: Partial<Record<JudgeFailureKind, string>> = {};
  let notStarted = 0;
  let stoppedAtBudget = 0;
  let suggestions = 0;
  /** Pairs with some votes in and some not. */
  const unfinished = new Set<PairState>();

  const snapshot = (): JudgeProgress => {
    const elapsedMs = performance.now() - started;
    return {
      ...progress,
      elapsedMs,
      callsPerSecond: elapsedMs > 0 ? progress.requests / (elapsedMs / 1000) : 0,
      ...(options.budget && { budget: options.budget.state() }),
    };
  };
  const failed = (kind: JudgeFailureKind, message: string) => {
    progress.failures++;
    failuresByKind[kind] = (failuresByKind[kind] ?? 0) + 1;
    failureExamples[kind] ??= message;
  };

  const render = (pair: PairState): Promise<RenderedPrompt> => {
    pair.rendered ??= renderPairPrompt(store, study, studyId, setup, options.prompt, pair);
    return pair.rendered;
  };
  const parametersFor = voteParametersOf(setup);
  const interpret = (text: string, shape: RenderedPrompt['shape']) => interpretAnswer(study, setup, text, shape);
  const suggestionOf = (pair: PairState) => pairSuggestion(pair.pairId, annotator, votesPerPair, pair.votes, now());

  // The record's writes, one after another in the order votes finish: a pair's last vote is written after its
  // others, whose call ids its suggestion names.
  let writing: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(write: () => Promise<T>): Promise<T> => {
    const turn = writing.then(write);
    writing = turn.catch(() => undefined);
    return turn;
  };

  /**
   * A vote is in: its call recorded (unless it came from the cache) and, when it is the pair's last, the pair's
   * suggestion written — one transaction, committed when this resolves.
   */
  const finishVote = async (
    pair: PairState,
    voteIndex: number,
    call: NewJudgeCall | { cachedId: number },
    vote: Omit<PairVote, 'callId'>,
  ): Promise<void> => {
    await inTurn(async () => {
      const last = pair.finished + 1 === votesPerPair;
      const cachedId = 'cachedId' in call ? call.cachedId : null;
      pair.votes[voteIndex] = { ...vote, callId: cachedId };
      try {
        const suggestion = last ? suggestionOf(pair) : undefined;
        if ('cachedId' in call) {
          if (suggestion) await calls.replaceSuggestion(suggestion);
        } else {
          pair.votes[voteIndex].callId = await calls.record(call, suggestion);
        }
        if (suggestion) suggestions++;
      } catch (error) {
        // Nothing of it was written.
        pair.votes[voteIndex] = undefined;
        throw error;
      }
      pair.finished++;
      progress.done++;
      if (last) {
        unfinished.delete(pair);
        // The pair is done: its prompt and document are not needed any more.
        pair.rendered = undefined;
      } else {
        unfinished.add(pair);
      }
    });
    options.onProgress?.(snapshot());
  };

  const runVote = async ({ pair, voteIndex }: VoteJob, signal: AbortSignal): Promise<void> => {
    // Stopped at the budget: nothing more is asked (votes the cache could answer are left for the next run too).
    if (options.budget?.stopped) {
      stoppedAtBudget++;
      return;
    }
    const { prompt, promptHash, shape } = await render(pair);
    const parameters = parametersFor(shape, voteIndex);
    const call = voteCallRequest(setup, endpoint, parameters, promptHash, voteIndex);
    const cacheKey = judgeCacheKey(call);
    const record = {
      cacheKey,
      request: call,
      promptTemplateHash: options.prompt.hash,
      studyId,
      pairId: pair.pairId,
      judge: annotator,
    };

    const hit = await calls.cached(cacheKey);
    if (hit) {
      progress.cached++;
      const reading = interpret(hit.rawOutput, shape);
      if (!reading.ok) failed('parse', reading.error);
      await finishVote(
        pair,
        voteIndex,
        { cachedId: hit.id },
        {
          answered: true,
          label: reading.ok ? reading.label : null,
          ...(reading.ok && reading.rationale !== undefined && { rationale: reading.rationale }),
        },
      );
      return;
    }

    const request = voteChatRequest(setup, prompt, parameters);
    // The budget lets the call start only while spent + in flight + its estimate stays within it.
    const ticket = options.budget?.admit({
      prompt,
      ...(request.maxTokens !== undefined && { maxTokens: request.maxTokens }),
      ...(request.responseFormat !== undefined && { responseFormat: request.responseFormat }),
    });
    if (options.budget && ticket === undefined) {
      stoppedAtBudget++;
      return;
    }
    const callStarted = performance.now();
    try {
      const result = await options.client.complete(request, signal);
      if (ticket) options.budget!.answered(ticket, result.inputTokens, result.outputTokens);
      progress.requests++;
      progress.inputTokens += result.inputTokens ?? 0;
      progress.outputTokens += result.outputTokens ?? 0;
      const cost = callCost(options.prices, judge.model, result.inputTokens, result.outputTokens);
      progress.cost += cost ?? 0;
      const reading = interpret(result.text, shape);
      if (!reading.ok) failed('parse', reading.error);
      const recorded: NewJudgeCall = {
        ...record,
        rawOutput: result.text,
        ...readingFields(reading),
        ...(result.inputTokens !== undefined && { inputTokens: result.inputTokens }),
        ...(result.outputTokens !== undefined && { outputTokens: result.outputTokens }),
        latencyMs: result.latencyMs,
        attempts: result.attempts,
        ...(cost !== undefined && { cost }),
        createdAt: now(),
      };
      await finishVote(pair, voteIndex, recorded, {
        answered: true,
        label: reading.ok ? reading.label : null,
        ...(reading.ok && reading.rationale !== undefined && { rationale: reading.rationale }),
      });
    } catch (error) {
      if (ticket) {
        if (error instanceof ChatFailure) options.budget!.failed(ticket, error.kind, error.attempts);
        else options.budget!.answered(ticket); // it may have been answered: counted at its estimate
      }
      if (!(error instanceof ChatFailure)) throw error;
      // Cancelled before its first request: nothing happened, the vote was never asked.
      if (error.kind === 'cancelled' && error.attempts === 0) {
        notStarted++;
        return;
      }
      if (error.attempts > 0) progress.requests++;
      failed(error.kind, error.message);
      const recorded: NewJudgeCall = {
        ...record,
        rawOutput: '',
        failure: { kind: error.kind, message: error.message },
        latencyMs: performance.now() - callStarted,
        attempts: error.attempts,
        createdAt: now(),
      };
      await finishVote(pair, voteIndex, recorded, { answered: false, label: null });
    }
  };

  const outcome = await runJobs(jobs, {
    concurrency,
    ...(options.signal !== undefined && { signal: options.signal }),
    run: runVote,
  });
  // A run that ended early (cancelled, or a vote that threw): pairs with some votes in get what those say.
  await writing;
  for (const pair of unfinished) {
    const suggestion = suggestionOf(pair);
    if (suggestion) {
      await calls.replaceSuggestion(suggestion);
      suggestions++;
    }
  }
  const [unexpected] = outcome.errors;
  if (unexpected) throw unexpected.error;
  return {
    ...snapshot(),
    judge: annotator,
    model: judge.model,
    endpoint,
    pairs: pairs.length,
    suggestions,
    failuresByKind,
    failureExamples,
    skipped,
    notStarted: notStarted + outcome.notStarted,
    ...(options.budget && { stoppedAtBudget }),
    cancelled: options.signal?.aborted === true,
  };
}
