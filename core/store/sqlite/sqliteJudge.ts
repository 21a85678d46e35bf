// The judge's side of the SQLite record (schema: core/store/sqlite/migrations/004_judgeCalls.ts): the call cache,
// the record of every call, and the suggestions the Label view shows. Writes are short — a call's record, with the
// suggestion it completes in the same transaction — so a run that crashes loses at most the calls in flight, and a
// labelling session in another process waits at most for one of them.
import {
  type CallRow,
  judgeCallValues,
  pairOfRow,
  recordedJudgeCall,
  type SelectedPairRow,
  suggestionCallOf,
  votesByPair,
  withoutSortKey,
} from '../adapterShared/judgeRows.ts';
import type {
  CachedCall,
  CallToRecord,
  DocumentToJudge,
  JudgeCallRecord,
  JudgeCallTotals,
  JudgePort,
  PairsToJudge,
  PairsToJudgeCursor,
  PairsToJudgePage,
  PairToJudge,
  QueryToJudge,
  RecordedJudgeCall,
  StoredSuggestion,
  StoredSuggestionVote,
  SuggestionConfidence,
  SuggestionRecord,
} from '../port/judgePort.ts';
import { ensureAnnotatorId } from './annotators.ts';
import type { SqliteContext } from './sqliteContext.ts';

/** A call's llm_call row, from judgeCallValues (judge calls recorded online and a batch's lines). */
export const insertCallSql = `
  INSERT INTO llm_call (cache_key, endpoint, model, parameters, prompt_template_hash, prompt_hash, vote_index,
     study_id, pair_id, judge, raw_output, parsed_label, parsed_conditions, rationale, error_kind, error,
     input_tokens, output_tokens, latency_ms, attempts, cost, created_at)
   VALUES (@cacheKey, @endpoint, @model, @parameters, @promptTemplateHash, @promptHash, @voteIndex, @studyId,
     @pairId, @judge, @rawOutput, @parsedLabel, @parsedConditions, @rationale, @errorKind, @error,
     @inputTokens, @outputTokens, @latencyMs, @attempts, @cost, @createdAt)`;

function prepareStatements(context: SqliteContext) {
  const db = context.db;
  return {
    // The WHERE repeats the llm_call_cache index's own, so the lookup is a search of that index.
    cached: db.prepare(
      `SELECT id, raw_output AS rawOutput, input_tokens AS inputTokens, output_tokens AS outputTokens
       FROM llm_call WHERE cache_key = ? AND (error_kind IS NULL OR error_kind = 'parse') ORDER BY id LIMIT 1`,
    ),
    // One read for a page's keys; the first answered call of each key is kept (ORDER BY id).
    cachedMany: db.prepare(
      `SELECT cache_key AS cacheKey, id, raw_output AS rawOutput, input_tokens AS inputTokens,
         output_tokens AS outputTokens
       FROM llm_call WHERE cache_key IN (SELECT value FROM json_each(?)) AND (error_kind IS NULL OR error_kind = 'parse')
       ORDER BY id`,
    ),
    // A page's pairs' current suggestions by one judge, their votes (the suggestion_by_pair index per pair).
    suggestionVotes: db.prepare(
      `SELECT s.pair_id AS pairId, v.vote_index AS voteIndex, v.llm_call_id AS callId, v.label
       FROM suggestion AS s JOIN suggestion_vote AS v ON v.suggestion_id = s.id
       WHERE s.pair_id IN (SELECT value FROM json_each(@pairs))
         AND s.annotator_id = (SELECT id FROM annotator WHERE name = @judge)
       ORDER BY s.pair_id, v.vote_index`,
    ),
    insertCall: db.prepare(insertCallSql),
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
    document: db.prepare('SELECT title, body, format, metadata FROM document WHERE study_id = ? AND docid = ?'),
    query: db.prepare('SELECT qid, text, instruction, type, metadata FROM query WHERE study_id = ? AND qid = ?'),
    totals: db.prepare(
      `SELECT count(*) AS calls,
         coalesce(sum(error_kind IS NULL OR error_kind = 'parse'), 0) AS answered,
         coalesce(sum(error IS NOT NULL), 0) AS failed,
         coalesce(sum(input_tokens), 0) AS inputTokens, coalesce(sum(output_tokens), 0) AS outputTokens,
         coalesce(sum(cost), 0) AS cost, count(cost) AS pricedCalls
       FROM llm_call WHERE study_id = @study AND (@judge IS NULL OR judge = @judge)`,
    ),
  };
}

