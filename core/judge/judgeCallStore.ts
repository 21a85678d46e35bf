// The judge's side of the task database (schema: core/store/migrations/004_judgeCalls.ts): the call cache, the record
// of every call, and the suggestions the Label view shows. Writes are short: a call's record (with, when it is a
// pair's last vote, the pair's suggestion — judgeStudy.ts puts both in one transaction), so a run that crashes loses
// at most the calls that were in flight, and a labelling session in another process waits at most for one of them.
//
// The cache key is the sha256 of (endpoint, model, parameters, rendered prompt — by its sha256 —, vote index):
// exactly what decides the answer, and nothing that does not (the study, the pair, the time). Which recorded calls the cache serves is
// the migration's rule: answered ones, parsed or not; never a call that got no answer.
import type { SqliteDatabase } from '../store/sqliteDatabase.ts';
import type { ChatFailureKind } from './chatClient.ts';
import { sha256 } from './promptTemplate.ts';

/** What went wrong with a call: no answer (the transport's kind), or an answer that did not parse. */
export type JudgeFailureKind = ChatFailureKind | 'parse';

/** What one call asks; the key is computed from it. */
export interface CallRequest {
  /** Normalised (endpointApproval.ts normaliseEndpoint). */
  endpoint: string;
  model: string;
  /** As sent — temperature, max_tokens, seed, response_format (absent ones left out) — as canonicalJson. */
  parameters: string;
  /** sha256 of the rendered prompt. */
  promptHash: string;
  voteIndex: number;
}

export function judgeCacheKey(request: CallRequest): string {
  return sha256(
    JSON.stringify([request.endpoint, request.model, request.parameters, request.promptHash, request.voteIndex]),
  );
}

/** JSON with object keys sorted at every level, so equal parameters give equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item !== null && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : item,
  );
}

/** An answered call the cache serves. */
export interface CachedCall {
  id: number;
  rawOutput: string;
  inputTokens: number | null;
  outputTokens: number | null;
}

export interface NewJudgeCall {
  cacheKey: string;
  request: CallRequest;
  promptTemplateHash: string;
  studyId: number;
  /** The pair judged; none for a review item's critique (review verdicts say which version it rated). */
  pairId?: number;
  /** The judge's annotator name. */
  judge: string;
  /** '' when nothing was answered. */
  rawOutput: string;
  parsedLabel?: number;
  parsedConditions?: boolean[];
  rationale?: string;
  failure?: { kind: JudgeFailureKind; message: string };
  inputTokens?: number;
  outputTokens?: number;
  latencyMs?: number;
  attempts: number;
  cost?: number;
  createdAt: Date;
}

/** One vote behind a suggestion: the call that made it and the label it gave (null: it did not parse). */
export interface SuggestionVote {
  voteIndex: number;
  callId: number;
  label: number | null;
  rationale?: string;
}

export interface NewSuggestion {
  pairId: number;
  annotatorId: number;
  label: number | null;
  /** Share of the votes for the label; undefined when the judge did not vote (votes 1) or nothing parsed. */
  confidence?: number;
  rationale?: string;
  /** The call whose rationale is shown. */
  callId: number;
  votes: readonly SuggestionVote[];
  createdAt: Date;
}

/** Calls, tokens and cost recorded for a study (and one judge): what judging it has cost so far. */
export interface JudgeCallTotals {
  calls: number;
  answered: number;
  failed: number;
  inputTokens: number;
  outputTokens: number;
  /** Sum over the calls that have a price; 0 when none has. */
  cost: number;
}

export class JudgeCallStore {
  private readonly db: SqliteDatabase;
  private readonly statements;

  constructor(db: SqliteDatabase) {
    this.db = db;
    this.statements = {
      // The WHERE repeats the llm_call_cache index's own, so the lookup is a search of that index.
      cached: db.prepare(
        `SELECT id, raw_output AS rawOutput, input_tokens AS inputTokens, output_tokens AS outputTokens
         FROM llm_call WHERE cache_key = ? AND (error_kind IS NULL OR error_kind = 'parse') ORDER BY id LIMIT 1`,
      ),
      insertCall: db.prepare(
        `INSERT INTO llm_call (cache_key, endpoint, model, parameters, prompt_template_hash, prompt_hash, vote_index,
           study_id, pair_id, judge, raw_output, parsed_label, parsed_conditions, rationale, error_kind, error,
           input_tokens, output_tokens, latency_ms, attempts, cost, created_at)
         VALUES (@cacheKey, @endpoint, @model, @parameters, @promptTemplateHash, @promptHash, @voteIndex, @studyId,
           @pairId, @judge, @rawOutput, @parsedLabel, @parsedConditions, @rationale, @errorKind, @error,
           @inputTokens, @outputTokens, @latencyMs, @attempts, @cost, @createdAt)`,
      ),
      judgeAnnotator: db.prepare(
        `INSERT INTO annotator (name, kind) VALUES (?, 'llm')
         ON CONFLICT (name) DO UPDATE SET name = excluded.name RETURNING id, kind`,
      ),
      previousSuggestions: db.prepare('SELECT id FROM suggestion WHERE pair_id = ? AND annotator_id = ?').pluck(),
      deleteVotes: db.prepare('DELETE FROM suggestion_vote WHERE suggestion_id = ?'),
      deleteSuggestion: db.prepare('DELETE FROM suggestion WHERE id = ?'),
      insertSuggestion: db.prepare(
        `INSERT INTO suggestion (pair_id, annotator_id, llm_call_id, label, rationale, created_at, confidence)
         VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`,
      ),
      insertVote: db.prepare(
        'INSERT INTO suggestion_vote (suggestion_id, vote_index, llm_call_id, label) VALUES (?, ?, ?, ?)',
      ),
    };
  }

