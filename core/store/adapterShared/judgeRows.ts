// What both adapters of the judge's port share, backend-independent: an llm_call row as either driver returns it,
// mapped to the port's RecordedJudgeCall, a call's record turned into llm_call's values, a pair row as the pair
// queries read it mapped to a pair to judge, and a page's pair row without its sort key. The SQL stays in each
// adapter (core/store/sqlite/sqliteJudge.ts, core/store/postgres/postgresJudge.ts).
import type { JudgeCallRecord, PairToJudge, RecordedJudgeCall, StoredSuggestionVote } from '../port/judgePort.ts';

/** A row of `SELECT c.*, p.qid, p.docid FROM llm_call AS c LEFT JOIN pair AS p …`. */
export interface CallRow {
  id: number;
  cache_key: string;
  endpoint: string;
  model: string;
  parameters: string;
  prompt_template_hash: string | null;
  prompt_hash: string;
  vote_index: number;
  study_id: number | null;
  pair_id: number | null;
  qid: string | null;
  docid: string | null;
  judge: string | null;
  raw_output: string;
  parsed_label: number | null;
  parsed_conditions: string | null;
  rationale: string | null;
  error_kind: RecordedJudgeCall['errorKind'];
  error: string | null;
  input_tokens: number | null;
  output_tokens: number | null;
  latency_ms: number | null;
  attempts: number | null;
  cost: number | null;
  created_at: string;
}

export function recordedJudgeCall(row: CallRow): RecordedJudgeCall {
  return {
    id: row.id,
    cacheKey: row.cache_key,
    endpoint: row.endpoint,
    model: row.model,
    parameters: row.parameters,
    promptTemplateHash: row.prompt_template_hash,
    promptHash: row.prompt_hash,
    voteIndex: row.vote_index,
    studyId: row.study_id,
    pairId: row.pair_id,
    qid: row.qid,
    docid: row.docid,
    judge: row.judge,
    rawOutput: row.raw_output,
    parsedLabel: row.parsed_label,
    parsedConditions: row.parsed_conditions === null ? null : (JSON.parse(row.parsed_conditions) as boolean[]),
    rationale: row.rationale,
    errorKind: row.error_kind,
    error: row.error,
    inputTokens: row.input_tokens,
    outputTokens: row.output_tokens,
    latencyMs: row.latency_ms,
    attempts: row.attempts,
    cost: row.cost,
    createdAt: row.created_at,
  };
}

/**
 * The values of a call's llm_call row, keyed by parameter name, in the column order of both adapters' INSERT
 * (cache_key … created_at): a failed call keeps no parsed label or conditions, a latency is whole milliseconds.
 */
export function judgeCallValues(call: JudgeCallRecord) {
  return {
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
    createdAt: call.createdAt,
  };
}

/** A suggestion's call id: null stands for the call being recorded with it (`thisCall`). */
export function suggestionCallOf(
  thisCall: number | undefined,
  group?: readonly (number | null)[],
): (id: number | null) => number {
  return (id) => {
    // recordCalls: −(i + 1) names the call of entry i of the same group (JudgePort CallToRecord).
    if (id !== null && id < 0 && group !== undefined) {
      const inGroup = group[-id - 1];
      if (inGroup == null) throw new Error(`a suggestion names entry ${-id - 1} of its group, which has no call`);
      return inGroup;
    }
    if (id !== null) return id;
    if (thisCall === undefined) throw new Error('a suggestion names the call being recorded, but none is');
    return thisCall;
  };
}

/** A pair as the pair queries read it: flags are booleans from PostgreSQL, 0/1 from SQLite. */
export interface SelectedPairRow {
  id: number;
  qid: string;
  docid: string;
  hasQuery: boolean | 0 | 1;
  hasDocument: boolean | 0 | 1;
  queryOrder: number;
  bestRank: number;
}

export function pairOfRow(row: SelectedPairRow): PairToJudge & { queryOrder: number; bestRank: number } {
  return {
    pairId: row.id,
    qid: row.qid,
    docid: row.docid,
    hasQuery: row.hasQuery === true || row.hasQuery === 1,
    hasDocument: row.hasDocument === true || row.hasDocument === 1,
    queryOrder: row.queryOrder,
    bestRank: row.bestRank,
  };
}

/** Suggestion vote rows (ordered by pair, then vote index) grouped by their pair, in the rows' order. */
export function votesByPair(
  rows: readonly (StoredSuggestionVote & { pairId: number })[],
): Map<number, StoredSuggestionVote[]> {
  const found = new Map<number, StoredSuggestionVote[]>();
  for (const { pairId, ...vote } of rows) {
    const votes = found.get(pairId);
    if (votes === undefined) found.set(pairId, [vote]);
    else votes.push(vote);
  }
  return found;
}

/** A pair row of a page to judge as the port gives it, without the sort key its page's cursor is made of. */
export function withoutSortKey({
  queryOrder: _order,
  bestRank: _rank,
  ...pair
}: PairToJudge & { queryOrder: number; bestRank: number }): PairToJudge {
  return pair;
}