type Statements = ReturnType<typeof prepareStatements>;

/** Groups of calls (recordCalls) between the judge's own WAL checkpoints. */
const groupsPerCheckpoint = 32;

/** Sorts after every row id and rank (the largest integer a JavaScript number holds exactly). */
const lastPlace = Number.MAX_SAFE_INTEGER;

/** "Labelled by a person": a current (not retracted) judgment by a human annotator — such pairs left out. */
function unlabelledCondition(options: { onlyUnlabelled?: boolean }): string {
  return options.onlyUnlabelled
    ? `AND NOT EXISTS (
         SELECT 1 FROM judgment AS j JOIN annotator AS a ON a.id = j.annotator_id AND a.kind = 'human'
         WHERE j.pair_id = p.id AND NOT EXISTS (SELECT 1 FROM judgment_retraction AS r WHERE r.judgment_id = j.id))`
    : '';
}

export class SqliteJudge implements JudgePort {
  protected readonly context: SqliteContext;
  private prepared: Statements | undefined;
  /** Judges' annotator ids known to be on record (annotators are never deleted): a group need not ask again. */
  private readonly committedJudges = new Map<string, number>();
  private groupsSinceCheckpoint = 0;

  constructor(context: SqliteContext) {
    this.context = context;
  }

  private get statements(): Statements {
    this.prepared ??= prepareStatements(this.context);
    return this.prepared;
  }

  async judgeAnnotator(name: string): Promise<number> {
    const id = ensureAnnotatorId(this.context.db, this.context.file, name, 'llm');
    this.context.changed({ what: 'judge' });
    return id;
  }

  async pairsToJudge(studyId: number, options: { limit?: number; onlyUnlabelled?: boolean }): Promise<PairsToJudge> {
    const db = this.context.db;
    return db.transaction((): PairsToJudge => {
      const pairs = this.selectPairs(studyId, options).map(withoutSortKey);
      return { pairs, queries: this.queriesOf(studyId, pairs) };
    })();
  }

  async pairsToJudgePage(
    studyId: number,
    options: { after?: PairsToJudgeCursor; limit: number; onlyUnlabelled?: boolean },
  ): Promise<PairsToJudgePage> {
    const db = this.context.db;
    return db.transaction((): PairsToJudgePage => {
      const rows = this.pageOfPairs(studyId, options);
      const pairs = rows.map(withoutSortKey);
      const last = rows[rows.length - 1];
      const page: PairsToJudgePage = { pairs, queries: this.queriesOf(studyId, pairs) };
      if (last !== undefined && rows.length === options.limit) {
        page.next = { queryOrder: last.queryOrder, qid: last.qid, bestRank: last.bestRank, docid: last.docid };
      }
      return page;
    })();
  }

  async countPairsToJudge(studyId: number, options: { onlyUnlabelled?: boolean }): Promise<number> {
    return this.context.db
      .prepare(`SELECT count(*) FROM pair AS p WHERE p.study_id = ? ${unlabelledCondition(options)}`)
      .pluck()
      .get(studyId) as number;
  }

  async documentsToJudge(studyId: number, docids: readonly string[]): Promise<Map<string, DocumentToJudge>> {
    const found = new Map<string, DocumentToJudge>();
    const document = this.statements.document;
    this.context.db.transaction(() => {
      for (const docid of docids) {
        const row = document.get(studyId, docid) as DocumentToJudge | undefined;
        if (row !== undefined) found.set(docid, row);
      }
    })();
    return found;
  }

  async documentToJudge(studyId: number, docid: string): Promise<DocumentToJudge | undefined> {
    return this.statements.document.get(studyId, docid) as DocumentToJudge | undefined;
  }

  async cachedCall(cacheKey: string): Promise<CachedCall | undefined> {
    return this.statements.cached.get(cacheKey) as CachedCall | undefined;
  }

