// Runs one LLM judge of a study over its pairs: the pre-labels an annotator sees as suggestions in the Label view.
// Each pair is asked `votes` times (pairs in the Label view's query order, a pair's votes one after another); every
// call is recorded in the study's record (the storage port's judge area), and a pair's suggestion — the majority of
// its votes, with their spread and the share that agreed — is written with its last vote, in the same transaction.
//
// At the scale of a track (100,000 pairs × 3 votes) nothing of the whole job is held: the pairs are read a page at a
// time (judgePairPages.ts), a page's documents and cache entries in one read each, its prompts rendered then, and the
// votes handed to the scheduler one by one as a call slot frees — so memory holds the calls in flight and at most
// one page ahead. Finished votes are written in groups: every vote that finished since the last write goes into one
// transaction (a group commit; with SQLite that is one commit for the answers of one turn of the event loop), and a
// vote counts as done only once its group is committed. A call's slot is held until then, so what a crash (even
// SIGKILL) can lose is exactly the calls in flight: answers that never reached the record, at most `concurrency` of
// them, asked again by the next run; every answer on record is served from the cache and never asked again, and a
// finished run makes no request at all and writes nothing (a suggestion whose votes are those on record is left as
// it is). Two votes of one run with the same cache key are asked once (see `answering`).
//
// A judge is a model and a prompt template: its annotator name is llm:<model>@<first 8 hex of the template's hash>,
// so a changed prompt is a different judge, compared with the first rather than overwriting it. What the judge says
// is only ever read (judgeOutput.ts): output that does not parse into a label on the study's scale is recorded as a
// failed vote with its raw text, never turned into a label.
//
// Votes an open Batch API batch of the judge holds (batch/: submitted, not yet recorded) are not asked: the batch
// has paid for them. They are counted apart (inOpenBatches) and their pairs get their suggestion when the batch is
// recorded (batch/batchSuggestions.ts counts the votes answered here too).
//
// Cancelling (the signal): no call starts after it; calls in flight are aborted by the chat client and recorded as
// cancelled (not cached), and pairs with some votes in get a suggestion from those votes.
import type { StudyModel } from '../dsl/model.ts';
import type { CachedCall, CallToRecord, StoredSuggestionVote, SuggestionVote } from '../store/port/judgePort.ts';
import type { StudyStore } from '../store/studyStore.ts';
import type { BudgetState } from './budget/budgetGuard.ts';
import type { OnlineBudget } from './budget/onlineBudget.ts';
import { type ChatClient, ChatFailure } from './chatClient.ts';
import { normaliseEndpoint } from './endpointApproval.ts';
import { type JudgeFailureKind, judgeCacheKey, type NewJudgeCall } from './judgeCallStore.ts';
import { judgePairPages } from './judgePairPages.ts';
import type { JudgePair, SkippedPair } from './judgePairs.ts';
import { runJobs } from './judgeScheduler.ts';
import { type JudgeRunPrompt, JudgeSetupError, judgeAnnotatorName, judgeSetup } from './judgeSetup.ts';
import {
  interpretAnswer,
  type PairVote,
  pairSuggestion,
  type RenderedPrompt,
  readingFields,
  renderPromptOf,
  type VoteParameters,
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
  /** Votes to collect: pairs × votes (counted before the pages are read, pairs that cannot be judged taken off as
   * their page is read: exact once the run has read every page). */
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
  /** Votes left out because an open batch of the judge holds them (not in `total`); absent when none. */
  inOpenBatches?: number;
}

export interface JudgeReport extends JudgeProgress {
  /** The judge's annotator name: llm:<model>@<first 8 hex of the prompt template hash>. */
  judge: string;
  model: string;
  endpoint: string;
  /** Pairs judged (selected and judgeable; of a run stopped early, those read before it stopped). */
  pairs: number;
  /** Pairs given a suggestion (at least one answered vote): written, or left as on record when its votes are the
   * same (a re-run of a finished job writes nothing). */
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

/** Rows of the store per page of pairs: a bounded look-ahead, and few enough reads to cost nothing per call. */
const minimumPageSize = 256;

/** A pair being judged: its prompt (rendered with its page) and its votes as they come in. */
interface PairState extends JudgePair {
  /** Until its last vote is on record. */
  rendered: RenderedPrompt | undefined;
  /** By vote index; undefined until the vote is in. A call being written in the current group is −(entry + 1). */
  votes: (PairVote | undefined)[];
  /** Votes on record (or in the group being written). */
  finished: number;
  /** Votes an open batch holds: not asked, and the pair's suggestion left to the batch's recording. */
  held: number;
  /** The votes of the judge's suggestion on record, read when the cache answers all of the pair's votes: a
   * suggestion from the same votes is not written again. */
  storedVotes?: StoredSuggestionVote[];
}

interface VoteJob {
  pair: PairState;
  voteIndex: number;
  cacheKey: string;
  parameters: VoteParameters;
  /** The answered call the record already has for this vote: no request. */
  hit: CachedCall | undefined;
}

/** A finished vote waiting for its group's commit. */
interface FinishedVote {
  pair: PairState;
  voteIndex: number;
  call: NewJudgeCall | { cachedId: number };
  vote: Omit<PairVote, 'callId'>;
  committed(): void;
  failed(error: unknown): void;
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
  const port = store.judge;
  const studyId = await store.studies.studyId(study.name);
  const annotator = judgeAnnotatorName(judge.model, options.prompt.hash);
  // Recorded before any call: a person's name is refused before anything is sent.
  await port.judgeAnnotator(annotator);
  const endpoint = normaliseEndpoint(options.client.baseURL);

