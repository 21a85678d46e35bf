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
import type { JudgeModel, StudyModel } from '../dsl/model.ts';
import { type QueryFields, queryConditions } from '../labelling/queryConditions.ts';
import type { StudyStore } from '../store/studyStore.ts';
import { type ChatClient, ChatFailure, type ChatRequest } from './chatClient.ts';
import { normaliseEndpoint } from './endpointApproval.ts';
import {
  type CallRequest,
  canonicalJson,
  JudgeCallStore,
  type JudgeFailureKind,
  judgeCacheKey,
  type NewJudgeCall,
  type NewSuggestion,
  type SuggestionVote,
} from './judgeCallStore.ts';
import { type JudgeOutputShape, judgeOutputSchema, labelFromConditions, parseJudgeOutput } from './judgeOutput.ts';
import { runJobs } from './judgeScheduler.ts';
import { callCost, type PriceTable } from './priceTable.ts';
import { promptDocument } from './promptDocument.ts';
import { type PromptTemplate, type PromptValues, renderPrompt, sha256, templateProblems } from './promptTemplate.ts';
import { summariseVotes } from './votes.ts';

/** A judge that cannot run as asked (none declared, an unknown name, a study it cannot judge): nothing was sent. */
export class JudgeSetupError extends Error {
  override name = 'JudgeSetupError';
}

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
  prompt: PromptTemplate & { output: 'label' | 'conditions' };
  prices: PriceTable;
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
}

export interface SkippedPair {
  qid: string;
  docid: string;
  reason: string;
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
  cancelled: boolean;
}

/** `llm:<model>@<first 8 hex of the prompt template hash>`. */
export function judgeAnnotatorName(model: string, promptTemplateHash: string): string {
  return `llm:${model}@${promptTemplateHash.slice(0, 8)}`;
}

/** The judge `wanted` names (model name or 1-based place), or the study's only judge; an error saying which exist. */
export function selectJudge(study: StudyModel, wanted?: string): JudgeModel {
  const judges = study.judges;
  if (judges.length === 0) {
    throw new JudgeSetupError(
      `study '${study.name}' declares no judge: add one to it, such as judge "gpt-4.1-mini" { endpoint "https://api.openai.com/v1" }`,
    );
  }
  const listed = judges.map((j, i) => `${i + 1}. ${j.model}`).join(', ');
  if (wanted === undefined) {
    if (judges.length === 1) return judges[0]!;
    throw new JudgeSetupError(`study '${study.name}' has ${judges.length} judges (${listed}): name the one to run`);
  }
  const byModel = judges.find((j) => j.model === wanted);
  if (byModel) return byModel;
  if (/^\d+$/.test(wanted) && Number(wanted) >= 1 && Number(wanted) <= judges.length)
    return judges[Number(wanted) - 1]!;
  throw new JudgeSetupError(`study '${study.name}' has no judge '${wanted}' (its judges: ${listed})`);
}

interface QueryValues {
  text: string;
  instruction?: string;
  conditions: string[];
}

/** A pair being judged: its prompt (rendered at its first vote) and its votes as they come in. */
interface PairState {
  pairId: number;
  qid: string;
  docid: string;
  query: QueryValues;
  rendered?: Promise<Rendered>;
  /** By vote index; undefined until the vote is in. */
  votes: (Vote | undefined)[];
  finished: number;
}

/** A finished vote: its call (null until recorded), and — when the endpoint answered — the label it gave (null: did
 * not parse). */
interface Vote {
  callId: number | null;
  answered: boolean;
  label: number | null;
  rationale?: string;
}

interface Rendered {
  prompt: string;
  /** sha256 of the prompt. */
  promptHash: string;
  shape: JudgeOutputShape;
}

/** What vote `voteIndex` of a pair of one shape is asked with (the same for every such pair: built once). */
interface VoteParameters {
  responseFormat: NonNullable<ChatRequest['responseFormat']>;
  seed?: number;
  /** canonicalJson of what is sent: temperature, max_tokens, seed, response_format. */
  json: string;
}

interface VoteJob {
  pair: PairState;
  voteIndex: number;
}

type Interpretation =
  | { ok: true; label: number; conditions?: boolean[]; rationale?: string }
  | { ok: false; error: string };