  async cachedCalls(cacheKeys: readonly string[]): Promise<Map<string, CachedCall>> {
    const found = new Map<string, CachedCall>();
    if (cacheKeys.length === 0) return found;
    const rows = this.statements.cachedMany.all(JSON.stringify(cacheKeys)) as (CachedCall & { cacheKey: string })[];
    for (const { cacheKey, ...call } of rows) if (!found.has(cacheKey)) found.set(cacheKey, call);
    return found;
  }

  async currentSuggestionVotes(
    judge: string,
    pairIds: readonly number[],
  ): Promise<Map<number, StoredSuggestionVote[]>> {
    if (pairIds.length === 0) return new Map();
    const rows = this.statements.suggestionVotes.all({
      pairs: JSON.stringify(pairIds),
      judge,
    }) as (StoredSuggestionVote & {
      pairId: number;
    })[];
    return votesByPair(rows);
  }

  async recordCalls(calls: readonly CallToRecord[]): Promise<(number | null)[]> {
    if (calls.length === 0) return [];
    // The judge's annotator is looked up once per name, not once per suggestion (nor per group, once committed).
    const annotators = new Map<string, number>(this.committedJudges);
    const ids = this.context.db
      .transaction(() => {
        const written: (number | null)[] = [];
        for (const { call, suggestion } of calls) {
          const callId = call !== undefined ? this.insertCall(call) : null;
          written.push(callId);
          if (suggestion === undefined) continue;
          let annotatorId = annotators.get(suggestion.judge);
          if (annotatorId === undefined) {
            annotatorId = ensureAnnotatorId(this.context.db, this.context.file, suggestion.judge, 'llm');
            annotators.set(suggestion.judge, annotatorId);
          }
          this.writeSuggestion(suggestion, callId ?? undefined, annotatorId, written);
        }
        return written;
      })
      .immediate();
    for (const [name, id] of annotators) this.committedJudges.set(name, id);
    // A long run writes the WAL fast; SQLite checkpoints it in whichever connection's commit passes 1,000 pages —
    // often a labelling session's, which then waits for it. The run checkpoints itself, every few groups, so the
    // WAL stays short and the person's commits stay short (PASSIVE: it waits for nobody).
    if (++this.groupsSinceCheckpoint >= groupsPerCheckpoint) {
      this.groupsSinceCheckpoint = 0;
      this.context.db.pragma('wal_checkpoint(PASSIVE)');
    }
    this.context.changed({ what: 'judge' });
    return ids;
  }

  async recordCall(call: JudgeCallRecord, suggestion?: SuggestionRecord): Promise<number> {
    const id =
      suggestion === undefined
        ? this.insertCall(call)
        : this.context.db
            .transaction(() => {
              const callId = this.insertCall(call);
              this.writeSuggestion(suggestion, callId);
              return callId;
            })
            .immediate();
    this.context.changed({ what: 'judge' });
    return id;
  }

  async replaceSuggestion(suggestion: SuggestionRecord): Promise<number> {
    const id = this.context.db.transaction(() => this.writeSuggestion(suggestion, undefined)).immediate();
    this.context.changed({ what: 'judge' });
    return id;
  }

  async callTotals(studyId: number, judge?: string): Promise<JudgeCallTotals> {
    return this.statements.totals.get({ study: studyId, judge: judge ?? null }) as JudgeCallTotals;
  }

  async calls(studyId: number, judge?: string): Promise<RecordedJudgeCall[]> {
    const rows = this.context.db
      .prepare(
        `SELECT c.*, p.qid, p.docid FROM llm_call AS c LEFT JOIN pair AS p ON p.id = c.pair_id
         WHERE c.study_id = @study AND (@judge IS NULL OR c.judge = @judge) ORDER BY c.id`,
      )
      .all({ study: studyId, judge: judge ?? null }) as CallRow[];
    return rows.map(recordedJudgeCall);
  }

  async suggestionConfidences(studyId: number, judge: string): Promise<SuggestionConfidence[]> {
    return this.context.db
      .prepare(
        `SELECT p.qid, p.docid, s.label, s.confidence
         FROM suggestion AS s JOIN pair AS p ON p.id = s.pair_id JOIN annotator AS a ON a.id = s.annotator_id
         WHERE p.study_id = @study AND a.name = @judge ORDER BY p.qid, p.docid`,
      )
      .all({ study: studyId, judge }) as SuggestionConfidence[];
  }

