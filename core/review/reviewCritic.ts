// The LLM critic of a review (issue 8's judge machinery): each item's generated text (its latest generated version,
// what reviewers judge; not their edits) rated on the review's rubric by the review's `judge` — with its `prompt`
// file, else a prompt built from the review (criticPrompt.ts: its item kind, rubric and types). `{{query}}` is the
// item's source text, else its parent query's text (the review's `queries`), else the parent id; `{{instruction}}`
// the item's text; `{{title}}` its type ("HN: Hard negative").
// With `votes N` the critic is asked N times (each vote cached apart) and each dimension gets the level most votes
// gave (a tie goes to the worse level). Every call goes on record in llm_call and through its cache; the ratings are
// stored as the critic's verdict (annotator `llm:<model>@<prompt>`): the first verdict (accept) unless a dimension got
// the worst level, then `reject` (FollowTable regenerates on any Poor), with the scores as its rubric and a rationale
// as its reason. The Review view shows it as another reviewer's verdict (after one's own in a blind review) and
// pre-fills the rubric from it. A version the critic rated is not asked again.
import type { JudgeModel, ReviewModel } from '../dsl/model.ts';
import type { ChatClient, ChatRequest } from '../judge/chatClient.ts';
import { ChatFailure } from '../judge/chatClient.ts';
import { defaultCriticRubric } from '../judge/defaultPrompts.ts';
import { normaliseEndpoint } from '../judge/endpointApproval.ts';
import { canonicalJson, JudgeCallStore, judgeCacheKey } from '../judge/judgeCallStore.ts';
import { judgeOutputSchema, parseJudgeOutput } from '../judge/judgeOutput.ts';
import { promptOfJudge } from '../judge/judgePrompt.ts';
import { runJobs } from '../judge/judgeScheduler.ts';
import { JudgeSetupError, judgeAnnotatorName } from '../judge/judgeStudy.ts';
import { promptTemplate, renderPrompt, sha256 } from '../judge/promptTemplate.ts';
import type { StudyStore } from '../store/studyStore.ts';
import { criticPromptText } from './criticPrompt.ts';
import { verdictsOf } from './reviewRecords.ts';

export interface CritiqueOptions {
  client: ChatClient;
  judge: JudgeModel;
  /** The study file's folder (the judge's prompt path starts there), and where messages show paths from. */
  folder: string;
  shownFrom?: string;
  concurrency?: number;
  signal?: AbortSignal;
  now?: () => Date;
}

export interface CritiqueReport {
  critic: string;
  items: number;
  /** Requests sent, answers served from the cache, verdicts stored, versions already rated. */
  requests: number;
  cached: number;
  stored: number;
  skipped: number;
  failed: { itemId: string; error: string }[];
}

interface Job {
  itemId: string;
  /** The item's row id. */
  item: number;
  versionId: number;
  prompt: string;
}