export async function judgeStudy(
  store: StudyStore,
  study: StudyModel,
  options: JudgeStudyOptions,
): Promise<JudgeReport> {
  const judge = selectJudge(study, options.judge);
  const scale = study.scale?.entries ?? [];
  if (scale.length === 0) {
    throw new JudgeSetupError(`study '${study.name}' declares no scale: a judge needs one to label on`);
  }
  const output = options.prompt.output;
  if (output === 'conditions' && study.conditionsFrom === undefined) {
    throw new JudgeSetupError(
      `prompt ${options.prompt.name} asks for conditions, but study '${study.name}' has none (add \`conditions from FIELD\`)`,
    );
  }
  const [problem] = templateProblems(options.prompt.text);
  if (problem)
    throw new JudgeSetupError(`${options.prompt.name}:${problem.line}:${problem.column}: ${problem.message}`);
  const concurrency = options.concurrency;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new JudgeSetupError(`expected the concurrency to be a whole number ≥ 1, found ${concurrency}`);
  }
  const votesPerPair = judge.votes ?? 1;
  if (!Number.isInteger(votesPerPair) || votesPerPair < 1) {
    throw new JudgeSetupError(`expected the judge's votes to be a whole number ≥ 1, found ${votesPerPair}`);
  }
  if (options.limit !== undefined && (!Number.isInteger(options.limit) || options.limit < 0)) {
    throw new JudgeSetupError(`expected the limit to be a whole number ≥ 0, found ${options.limit}`);
  }

  const now = options.now ?? (() => new Date());
  const calls = new JudgeCallStore(store.judge);
  const studyId = await store.studies.studyId(study.name);
  const annotator = judgeAnnotatorName(judge.model, options.prompt.hash);
  // Recorded before any call: a person's name is refused before anything is sent.
  await calls.judgeAnnotator(annotator);
  const endpoint = normaliseEndpoint(options.client.baseURL);
  const scaleValues = scale.map((entry) => entry.value);
  const scaleForPrompt: PromptValues['scale'] = scale.map((entry) => ({
    value: entry.value,
    label: entry.label,
    ...(entry.description !== undefined && { description: entry.description }),
  }));

  // The pairs, in the Label view's query order (core/labelling/labelQueue.ts).
  const { pairs, skipped } = await selectPairs(store, study, studyId, options, output);
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
  let suggestions = 0;
  /** Pairs with some votes in and some not. */
  const unfinished = new Set<PairState>();

  const snapshot = (): JudgeProgress => {
    const elapsedMs = performance.now() - started;
    return {
      ...progress,
      elapsedMs,
      callsPerSecond: elapsedMs > 0 ? progress.requests / (elapsedMs / 1000) : 0,
    };
  };
  const failed = (kind: JudgeFailureKind, message: string) => {
    progress.failures++;
    failuresByKind[kind] = (failuresByKind[kind] ?? 0) + 1;
    failureExamples[kind] ??= message;
  };

  const render = (pair: PairState): Promise<Rendered> => {
    pair.rendered ??= renderNow(pair);
    return pair.rendered;
  };
  const renderNow = async (pair: PairState): Promise<Rendered> => {
    const row = await store.judge.documentToJudge(studyId, pair.docid);
    if (row === undefined) throw new Error(`the corpus has no document '${pair.docid}' any more`);
    const values: PromptValues = {
      query: pair.query.text,
      ...(pair.query.instruction !== undefined && { instruction: pair.query.instruction }),
      // Tables as Markdown with their context, whatever they are stored as; other documents as stored.
      document: promptDocument(row, study.corpus?.fields),
      ...(row.title !== null && { title: row.title }),
      conditions: pair.query.conditions,
      scale: scaleForPrompt,
    };
    const shape: JudgeOutputShape =
      output === 'conditions' ? { conditions: pair.query.conditions.length } : { scale: scaleValues };
    const prompt = renderPrompt(options.prompt, values);
    return { prompt, promptHash: sha256(prompt), shape };
  };

  const voteParameters = new Map<string, VoteParameters>();
  const parametersFor = (shape: JudgeOutputShape, voteIndex: number): VoteParameters => {
    const key = `${voteIndex}/${shape.conditions ?? ''}`;
    let known = voteParameters.get(key);
    if (known === undefined) {
      const responseFormat = { type: 'json_schema' as const, json_schema: judgeOutputSchema(output, shape) };
      // Votes of one judge with a seed are distinct samples, each reproducible: vote i is asked with seed + i.
      const seed = judge.seed !== undefined ? judge.seed + voteIndex : undefined;
      const sent = {
        ...(judge.temperature !== undefined && { temperature: judge.temperature }),
        ...(judge.maxTokens !== undefined && { max_tokens: judge.maxTokens }),
        ...(seed !== undefined && { seed }),
        response_format: responseFormat,
      };
      known = { responseFormat, ...(seed !== undefined && { seed }), json: canonicalJson(sent) };
      voteParameters.set(key, known);
    }
    return known;
  };

  const interpret = (text: string, shape: JudgeOutputShape): Interpretation => {
    const parsed = parseJudgeOutput(text, output, shape);
    if (!parsed.ok) return parsed;
    const rationale = parsed.rationale !== undefined ? { rationale: parsed.rationale } : {};
    if (output === 'conditions') {
      const conditions = parsed.conditions ?? [];
      const label = labelFromConditions(study, conditions);
      if (!scaleValues.includes(label)) {
        return {
          ok: false,
          error: `the study's derive rule made ${label} of the answers ${JSON.stringify(conditions)}, not a value of its scale (${scaleValues.join(', ')})`,
        };
      }
      return { ok: true, label, conditions, ...rationale };
    }
    return { ok: true, label: parsed.label!, ...rationale };
  };

  /** The pair's suggestion from the votes in; undefined when none was answered. */
  const suggestionOf = (pair: PairState): NewSuggestion | undefined => {
    const votes: SuggestionVote[] = [];
    pair.votes.forEach((vote, voteIndex) => {
      if (vote?.answered) {
        votes.push({
          voteIndex,
          callId: vote.callId,
          label: vote.label,
          ...(vote.rationale !== undefined && { rationale: vote.rationale }),
        });
      }
    });
    // No answer at all (every call failed or was cancelled): the judge said nothing about this pair.
    if (votes.length === 0) return undefined;
    const summary = summariseVotes(votes.map((v) => v.label));
    const shown = votes.find((v) => v.label === summary.label) ?? votes[0]!;
    return {
      pairId: pair.pairId,
      judge: annotator,
      label: summary.label,
      // A share of votes means something only when the judge voted.
      ...(votesPerPair > 1 && summary.confidence !== undefined && { confidence: summary.confidence }),
      ...(summary.label !== null && shown.rationale !== undefined && { rationale: shown.rationale }),
      callId: shown.callId,
      votes,
      createdAt: now(),
    };
  };

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
    vote: Omit<Vote, 'callId'>,
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
    const { prompt, promptHash, shape } = await render(pair);
    const { responseFormat, seed, json } = parametersFor(shape, voteIndex);
    const call: CallRequest = { endpoint, model: judge.model, parameters: json, promptHash, voteIndex };
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

    const request: ChatRequest = {
      model: judge.model,
      messages: [{ role: 'user', content: prompt }],
      ...(judge.temperature !== undefined && { temperature: judge.temperature }),
      ...(judge.maxTokens !== undefined && { maxTokens: judge.maxTokens }),
      ...(seed !== undefined && { seed }),
      responseFormat,
    };
    const callStarted = performance.now();
    try {
      const result = await options.client.complete(request, signal);
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
        ...(reading.ok
          ? {
              parsedLabel: reading.label,
              ...(reading.conditions !== undefined && { parsedConditions: reading.conditions }),
              ...(reading.rationale !== undefined && { rationale: reading.rationale }),
            }
          : { failure: { kind: 'parse' as const, message: reading.error } }),
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
    cancelled: options.signal?.aborted === true,
  };
}