  /** The annotator id of judge `name` (llm:…), added if new. */
  judgeAnnotator(name: string): number {
    const row = this.statements.judgeAnnotator.get(name) as { id: number; kind: string };
    if (row.kind !== 'llm') throw new Error(`annotator '${name}' is a person in this database, not an LLM judge`);
    return row.id;
  }

  /** The answered call with this key, if one was recorded. */
  cached(cacheKey: string): CachedCall | undefined {
    return this.statements.cached.get(cacheKey) as CachedCall | undefined;
  }

  /** Records a call (its own transaction); returns its id. */
  record(call: NewJudgeCall): number {
    const result = this.statements.insertCall.run({
      cacheKey: call.cacheKey,
      endpoint: call.request.endpoint,
      model: call.request.model,
      parameters: call.request.parameters,
      promptTemplateHash: call.promptTemplateHash,
      promptHash: call.request.promptHash,
      voteIndex: call.request.voteIndex,
      studyId: call.studyId,
      pairId: call.pairId ?? null,
      judge: call.judge,
      rawOutput: call.rawOutput,
      parsedLabel: call.failure ? null : (call.parsedLabel ?? null),
      parsedConditions: !call.failure && call.parsedConditions ? JSON.stringify(call.parsedConditions) : null,
      rationale: call.rationale ?? null,
      errorKind: call.failure?.kind ?? null,
      error: call.failure?.message ?? null,
      inputTokens: call.inputTokens ?? null,
      outputTokens: call.outputTokens ?? null,
      latencyMs: call.latencyMs === undefined ? null : Math.round(call.latencyMs),
      attempts: call.attempts,
      cost: call.cost ?? null,
      createdAt: call.createdAt.toISOString(),
    });
    return Number(result.lastInsertRowid);
  }

  /**
   * Makes `suggestion` the judge's one suggestion for its pair (one transaction): what the judge said before about
   * the pair, and its votes, are replaced — the calls behind them stay in llm_call.
   */
  replaceSuggestion(suggestion: NewSuggestion): number {
    const s = this.statements;
    return this.db
      .transaction(() => {
        for (const id of s.previousSuggestions.all(suggestion.pairId, suggestion.annotatorId) as number[]) {
          s.deleteVotes.run(id);
          s.deleteSuggestion.run(id);
        }
        const { id } = s.insertSuggestion.get(
          suggestion.pairId,
          suggestion.annotatorId,
          suggestion.callId,
          suggestion.label,
          suggestion.rationale ?? null,
          suggestion.createdAt.toISOString(),
          suggestion.confidence ?? null,
        ) as { id: number };
        for (const vote of suggestion.votes) s.insertVote.run(id, vote.voteIndex, vote.callId, vote.label);
        return id;
      })
      .immediate();
  }
}

/** What the calls recorded for study `studyId` (by judge `judge`, when given) add up to. */
export function judgeCallTotals(db: SqliteDatabase, studyId: number, judge?: string): JudgeCallTotals {
  const row = db
    .prepare(
      `SELECT count(*) AS calls,
         coalesce(sum(error_kind IS NULL OR error_kind = 'parse'), 0) AS answered,
         coalesce(sum(error IS NOT NULL), 0) AS failed,
         coalesce(sum(input_tokens), 0) AS inputTokens, coalesce(sum(output_tokens), 0) AS outputTokens,
         coalesce(sum(cost), 0) AS cost
       FROM llm_call WHERE study_id = @study ${judge === undefined ? '' : 'AND judge = @judge'}`,
    )
    .get({ study: studyId, ...(judge !== undefined && { judge }) }) as JudgeCallTotals;
  return row;
}