  // How many votes to expect, before the pages are read: the selection's size (pairs that turn out not to be
  // judgeable are taken off as their page is read; a finished run's total is exact).
  let expectedPairs =
    options.pairIds !== undefined
      ? options.pairIds.size
      : await port.countPairsToJudge(studyId, {
          ...(options.onlyUnlabelled !== undefined && { onlyUnlabelled: options.onlyUnlabelled }),
        });
  if (options.limit !== undefined) expectedPairs = Math.min(expectedPairs, options.limit);

  const started = performance.now();
  const progress: JudgeProgress = {
    total: expectedPairs * votesPerPair,
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
  const skipped: SkippedPair[] = [];
  let pairsJudged = 0;
  /** Votes handed to a call slot (the rest of `total`, at the end, were never asked). */
  let votesStarted = 0;
  let notStarted = 0;
  let stoppedAtBudget = 0;
  let suggestions = 0;
  /** Votes left out: an open batch holds them. */
  let inOpenBatches = 0;
  /** Pairs with some votes in and some not. */
  const unfinished = new Set<PairState>();

  const snapshot = (): JudgeProgress => {
    const elapsedMs = performance.now() - started;
    return {
      ...progress,
      elapsedMs,
      callsPerSecond: elapsedMs > 0 ? progress.requests / (elapsedMs / 1000) : 0,
      ...(options.budget && { budget: options.budget.state() }),
      ...(inOpenBatches > 0 && { inOpenBatches }),
    };
  };
  const failed = (kind: JudgeFailureKind, message: string) => {
    progress.failures++;
    failuresByKind[kind] = (failuresByKind[kind] ?? 0) + 1;
    failureExamples[kind] ??= message;
  };

  const parametersFor = voteParametersOf(setup);
  const interpret = (text: string, shape: RenderedPrompt['shape']) => interpretAnswer(study, setup, text, shape);
  const suggestionOf = (pair: PairState) => pairSuggestion(pair.pairId, annotator, votesPerPair, pair.votes, now());
  const pageSize = Math.max(minimumPageSize, Math.ceil((4 * concurrency) / votesPerPair));
  /** Drops the calls answered before the previous page read from those other votes may wait for (below). */
  let forgetAnswered = () => {};

  /**
   * The votes to ask, page by page: a page's prompts rendered from its documents (one read), its votes' cache
   * entries looked up (one read), then each vote handed out as a call slot frees.
   */
  async function* votesToAsk(): AsyncGenerator<VoteJob> {
    const pages = judgePairPages(store, study, studyId, options, setup.output, pageSize);
    for await (const page of pages) {
      forgetAnswered();
      const documents = await port.documentsToJudge(
        studyId,
        page.pairs.map((pair) => pair.docid),
      );
      const pairs: PairState[] = [];
      for (const pair of page.pairs) {
        const row = documents.get(pair.docid);
        // Deleted since the page was read.
        if (row === undefined) {
          page.skipped.push({ qid: pair.qid, docid: pair.docid, reason: `the corpus has no document '${pair.docid}'` });
          continue;
        }
        const rendered = renderPromptOf(row, study, setup, options.prompt, pair);
        pairs.push({ ...pair, rendered, votes: [], finished: 0, held: 0 });
      }
      documents.clear();
      skipped.push(...page.skipped);
      progress.total -= page.skipped.length * votesPerPair;
      pairsJudged += pairs.length;
      const jobs: VoteJob[] = [];
      for (const pair of pairs) {
        for (let voteIndex = 0; voteIndex < votesPerPair; voteIndex++) {
          const parameters = parametersFor(pair.rendered!.shape, voteIndex);
          const request = voteCallRequest(setup, endpoint, parameters, pair.rendered!.promptHash, voteIndex);
          jobs.push({ pair, voteIndex, cacheKey: judgeCacheKey(request), parameters, hit: undefined });
        }
      }
      const hits = await port.cachedCalls(jobs.map((job) => job.cacheKey));
      for (const job of jobs) job.hit = hits.get(job.cacheKey);
      hits.clear();
      // Pairs the cache answers wholly (a re-run): their suggestion on record, to leave it be when nothing changed.
      const asking = new Set(jobs.filter((job) => job.hit === undefined).map((job) => job.pair));
      const answered = pairs.filter((pair) => !asking.has(pair));
      if (answered.length > 0) {
        const stored = await port.currentSuggestionVotes(
          annotator,
          answered.map((pair) => pair.pairId),
        );
        for (const pair of answered) {
          const votes = stored.get(pair.pairId);
          if (votes !== undefined) pair.storedVotes = votes;
        }
      }
      // What the cache does not answer and an open batch holds is the batch's to answer: not asked again here.
      const misses = jobs.filter((job) => job.hit === undefined).map((job) => job.cacheKey);
      const held = new Set(misses.length > 0 ? await store.judgeBatches.keysInOpenBatches(misses) : []);
      if (held.size > 0) {
        const asked = jobs.filter((job) => {
          if (job.hit !== undefined || !held.has(job.cacheKey)) return true;
          job.pair.held++;
          return false;
        });
        inOpenBatches += jobs.length - asked.length;
        progress.total -= jobs.length - asked.length;
        jobs.length = 0;
        jobs.push(...asked);
        // A pair whose every vote a batch holds has nothing to ask.
        for (const pair of pairs) if (pair.held === votesPerPair) pair.rendered = undefined;
      }
      // Handed out one by one: the jobs behind the cursor are the page's look-ahead, nothing more.
      for (let i = 0; i < jobs.length; i++) {
        const job = jobs[i]!;
        jobs[i] = undefined as unknown as VoteJob;
        yield job;
      }
    }
    // Every page read: the total is what was asked.
    progress.total = pairsJudged * votesPerPair - inOpenBatches;
  }

  // The record's writes, in groups: every vote that finished since the last write goes into one transaction.
  let waiting: FinishedVote[] = [];
  let writing = false;
  let writeScheduled = false;
  const scheduleWrite = () => {
    if (writing || writeScheduled) return;
    writeScheduled = true;
    // After this turn's other answers are in: they join the group.
    setImmediate(() => {
      writeScheduled = false;
      void writeGroups();
    });
  };
  const writeGroups = async () => {
    writing = true;
    try {
      while (waiting.length > 0) {
        const group = waiting;
        waiting = [];
        await writeGroup(group);
      }
    } finally {
      writing = false;
    }
  };

  /** One transaction: the group's calls and the suggestions they complete; its votes count once it is committed. */
  const writeGroup = async (group: FinishedVote[]): Promise<void> => {
    const entries: CallToRecord[] = [];
    /** Per entry, the vote whose call it records (its id is known once written). */
    const recordedVotes: (FinishedVote | undefined)[] = [];
    let completed = 0;
    for (const finished of group) {
      const { pair, voteIndex, call, vote } = finished;
      const ownCall = 'cachedId' in call ? undefined : call;
      // A call of this group is named by its entry until the group is written.
      pair.votes[voteIndex] = {
        ...vote,
        callId: ownCall ? -(entries.length + 1) : (call as { cachedId: number }).cachedId,
      };
      pair.finished++;
      // A pair some of whose votes a batch holds gets its suggestion when the batch is recorded; one whose votes are
      // those of its suggestion on record (the same calls and labels) keeps it as it is.
      const completes = pair.finished === votesPerPair ? suggestionOf(pair) : undefined;
      if (completes) completed++;
      const suggestion = completes && !sameVotes(pair.storedVotes, completes.votes) ? completes : undefined;
      if (ownCall === undefined && suggestion === undefined) continue;
      entries.push({
        ...(ownCall !== undefined && { call: { ...ownCall, createdAt: ownCall.createdAt.toISOString() } }),
        ...(suggestion !== undefined && {
          suggestion: { ...suggestion, createdAt: suggestion.createdAt.toISOString() },
        }),
      });
      recordedVotes.push(ownCall !== undefined ? finished : undefined);
    }
    let ids: (number | null)[] = [];
    try {
      if (entries.length > 0) ids = await port.recordCalls(entries);
    } catch (error) {
      // Nothing of the group was written.
      for (const { pair, voteIndex } of group) {
        pair.votes[voteIndex] = undefined;
        pair.finished--;
      }
      for (const finished of group) finished.failed(error);
      return;
    }
    recordedVotes.forEach((finished, i) => {
      if (finished !== undefined) finished.pair.votes[finished.voteIndex]!.callId = ids[i]!;
    });
    suggestions += completed;
    for (const finished of group) {
      const { pair } = finished;
      progress.done++;
      if (pair.finished + pair.held === votesPerPair) {
        unfinished.delete(pair);
        // The pair is done: its prompt and what was on record are not needed any more.
        pair.rendered = undefined;
        pair.storedVotes = undefined;
      } else {
        unfinished.add(pair);
      }
      finished.committed();
      options.onProgress?.(snapshot());
    }
  };

  /** A vote is in: it waits for its group's commit (its call slot held until then, so a crash loses no more). */
  const finishVote = (
    pair: PairState,
    voteIndex: number,
    call: NewJudgeCall | { cachedId: number },
    vote: Omit<PairVote, 'callId'>,
  ): Promise<void> =>
    new Promise((resolve, reject) => {
      waiting.push({ pair, voteIndex, call, vote, committed: resolve, failed: reject });
      scheduleWrite();
    });

  // Two votes with one cache key (pairs whose rendered requests are identical: a document twice in the corpus under
  // two ids) are asked once: while the first one's call is in flight or waiting for its commit, the other waits for
  // its answer and takes it as the cache would. An entry is kept until the page read after the next one — by then
  // the cache read of every page that could have missed it is past — or dropped at once when the call got no answer.
  const answering = new Map<string, Promise<CachedCall | undefined>>();
  let answeredKeys: string[] = [];
  let answeredKeysBefore: string[] = [];
  forgetAnswered = () => {
    for (const key of answeredKeysBefore) answering.delete(key);
    answeredKeysBefore = answeredKeys;
    answeredKeys = [];
  };

  const runVote = async (job: VoteJob, signal: AbortSignal): Promise<void> => {
    votesStarted++;
    const { pair, voteIndex, cacheKey, parameters } = job;
    const hit = job.hit ?? (await answering.get(cacheKey));
    // Stopped at the budget: nothing more is asked (votes the cache could answer are left for the next run too).
    if (options.budget?.stopped) {
      stoppedAtBudget++;
      return;
    }
    const { prompt, promptHash, shape } = pair.rendered!;
    const record = {
      cacheKey,
      request: voteCallRequest(setup, endpoint, parameters, promptHash, voteIndex),
      promptTemplateHash: options.prompt.hash,
      studyId,
      pairId: pair.pairId,
      judge: annotator,
    };

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
    let answered: CachedCall | undefined;
    let settle!: (call: CachedCall | undefined) => void;
    answering.set(cacheKey, new Promise((resolve) => (settle = resolve)));
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
      // On record now, with its id.
      const id = pair.votes[voteIndex]?.callId;
      if (typeof id === 'number' && id > 0) {
        answered = {
          id,
          rawOutput: result.text,
          inputTokens: result.inputTokens ?? null,
          outputTokens: result.outputTokens ?? null,
        };
      }
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
    } finally {
      settle(answered);
      if (answered !== undefined) answeredKeys.push(cacheKey);
      else answering.delete(cacheKey);
    }
  };