/** The pairs to judge, in query order, and those that cannot be judged (with why). */
async function selectPairs(
  store: StudyStore,
  study: StudyModel,
  studyId: number,
  options: Pick<JudgeStudyOptions, 'limit' | 'onlyUnlabelled'>,
  output: 'label' | 'conditions',
): Promise<{ pairs: PairState[]; skipped: SkippedPair[] }> {
  const selected = await store.judge.pairsToJudge(studyId, {
    ...(options.limit !== undefined && { limit: options.limit }),
    ...(options.onlyUnlabelled !== undefined && { onlyUnlabelled: options.onlyUnlabelled }),
  });
  const fieldsOf = new Map<string, QueryFields>(selected.queries.map((q) => [q.qid, q]));
  const queries = new Map<string, QueryValues>();
  const pairs: PairState[] = [];
  const skipped: SkippedPair[] = [];
  for (const row of selected.pairs) {
    if (!row.hasQuery) {
      skipped.push({ qid: row.qid, docid: row.docid, reason: `the study has no query '${row.qid}'` });
      continue;
    }
    if (!row.hasDocument) {
      skipped.push({ qid: row.qid, docid: row.docid, reason: `the corpus has no document '${row.docid}'` });
      continue;
    }
    let query = queries.get(row.qid);
    if (query === undefined) {
      const fields = fieldsOf.get(row.qid)!;
      query = {
        text: fields.text,
        ...(fields.instruction !== null && { instruction: fields.instruction }),
        conditions: queryConditions(study, fields),
      };
      queries.set(row.qid, query);
    }
    if (output === 'conditions' && query.conditions.length === 0) {
      skipped.push({ qid: row.qid, docid: row.docid, reason: `query '${row.qid}' has no conditions to check` });
      continue;
    }
    pairs.push({ pairId: row.pairId, qid: row.qid, docid: row.docid, query, votes: [], finished: 0 });
  }
  fieldsOf.clear();
  return { pairs, skipped };
}