export async function critiqueReview(
  store: StudyStore,
  review: ReviewModel,
  options: CritiqueOptions,
): Promise<CritiqueReport> {
  const studyId = await store.studies.studyId(review.name);
  const now = options.now ?? (() => new Date());
  const template =
    options.judge.prompt === undefined
      ? promptTemplate(`default:critic of ${review.name}`, criticPromptText(review))
      : await promptOfJudge(options.judge, 'instruction-critic', options.folder, options.shownFrom);
  const votes = options.judge.votes ?? 1;
  if (!Number.isInteger(votes) || votes < 1) {
    throw new JudgeSetupError(`expected the critic's votes to be a whole number ≥ 1, found ${votes}`);
  }
  const rubric = review.rubric
    ? { dimensions: review.rubric.dimensions.map((d) => d.name), levels: review.rubric.levels }
    : defaultCriticRubric;
  const verdicts = verdictsOf(review);
  const calls = new JudgeCallStore(store.judge);
  const critic = judgeAnnotatorName(options.judge.model, template.hash);
  // On record as an LLM judge before any call (a person's name is refused here).
  await store.studies.ensureAnnotator(critic, 'llm');
  const rows = await store.reviews.criticItems(review.name, critic);
  const jobs: Job[] = [];
  let skipped = 0;
  for (const row of rows) {
    if (row.rated) {
      skipped++;
      continue;
    }
    const { item } = row;
    const typeLabel = review.taxonomy.find((t) => t.code === item.type)?.label;
    const prompt = renderPrompt(template, {
      query: item.source ?? row.parentText ?? item.parent ?? '',
      instruction: row.text,
      ...(item.type !== null && { title: typeLabel ? `${item.type}: ${typeLabel}` : item.type }),
      document: '',
      scale: [],
    });
    jobs.push({ itemId: item.itemId, item: item.id, versionId: row.versionId, prompt });
  }
  const endpoint = normaliseEndpoint(options.client.baseURL);
  const responseFormat = { type: 'json_schema' as const, json_schema: judgeOutputSchema('rubric', { rubric }) };
  const parameters = canonicalJson({
    ...(options.judge.temperature !== undefined && { temperature: options.judge.temperature }),
    ...(options.judge.maxTokens !== undefined && { max_tokens: options.judge.maxTokens }),
    ...(options.judge.seed !== undefined && { seed: options.judge.seed }),
    response_format: responseFormat,
  });
  const report: CritiqueReport = { critic, items: rows.length, requests: 0, cached: 0, stored: 0, skipped, failed: [] };
  /** One vote's raw answer: from the cache, else asked and put on record; undefined when the call failed. */
  const ask = async (job: Job, voteIndex: number, signal: AbortSignal): Promise<string | undefined> => {
    const request = {
      endpoint,
      model: options.judge.model,
      parameters,
      promptHash: sha256(job.prompt),
      voteIndex,
    };
    const cacheKey = judgeCacheKey(request);
    const hit = await calls.cached(cacheKey);
    if (hit) {
      report.cached++;
      return hit.rawOutput;
    }
    const chat: ChatRequest = {
      model: options.judge.model,
      messages: [{ role: 'user', content: job.prompt }],
      responseFormat,
      ...(options.judge.temperature !== undefined && { temperature: options.judge.temperature }),
      ...(options.judge.maxTokens !== undefined && { maxTokens: options.judge.maxTokens }),
      ...(options.judge.seed !== undefined && { seed: options.judge.seed }),
    };
    report.requests++;
    // What every record of this call says, answered or not.
    const call = { cacheKey, request, promptTemplateHash: template.hash, studyId, judge: critic };
    try {
      const result = await options.client.complete(chat, signal);
      const parsed = parseJudgeOutput(result.text, 'rubric', { rubric });
      await calls.record({
        ...call,
        rawOutput: result.text,
        ...(parsed.ok && parsed.rationale !== undefined && { rationale: parsed.rationale }),
        ...(!parsed.ok && { failure: { kind: 'parse' as const, message: parsed.error } }),
        ...(result.inputTokens !== undefined && { inputTokens: result.inputTokens }),
        ...(result.outputTokens !== undefined && { outputTokens: result.outputTokens }),
        latencyMs: result.latencyMs,
        attempts: result.attempts,
        createdAt: now(),
      });
      return result.text;
    } catch (error) {
      const failure =
        error instanceof ChatFailure
          ? { kind: error.kind, message: error.message }
          : { kind: 'client' as const, message: String(error) };
      await calls.record({
        ...call,
        rawOutput: '',
        failure,
        attempts: error instanceof ChatFailure ? error.attempts : 1,
        createdAt: now(),
      });
      report.failed.push({ itemId: job.itemId, error: failure.message });
      return undefined;
    }
  };
  await runJobs(jobs, {
    concurrency: options.concurrency ?? 4,
    ...(options.signal && { signal: options.signal }),
    run: async (job, signal) => {
      const rated: { scores: Record<string, string>; rationale?: string }[] = [];
      let problem: string | undefined;
      for (let voteIndex = 0; voteIndex < votes; voteIndex++) {
        const raw = await ask(job, voteIndex, signal);
        if (raw === undefined) return;
        const parsed = parseJudgeOutput(raw, 'rubric', { rubric });
        if (parsed.ok && parsed.scores) {
          rated.push({ scores: parsed.scores, ...(parsed.rationale !== undefined && { rationale: parsed.rationale }) });
        } else problem ??= parsed.ok ? 'no scores' : parsed.error;
      }
      if (rated.length === 0) {
        report.failed.push({ itemId: job.itemId, error: problem ?? 'no scores' });
        return;
      }
      const scores = majorityLevels(
        rated.map((r) => r.scores),
        rubric,
      );
      const agreeing = rated.find((r) => rubric.dimensions.every((d) => r.scores[d] === scores[d])) ?? rated[0]!;
      const worst = rubric.levels.at(-1);
      const verdict = Object.values(scores).includes(worst!) && verdicts.includes('reject') ? 'reject' : verdicts[0]!;
      await store.reviews.recordCriticVerdict(
        review.name,
        {
          item: job.item,
          versionId: job.versionId,
          reviewer: critic,
          verdict,
          rubric: scores,
          reason: agreeing.rationale ?? null,
        },
        now().toISOString(),
      );
      report.stored++;
    },
  });
  return report;
}

/** Each dimension's level given by most votes; a tie goes to the worse level (later in `levels`). */
export function majorityLevels(
  votes: readonly Record<string, string>[],
  rubric: { dimensions: readonly string[]; levels: readonly string[] },
): Record<string, string> {
  const result: Record<string, string> = {};
  for (const dimension of rubric.dimensions) {
    let best: string | undefined;
    let bestCount = 0;
    rubric.levels.forEach((level) => {
      const count = votes.filter((v) => v[dimension] === level).length;
      if (count > 0 && count >= bestCount) {
        best = level;
        bestCount = count;
      }
    });
    if (best !== undefined) result[dimension] = best;
  }
  return result;
}