  async suggestions(studyId: number, judge: string): Promise<StoredSuggestion[]> {
    const db = this.context.db;
    return db.transaction((): StoredSuggestion[] => {
      const where = `FROM suggestion AS s JOIN pair AS p ON p.id = s.pair_id
         JOIN annotator AS a ON a.id = s.annotator_id WHERE p.study_id = @study AND a.name = @judge`;
      const rows = db
        .prepare(
          `SELECT s.id, s.pair_id AS pairId, p.qid, p.docid, s.label, s.rationale, s.confidence ${where}
           ORDER BY p.qid, p.best_rank NULLS LAST, p.docid`,
        )
        .all({ study: studyId, judge }) as (Omit<StoredSuggestion, 'votes'> & { id: number })[];
      const votes = db
        .prepare(
          `SELECT v.suggestion_id AS suggestionId, v.vote_index AS voteIndex, v.llm_call_id AS callId, v.label,
             c.raw_output AS rawOutput
           FROM suggestion_vote AS v JOIN llm_call AS c ON c.id = v.llm_call_id
           WHERE v.suggestion_id IN (SELECT s.id ${where}) ORDER BY v.suggestion_id, v.vote_index`,
        )
        .all({ study: studyId, judge }) as (StoredSuggestion['votes'][number] & { suggestionId: number })[];
      const bySuggestion = new Map<number, StoredSuggestion['votes']>();
      for (const { suggestionId, ...vote } of votes) {
        const list = bySuggestion.get(suggestionId);
        if (list === undefined) bySuggestion.set(suggestionId, [vote]);
        else list.push(vote);
      }
      return rows.map(({ id, ...row }) => ({ ...row, votes: bySuggestion.get(id) ?? [] }));
    })();
  }

  /**
   * A page of the pairs to judge in query order, read from the cursor's place on: the queries in row id order (each
   * query's pairs found by the pair index, only they sorted), then the pairs of no query in qid order. Ordering the
   * whole study by the computed key (selectPairs) made every page scan and sort the rest of the study, so a run over
   * all pages grew with the square of its size (a cached re-run: 1.1 s at 10,000 pairs, 4.0 s at 30,000, 20 s at
   * 100,000); this way a page reads the pairs of the queries it touches.
   */
  private pageOfPairs(
    studyId: number,
    options: { after?: PairsToJudgeCursor; limit: number; onlyUnlabelled?: boolean },
  ): (PairToJudge & { queryOrder: number; bestRank: number })[] {
    const after = options.after;
    const rank = `coalesce(p.best_rank, ${lastPlace})`;
    const columns = `p.id, p.qid, p.docid,
      EXISTS (SELECT 1 FROM document AS d WHERE d.study_id = p.study_id AND d.docid = p.docid) AS hasDocument,
      ${rank} AS bestRank`;
    let rows: SelectedPairRow[] = [];
    if (after === undefined || after.queryOrder < lastPlace) {
      // `+q.study_id`: walk the queries by row id (the order wanted), not by the (study, qid) index; the sort is then
      // only of each query's pairs ("temp b-tree for last 2 terms"), and the LIMIT stops the walk.
      rows = this.context.db
        .prepare(
          `SELECT ${columns}, 1 AS hasQuery, q.id AS queryOrder
           FROM query AS q CROSS JOIN pair AS p ON p.study_id = q.study_id AND p.qid = q.qid
           WHERE +q.study_id = @study AND q.id >= @queryOrder
             AND (q.id > @queryOrder OR (${rank}, p.docid) > (@bestRank, @docid)) ${unlabelledCondition(options)}
           ORDER BY q.id, ${rank}, p.docid LIMIT @limit`,
        )
        .all({
          study: studyId,
          limit: options.limit,
          ...(after ?? { queryOrder: -1, bestRank: lastPlace, docid: '' }),
        }) as SelectedPairRow[];
    }
    if (rows.length < options.limit) {
      const inTail = after !== undefined && after.queryOrder === lastPlace;
      const tail = this.context.db
        .prepare(
          `SELECT ${columns}, 0 AS hasQuery, ${lastPlace} AS queryOrder
           FROM pair AS p
           WHERE p.study_id = @study
             AND NOT EXISTS (SELECT 1 FROM query AS q WHERE q.study_id = p.study_id AND q.qid = p.qid)
             ${inTail ? `AND (p.qid, ${rank}, p.docid) > (@qid, @bestRank, @docid)` : ''} ${unlabelledCondition(options)}
           ORDER BY p.qid, ${rank}, p.docid LIMIT @limit`,
        )
        .all({
          study: studyId,
          limit: options.limit - rows.length,
          ...(inTail && { qid: after.qid, bestRank: after.bestRank, docid: after.docid }),
        }) as SelectedPairRow[];
      rows = rows.concat(tail);
    }
    return rows.map(pairOfRow);
  }

