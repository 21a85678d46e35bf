// What the LLM judge asks of the record: the calls it made (raw output, parsed label or failure, tokens, cost), the
// suggestions they became, and the cache rule (a pair and vote already answered is never sent again). The judge's
// rules — which pairs, the prompt, parsing, the majority of votes — stay in core/judge/; this port reads and writes.
import type { ChatFailureKind } from '../../judge/chatClient.ts';
import type { DocumentFormat } from '../../labelling/types.ts';

/** What went wrong with a call: no answer (the chat client's failure kind), or an answer that did not parse. */
export type JudgeFailureKind = ChatFailureKind | 'parse';

/** What one call asks; its cache key is computed from it (core/judge/judgeCallStore.ts judgeCacheKey). */
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

/** An answered call the cache serves. */
export interface CachedCall {
  id: number;
  rawOutput: string;
  inputTokens: number | null;
  outputTokens: number | null;
}

/** A call to put on record, answered or not. */
export interface JudgeCallRecord {
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
  /** ISO 8601. */
  createdAt: string;
}

/** One vote behind a suggestion: the call that made it and the label it gave (null: it did not parse). */
export interface SuggestionVote {
  voteIndex: number;
  /** null: the call recorded by the same recordCall. */
  callId: number | null;
  label: number | null;
  rationale?: string;
}

/** A judge's suggestion for a pair, with the votes it was made from. */
export interface SuggestionRecord {
  pairId: number;
  /** The judge's annotator name (llm:…): added as an LLM judge if new. */
  judge: string;
  label: number | null;
  /** Share of the votes for the label; undefined when the judge did not vote (votes 1) or nothing parsed. */
  confidence?: number;
  rationale?: string;
  /** The call whose rationale is shown; null: the call recorded by the same recordCall. */
  callId: number | null;
  votes: readonly SuggestionVote[];
  /** ISO 8601. */
  createdAt: string;
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
  /** Calls recorded with a cost: 0 with calls on record means no price was known ("no price", not "free"). */
  pricedCalls: number;
}

/** A pair of the study as the judge selects it, in the Label view's query order. */
export interface PairToJudge {
  pairId: number;
  qid: string;
  docid: string;
  /** The study has the query / the corpus has the document (else the pair cannot be judged). */
  hasQuery: boolean;
  hasDocument: boolean;
}

/** The columns of a query the judge's prompt and conditions are read from (labelling/queryConditions QueryFields). */
export interface QueryToJudge {
  qid: string;
  text: string;
  instruction: string | null;
  type: string | null;
  metadata: string | null;
}

export interface PairsToJudge {
  pairs: PairToJudge[];
  /** The queries those pairs are of (each once). */
  queries: QueryToJudge[];
}

/** Where a page of pairs to judge ended (the last pair's place in query order): the next page starts after it. */
export interface PairsToJudgeCursor {
  /** The query's place in the study (its row id; pairs of no query come last). */
  queryOrder: number;
  qid: string;
  /** The pair's best rank (pairs without one come last among their query's). */
  bestRank: number;
  docid: string;
}

/** One page of pairsToJudgePage: its pairs, their queries, and where the next page starts (none: this was the last). */
export interface PairsToJudgePage extends PairsToJudge {
  next?: PairsToJudgeCursor;
}

/**
 * One entry of recordCalls: a call and, when it completes a pair, the pair's suggestion — or a suggestion alone (its
 * last vote came from the cache). The suggestion's call ids (shown and votes) are ids on record, null for this
 * entry's call, or −(i + 1) for the call of entry i of the same group (written earlier in the same transaction, so
 * its id is not known to the caller).
 */
export interface CallToRecord {
  call?: JudgeCallRecord;
  suggestion?: SuggestionRecord;
}

/** A document as a prompt shows it (promptDocument.ts). */
export interface DocumentToJudge {
  title: string | null;
  body: string;
  format: DocumentFormat;
  metadata: string | null;
}

/** A recorded call as read back: what was asked, what came back, what it cost. */
export interface RecordedJudgeCall {
  id: number;
  cacheKey: string;
  endpoint: string;
  model: string;
  parameters: string;
  promptTemplateHash: string | null;
  promptHash: string;
  voteIndex: number;
  studyId: number | null;
  pairId: number | null;
  /** The pair's query and document, when the call was about a pair. */
  qid: string | null;
  docid: string | null;
  judge: string | null;
  rawOutput: string;
  parsedLabel: number | null;
  parsedConditions: boolean[] | null;
  rationale: string | null;
  errorKind: JudgeFailureKind | null;
  error: string | null;
  inputTokens: number | null;
  outputTokens: number | null;
  latencyMs: number | null;
  attempts: number | null;
  cost: number | null;
  createdAt: string;
}