  const outcome = await runJobs(votesToAsk(), {
    concurrency,
    ...(options.signal !== undefined && { signal: options.signal }),
    run: runVote,
  });
  // A run that ended early (cancelled, or a vote that threw): pairs with some votes in get what those say.
  for (const pair of unfinished) {
    const suggestion = suggestionOf(pair);
    // A suggestion on record from these votes and more (a cancelled re-run) is not replaced by a poorer one.
    if (suggestion && !votesOnRecord(pair.storedVotes, suggestion.votes)) {
      await port.replaceSuggestion({ ...suggestion, createdAt: suggestion.createdAt.toISOString() });
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
    pairs: pairsJudged,
    suggestions,
    failuresByKind,
    failureExamples,
    skipped,
    // Votes never handed to a slot (the run stopped), and those a slot took but never asked.
    notStarted: Math.max(0, progress.total - votesStarted) + notStarted,
    ...(options.budget && { stoppedAtBudget }),
    cancelled: options.signal?.aborted === true,
  };
}

/** The votes of a suggestion on record are exactly these (same calls, same labels). */
function sameVotes(stored: readonly StoredSuggestionVote[] | undefined, votes: readonly SuggestionVote[]): boolean {
  return stored !== undefined && stored.length === votes.length && votesOnRecord(stored, votes);
}

/** Each of these votes is one of the suggestion on record's (same vote index, call and label). */
function votesOnRecord(stored: readonly StoredSuggestionVote[] | undefined, votes: readonly SuggestionVote[]): boolean {
  return (
    stored !== undefined &&
    votes.every((vote) =>
      stored.some((s) => s.voteIndex === vote.voteIndex && s.callId === vote.callId && s.label === vote.label),
    )
  );
}