  /** The pairs to judge in query order (with each one's sort key), after `after` when given. */
  private selectPairs(
    studyId: number,
    options: { after?: PairsToJudgeCursor; limit?: number; onlyUnlabelled?: boolean },
  ): (PairToJudge & { queryOrder: number; bestRank: number })[] {
    // The Label view's query order (core/labelling/labelQueue.ts): query row id, qid, best rank, docid — missing
    // query ids and ranks last, as one comparable key, so a page can start after the last one's.
    const key = `coalesce(q.id, ${lastPlace}), p.qid, coalesce(p.best_rank, ${lastPlace}), p.docid`;
    const rows = this.context.db
      .prepare(
        `SELECT p.id, p.qid, p.docid, q.id IS NOT NULL AS hasQuery,
           EXISTS (SELECT 1 FROM document AS d WHERE d.study_id = p.study_id AND d.docid = p.docid) AS hasDocument,
           coalesce(q.id, ${lastPlace}) AS queryOrder, coalesce(p.best_rank, ${lastPlace}) AS bestRank
         FROM pair AS p LEFT JOIN query AS q ON q.study_id = p.study_id AND q.qid = p.qid
         WHERE p.study_id = @study ${unlabelledCondition(options)}
         ${options.after !== undefined ? `AND (${key}) > (@queryOrder, @qid, @bestRank, @docid)` : ''}
         ORDER BY ${key}
         ${options.limit !== undefined ? 'LIMIT @limit' : ''}`,
      )
      .all({
        study: studyId,
        ...(options.limit !== undefined && { limit: options.limit }),
        ...options.after,
      }) as SelectedPairRow[];
    return rows.map(pairOfRow);
  }

  /** The queries of `pairs` (each once, in the pairs' order). */
  private queriesOf(studyId: number, pairs: readonly PairToJudge[]): QueryToJudge[] {
    const queries: QueryToJudge[] = [];
    const seen = new Set<string>();
    for (const pair of pairs) {
      if (!pair.hasQuery || seen.has(pair.qid)) continue;
      seen.add(pair.qid);
      queries.push(this.statements.query.get(studyId, pair.qid) as QueryToJudge);
    }
    return queries;
  }

  private insertCall(call: JudgeCallRecord): number {
    const result = this.statements.insertCall.run(judgeCallValues(call));
    return Number(result.lastInsertRowid);
  }

  /** Inside a transaction: replaces the judge's suggestion for the pair; `thisCall` stands for the callIds null. */
  private writeSuggestion(
    suggestion: SuggestionRecord,
    thisCall: number | undefined,
    judgeId?: number,
    group?: readonly (number | null)[],
  ): number {
    const s = this.statements;
    const callOf = suggestionCallOf(thisCall, group);
    const annotatorId = judgeId ?? ensureAnnotatorId(this.context.db, this.context.file, suggestion.judge, 'llm');
    for (const id of s.previousSuggestions.all(suggestion.pairId, annotatorId) as number[]) {
      s.deleteVotes.run(id);
      s.deleteSuggestion.run(id);
    }
    const { id } = s.insertSuggestion.get(
      suggestion.pairId,
      annotatorId,
      callOf(suggestion.callId),
      suggestion.label,
      suggestion.rationale ?? null,
      suggestion.createdAt,
      suggestion.confidence ?? null,
    ) as { id: number };
    for (const vote of suggestion.votes) s.insertVote.run(id, vote.voteIndex, callOf(vote.callId), vote.label);
    return id;
  }
}