/** One vote of a suggestion on record: the call behind it and the label it gave (null: it did not parse). */
export interface StoredSuggestionVote {
  voteIndex: number;
  callId: number;
  label: number | null;
}

/** A judge's current suggestion for a pair, with its votes (each with its call's raw output). */
export interface StoredSuggestion {
  pairId: number;
  qid: string;
  docid: string;
  label: number | null;
  rationale: string | null;
  confidence: number | null;
  votes: { voteIndex: number; callId: number; label: number | null; rawOutput: string }[];
}

/** A judge's current suggestion for a pair: its label and the share of its votes that gave it. */
export interface SuggestionConfidence {
  qid: string;
  docid: string;
  label: number | null;
  confidence: number | null;
}

export interface JudgePort {
  /** The annotator id of judge `name` (llm:…), added if new; a StoreError when the name is a person's. */
  judgeAnnotator(name: string): Promise<number>;
  /** The pairs of study `studyId` to judge, in query order (at most `limit`; `onlyUnlabelled`: none a person has
   * a current label for), and their queries. */
  pairsToJudge(studyId: number, options: { limit?: number; onlyUnlabelled?: boolean }): Promise<PairsToJudge>;
  /**
   * A page of the pairs pairsToJudge selects, in the same order: at most `limit`, those after `after` (from the
   * first when absent). A run pages through a large study without holding all its pairs.
   */
  pairsToJudgePage(
    studyId: number,
    options: { after?: PairsToJudgeCursor; limit: number; onlyUnlabelled?: boolean },
  ): Promise<PairsToJudgePage>;
  /** How many pairs pairsToJudge would select (without a limit). */
  countPairsToJudge(studyId: number, options: { onlyUnlabelled?: boolean }): Promise<number>;
  /** Documents `docids` of study `studyId` as prompts show them, by docid; those the corpus lacks are absent. */
  documentsToJudge(studyId: number, docids: readonly string[]): Promise<Map<string, DocumentToJudge>>;
  /** Document `docid` of study `studyId` as a prompt shows it; undefined when the corpus has none. */
  documentToJudge(studyId: number, docid: string): Promise<DocumentToJudge | undefined>;
  /** The first answered call (parsed or not) with this cache key; never a call that got no answer. */
  cachedCall(cacheKey: string): Promise<CachedCall | undefined>;
  /** cachedCall of each key, in one read: the keys with an answered call, each with its first. */
  cachedCalls(cacheKeys: readonly string[]): Promise<Map<string, CachedCall>>;
  /**
   * The votes of judge `judge`'s current suggestion for each of `pairIds` that has one (by pair id, in vote order),
   * in one read: a run writes a pair's suggestion again only when its votes differ, so a re-run of a finished job
   * writes nothing.
   */
  currentSuggestionVotes(judge: string, pairIds: readonly number[]): Promise<Map<number, StoredSuggestionVote[]>>;
  /**
   * Each entry's call and suggestion, in order, in ONE transaction (a group commit: all are on record when it
   * resolves, or none); returns the entries' call ids in the same order (null: an entry without a call).
   */
  recordCalls(calls: readonly CallToRecord[]): Promise<(number | null)[]>;
  /**
   * Records a call and, when given, the suggestion it completes (its votes and shown call may name this call by
   * null) — one transaction; returns the call's id.
   */
  recordCall(call: JudgeCallRecord, suggestion?: SuggestionRecord): Promise<number>;
  /**
   * Makes `suggestion` the judge's one suggestion for its pair (one transaction): what the judge said before about
   * the pair, and its votes, are replaced — the calls behind them stay on record. Returns the suggestion's id.
   */
  replaceSuggestion(suggestion: SuggestionRecord): Promise<number>;
  /** What the calls recorded for study `studyId` (by judge `judge`, when given) add up to. */
  callTotals(studyId: number, judge?: string): Promise<JudgeCallTotals>;
  /** The calls recorded for study `studyId` (by `judge`, when given), in the order they were recorded. */
  calls(studyId: number, judge?: string): Promise<RecordedJudgeCall[]>;
  /** Judge `judge`'s current suggestions in study `studyId`, in query order (qid, then rank), with their votes. */
  suggestions(studyId: number, judge: string): Promise<StoredSuggestion[]>;
  /**
   * Judge `judge`'s current suggestions in study `studyId` without their votes — pair, label, confidence — ordered by
   * qid, docid: what the quality report's calibration reads, light enough for a 100,000-pair study.
   */
  suggestionConfidences(studyId: number, judge: string): Promise<SuggestionConfidence[]>;
}
