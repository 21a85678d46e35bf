// The LLM critic of a review (issue 8's judge machinery): each item's generated text (its latest generated version,
// what reviewers judge; not their edits) rated on the review's rubric
// by the review's `judge` with the shipped instruction-critic prompt (FollowTable's six dimensions) — `{{query}}` is
// the item's source text, else its parent id; `{{instruction}}` its text. Every call goes on record in llm_call and
// through its cache; a parsed answer is stored as the critic's verdict (annotator `llm:<model>@<prompt>`): the first
// verdict (accept) unless a dimension got the worst level, then `reject` (FollowTable regenerates on any Poor), with
// the scores as its rubric and the rationale as its reason. The Review view shows it as another reviewer's verdict
// (after one's own in a blind review) and pre-fills the rubric from it. A version the critic rated is not asked again.
import type { JudgeModel, ReviewModel } from '../dsl/model.ts';
import type { ChatClient, ChatRequest } from '../judge/chatClient.ts';
import { ChatFailure } from '../judge/chatClient.ts';
import { defaultCriticRubric, defaultPromptTemplate } from '../judge/defaultPrompts.ts';
import { normaliseEndpoint } from '../judge/endpointApproval.ts';
import { canonicalJson, JudgeCallStore, judgeCacheKey } from '../judge/judgeCallStore.ts';
import { judgeOutputSchema, parseJudgeOutput } from '../judge/judgeOutput.ts';
import { runJobs } from '../judge/judgeScheduler.ts';
import { judgeAnnotatorName } from '../judge/judgeStudy.ts';
import { renderPrompt, sha256 } from '../judge/promptTemplate.ts';
import type { StudyDatabase } from '../store/studyDatabase.ts';
import { verdictsOf } from './reviewRecords.ts';

export interface CritiqueOptions {
  client: ChatClient;
  judge: JudgeModel;
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
  versionId: number;
  prompt: string;
}

export async function critiqueReview(
  database: StudyDatabase,
  review: ReviewModel,
  options: CritiqueOptions,
): Promise<CritiqueReport> {
  const db = database.db;
  const studyId = database.studyId(review.name);
  const now = options.now ?? (() => new Date());
  const template = defaultPromptTemplate('instruction-critic');
  const rubric = review.rubric
    ? { dimensions: review.rubric.dimensions.map((d) => d.name), levels: review.rubric.levels }
    : defaultCriticRubric;
  const verdicts = verdictsOf(review);
  const store = new JudgeCallStore(db);
  const critic = judgeAnnotatorName(options.judge.model, template.hash);
  const criticId = store.judgeAnnotator(critic);
  const rows = db
    .prepare(
      `SELECT i.item_id, i.parent_id, i.metadata, v.id AS version_id, v.text FROM review_item AS i
       JOIN review_item_version AS v
         ON v.id = (SELECT max(id) FROM review_item_version WHERE item_id = i.id AND based_on IS NULL)
       WHERE i.study_id = ? ORDER BY i.id`,
    )
    .all(studyId) as {
    item_id: string;
    parent_id: string | null;
    metadata: string | null;
    version_id: number;
    text: string;
  }[];
  const rated = db.prepare('SELECT 1 FROM review_verdict WHERE version_id = ? AND annotator_id = ?').pluck();
  const jobs: Job[] = [];
  let skipped = 0;
  for (const row of rows) {
    if (rated.get(row.version_id, criticId) !== undefined) {
      skipped++;
      continue;
    }
    const source = row.metadata ? (JSON.parse(row.metadata) as { source?: string }).source : undefined;
    const prompt = renderPrompt(template, {
      query: source ?? row.parent_id ?? '',
      instruction: row.text,
      document: '',
      scale: [],
    });
    jobs.push({ itemId: row.item_id, versionId: row.version_id, prompt });
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
  const insertVerdict = db.prepare(
    `INSERT INTO review_verdict (version_id, annotator_id, verdict, rubric, rationale, created_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  await runJobs(jobs, {
    concurrency: options.concurrency ?? 4,
    ...(options.signal && { signal: options.signal }),
    run: async (job, signal) => {
      const request = {
        endpoint,
        model: options.judge.model,
        parameters,
        promptHash: sha256(job.prompt),
        voteIndex: 0,
      };
      const cacheKey = judgeCacheKey(request);
      let raw: string;
      const hit = store.cached(cacheKey);
      if (hit) {
        raw = hit.rawOutput;
        report.cached++;
      } else {
        const chat: ChatRequest = {
          model: options.judge.model,
          messages: [{ role: 'user', content: job.prompt }],
          responseFormat,
          ...(options.judge.temperature !== undefined && { temperature: options.judge.temperature }),
          ...(options.judge.maxTokens !== undefined && { maxTokens: options.judge.maxTokens }),
          ...(options.judge.seed !== undefined && { seed: options.judge.seed }),
        };
        report.requests++;
        try {
          const result = await options.client.complete(chat, signal);
          raw = result.text;
          const parsed = parseJudgeOutput(raw, 'rubric', { rubric });
          store.record({
            cacheKey,
            request,
            promptTemplateHash: template.hash,
            studyId,
            judge: critic,
            rawOutput: raw,
            ...(parsed.ok && parsed.rationale !== undefined && { rationale: parsed.rationale }),
            ...(!parsed.ok && { failure: { kind: 'parse' as const, message: parsed.error } }),
            ...(result.inputTokens !== undefined && { inputTokens: result.inputTokens }),
            ...(result.outputTokens !== undefined && { outputTokens: result.outputTokens }),
            latencyMs: result.latencyMs,
            attempts: result.attempts,
            createdAt: now(),
          });
        } catch (error) {
          const failure =
            error instanceof ChatFailure
              ? { kind: error.kind, message: error.message }
              : { kind: 'client' as const, message: String(error) };
          store.record({
            cacheKey,
            request,
            promptTemplateHash: template.hash,
            studyId,
            judge: critic,
            rawOutput: '',
            failure,
            attempts: error instanceof ChatFailure ? error.attempts : 1,
            createdAt: now(),
          });
          report.failed.push({ itemId: job.itemId, error: failure.message });
          return;
        }
      }
      const parsed = parseJudgeOutput(raw, 'rubric', { rubric });
      if (!parsed.ok || !parsed.scores) {
        report.failed.push({ itemId: job.itemId, error: parsed.ok ? 'no scores' : parsed.error });
        return;
      }
      const worst = rubric.levels.at(-1);
      const verdict =
        Object.values(parsed.scores).includes(worst!) && verdicts.includes('reject') ? 'reject' : verdicts[0]!;
      insertVerdict.run(
        job.versionId,
        criticId,
        verdict,
        JSON.stringify(parsed.scores),
        parsed.rationale ?? null,
        now().toISOString(),
      );
      report.stored++;
    },
  });
  return report;
}
