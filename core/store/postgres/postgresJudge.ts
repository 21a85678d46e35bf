// The judge's side of the PostgreSQL record (same tables as SQLite's 004_judgeCalls): the call cache, the record of
// every call, and the suggestions the Label view shows. A call's record and the suggestion it completes are one
// transaction; a judge's suggestion for a pair is replaced under a lock on the pair, so two runs judging the same
// pair at once leave one suggestion, never two.
import {
  type CallRow,
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
import { lockManyInSchema } from './advisoryLocks.ts';
import { ensureAnnotatorId } from './annotators.ts';
import { insertCallRows } from './judge/callRows.ts';
import type { PostgresClient, PostgresContext, TransactionOptions } from './postgresContext.ts';

/** A read of one statement; a read of several sees one snapshot. */
const readOnly: TransactionOptions = { readOnly: true };
const snapshot: TransactionOptions = { isolation: 'repeatable read', readOnly: true };

/** Sorts after every row id and rank (both are integer columns). */
const lastPlace = 2147483647;

/** "Labelled by a person": a current (not retracted) judgment by a human annotator — such pairs left out. */
function unlabelledCondition(options: { onlyUnlabelled?: boolean }): string {
  return options.onlyUnlabelled
    ? `AND NOT EXISTS (
         SELECT 1 FROM judgment AS j JOIN annotator AS a ON a.id = j.annotator_id AND a.kind = 'human'
         WHERE j.pair_id = p.id AND NOT EXISTS (SELECT 1 FROM judgment_retraction AS r WHERE r.judgment_id = j.id))`
    : '';
}

/**
 * A page of the pairs to judge in query order, read from the cursor's place on: the queries in row id order, each
 * one's pairs (found by the pair index) sorted alone, then the pairs of no query in qid order. Ordering the whole
 * study by the computed key (selectPairs) made every page scan and sort the rest of the study: paging through 30,000
 * pairs took 7.0 s against 1.0 s for 10,000.
 */
async function pageOfPairs(
  client: PostgresClient,
  studyId: number,
  options: { after?: PairsToJudgeCursor; limit: number; onlyUnlabelled?: boolean },
): Promise<(PairToJudge & { queryOrder: number; bestRank: number })[]> {
  const after = options.after;
  const rank = `coalesce(p.best_rank, ${lastPlace})`;
  const columns = `p.id, p.qid, p.docid, ${rank} AS "bestRank"`;
  // Whether the corpus has each document of the page, asked per row once the page is chosen (a LIMIT 1 lateral read:
  // as an EXISTS the planner may hash the study's whole corpus for every page).
  const withDocuments = (page: string) =>
    `SELECT page.*, d.found IS NOT NULL AS "hasDocument" FROM (${page}) AS page
     LEFT JOIN LATERAL (SELECT true AS found FROM document AS d WHERE d.study_id = $1 AND d.docid = page.docid LIMIT 1)
       AS d ON true`;
  let rows: SelectedPairRow[] = [];
  if (after === undefined || after.queryOrder < lastPlace) {
    const { queryOrder, bestRank, docid } = after ?? { queryOrder: -1, bestRank: lastPlace, docid: '' };
    // The queries walked by row id, each one's pairs sorted by themselves (a lateral read per query), so the LIMIT
    // stops the walk after the queries the page touches.
    const result = await client.query<SelectedPairRow>(
      withDocuments(`SELECT p.*, true AS "hasQuery", q.id AS "queryOrder"
       FROM (SELECT id, qid FROM query WHERE study_id = $1 AND id >= $2 ORDER BY id) AS q
       CROSS JOIN LATERAL (
         SELECT ${columns} FROM pair AS p
         WHERE p.study_id = $1 AND p.qid = q.qid
           AND (q.id > $2 OR (${rank}, p.docid COLLATE "C") > ($3::integer, $4::text COLLATE "C"))
           ${unlabelledCondition(options)}
         ORDER BY ${rank}, p.docid COLLATE "C") AS p
       LIMIT $5`),
      [studyId, queryOrder, bestRank, docid, options.limit],
    );
    rows = result.rows;
  }
  if (rows.length < options.limit) {
    const inTail = after !== undefined && after.queryOrder === lastPlace;
    const values: unknown[] = [studyId, options.limit - rows.length];
    if (inTail) values.push(after.qid, after.bestRank, after.docid);
    const tail = await client.query<SelectedPairRow>(
      withDocuments(`SELECT ${columns}, false AS "hasQuery", ${lastPlace}::integer AS "queryOrder"
       FROM pair AS p
       WHERE p.study_id = $1
         AND NOT EXISTS (SELECT 1 FROM query AS q WHERE q.study_id = p.study_id AND q.qid = p.qid)
         ${inTail ? `AND (p.qid COLLATE "C", ${rank}, p.docid COLLATE "C") > ($3::text COLLATE "C", $4::integer, $5::text COLLATE "C")` : ''}
         ${unlabelledCondition(options)}
       ORDER BY p.qid COLLATE "C", ${rank}, p.docid COLLATE "C" LIMIT $2`),
      values,
    );
    rows = rows.concat(tail.rows);
  }
  return rows.map(pairOfRow);
}

/** The pairs to judge in query order (with each one's sort key), after `after` when given. */
async function selectPairs(
  client: PostgresClient,
  studyId: number,
  options: { after?: PairsToJudgeCursor; limit?: number; onlyUnlabelled?: boolean },
): Promise<(PairToJudge & { queryOrder: number; bestRank: number })[]> {
  // The Label view's query order (core/labelling/labelQueue.ts), text as SQLite orders it (bytes): query row id,
  // qid, best rank, docid — missing query ids and ranks last, as one comparable key, so a page can start after the
  // last one's.
  const key = `coalesce(q.id, ${lastPlace}), p.qid COLLATE "C", coalesce(p.best_rank, ${lastPlace}), p.docid COLLATE "C"`;
  const values: unknown[] = [studyId];
  let after = '';
  if (options.after !== undefined) {
    const { queryOrder, qid, bestRank, docid } = options.after;
    values.push(queryOrder, qid, bestRank, docid);
    after = `AND (${key}) > ($2::integer, $3::text COLLATE "C", $4::integer, $5::text COLLATE "C")`;
  }
  let limit = '';
  if (options.limit !== undefined) {
    values.push(options.limit);
    limit = `LIMIT $${values.length}`;
  }
  const { rows } = await client.query<SelectedPairRow>(
    `SELECT p.id, p.qid, p.docid, q.id IS NOT NULL AS "hasQuery",
       EXISTS (SELECT 1 FROM document AS d WHERE d.study_id = p.study_id AND d.docid = p.docid) AS "hasDocument",
       coalesce(q.id, ${lastPlace}) AS "queryOrder", coalesce(p.best_rank, ${lastPlace}) AS "bestRank"
     FROM pair AS p LEFT JOIN query AS q ON q.study_id = p.study_id AND q.qid = p.qid
     WHERE p.study_id = $1 ${unlabelledCondition(options)} ${after}
     ORDER BY ${key}
     ${limit}`,
    values,
  );
  return rows.map(pairOfRow);
}

/** The queries of `pairs` (each once, in the pairs' order). */
async function queriesOf(
  client: PostgresClient,
  studyId: number,
  pairs: readonly PairToJudge[],
): Promise<QueryToJudge[]> {
  const qids: string[] = [];
  const seen = new Set<string>();
  for (const pair of pairs) {
    if (!pair.hasQuery || seen.has(pair.qid)) continue;
    seen.add(pair.qid);
    qids.push(pair.qid);
  }
  if (qids.length === 0) return [];
  const found = await client.query<QueryToJudge>(
    'SELECT qid, text, instruction, type, metadata FROM query WHERE study_id = $1 AND qid = ANY($2::text[])',
    [studyId, qids],
  );
  const byQid = new Map(found.rows.map((q) => [q.qid, q]));
  return qids.map((qid) => byQid.get(qid) as QueryToJudge);
}

export class PostgresJudge implements JudgePort {
  protected readonly context: PostgresContext;

  constructor(context: PostgresContext) {
    this.context = context;
  }

  async judgeAnnotator(name: string): Promise<number> {
    const id = await this.context.transaction(async (client) => {
      const annotator = await ensureAnnotatorId(client, this.context.location, name, 'llm');
      await this.context.notify(client, { what: 'judge' });
      return annotator;
    });
    this.context.changed({ what: 'judge' });
    return id;
  }

  async pairsToJudge(studyId: number, options: { limit?: number; onlyUnlabelled?: boolean }): Promise<PairsToJudge> {
    return this.context.transaction(async (client): Promise<PairsToJudge> => {
      const pairs = (await selectPairs(client, studyId, options)).map(withoutSortKey);
      return { pairs, queries: await queriesOf(client, studyId, pairs) };
    }, snapshot);
  }

  async pairsToJudgePage(
    studyId: number,
    options: { after?: PairsToJudgeCursor; limit: number; onlyUnlabelled?: boolean },
  ): Promise<PairsToJudgePage> {
    return this.context.transaction(async (client): Promise<PairsToJudgePage> => {
      const rows = await pageOfPairs(client, studyId, options);
      const pairs = rows.map(withoutSortKey);
      const last = rows[rows.length - 1];
      const page: PairsToJudgePage = { pairs, queries: await queriesOf(client, studyId, pairs) };
      if (last !== undefined && rows.length === options.limit) {
        page.next = { queryOrder: last.queryOrder, qid: last.qid, bestRank: last.bestRank, docid: last.docid };
      }
      return page;
    }, snapshot);
  }

  async countPairsToJudge(studyId: number, options: { onlyUnlabelled?: boolean }): Promise<number> {
    return this.context.transaction(async (client) => {
      const { rows } = await client.query<{ count: number }>(
        `SELECT count(*)::integer AS count FROM pair AS p WHERE p.study_id = $1 ${unlabelledCondition(options)}`,
        [studyId],
      );
      return rows[0]!.count;
    }, readOnly);
  }

  async documentsToJudge(studyId: number, docids: readonly string[]): Promise<Map<string, DocumentToJudge>> {
    if (docids.length === 0) return new Map();
    const rows = await this.context.transaction(async (client) => {
      const result = await client.query<DocumentToJudge & { docid: string }>(
        'SELECT docid, title, body, format, metadata FROM document WHERE study_id = $1 AND docid = ANY($2::text[])',
        [studyId, docids],
      );
      return result.rows;
    }, readOnly);
    return new Map(rows.map(({ docid, ...document }) => [docid, document]));
  }

  async documentToJudge(studyId: number, docid: string): Promise<DocumentToJudge | undefined> {
    return this.context.transaction(async (client) => {
      const { rows } = await client.query<DocumentToJudge>(
        'SELECT title, body, format, metadata FROM document WHERE study_id = $1 AND docid = $2',
        [studyId, docid],
      );
      return rows[0];
    }, readOnly);
  }

  async cachedCall(cacheKey: string): Promise<CachedCall | undefined> {
    return this.context.transaction(async (client) => {
      // The WHERE repeats the llm_call_cache index's own, so the lookup is a search of that index.
      const { rows } = await client.query<CachedCall>(
        `SELECT id, raw_output AS "rawOutput", input_tokens AS "inputTokens", output_tokens AS "outputTokens"
         FROM llm_call WHERE cache_key = $1 AND (error_kind IS NULL OR error_kind = 'parse') ORDER BY id LIMIT 1`,
        [cacheKey],
      );
      return rows[0];
    }, readOnly);
  }

  async cachedCalls(cacheKeys: readonly string[]): Promise<Map<string, CachedCall>> {
    if (cacheKeys.length === 0) return new Map();
    const rows = await this.context.transaction(async (client) => {
      // The first answered call of each key, as cachedCall finds it.
      const result = await client.query<CachedCall & { cacheKey: string }>(
        `SELECT DISTINCT ON (cache_key) cache_key AS "cacheKey", id, raw_output AS "rawOutput",
           input_tokens AS "inputTokens", output_tokens AS "outputTokens"
         FROM llm_call WHERE cache_key = ANY($1::text[]) AND (error_kind IS NULL OR error_kind = 'parse')
         ORDER BY cache_key, id`,
        [cacheKeys],
      );
      return result.rows;
    }, readOnly);
    return new Map(rows.map(({ cacheKey, ...call }) => [cacheKey, call]));
  }

  async currentSuggestionVotes(
    judge: string,
    pairIds: readonly number[],
  ): Promise<Map<number, StoredSuggestionVote[]>> {
    if (pairIds.length === 0) return new Map();
    const rows = await this.context.transaction(async (client) => {
      const result = await client.query<StoredSuggestionVote & { pairId: number }>(
        `SELECT s.pair_id AS "pairId", v.vote_index AS "voteIndex", v.llm_call_id AS "callId", v.label
         FROM suggestion AS s JOIN suggestion_vote AS v ON v.suggestion_id = s.id
         WHERE s.pair_id = ANY($1::integer[]) AND s.annotator_id = (SELECT id FROM annotator WHERE name = $2)
         ORDER BY s.pair_id, v.vote_index`,
        [pairIds, judge],
      );
      return result.rows;
    }, readOnly);
    return votesByPair(rows);
  }

  async recordCalls(calls: readonly CallToRecord[]): Promise<(number | null)[]> {
    if (calls.length === 0) return [];
    const ids = await this.context.transaction(async (client) => {
      // The judges' names are checked first: a person's name writes nothing, not even the calls.
      const annotators = new Map<string, number>();
      for (const { suggestion } of calls) {
        if (suggestion === undefined || annotators.has(suggestion.judge)) continue;
        annotators.set(
          suggestion.judge,
          await ensureAnnotatorId(client, this.context.location, suggestion.judge, 'llm'),
        );
      }
      // The group's calls in one statement (a round trip per row made PostgreSQL's record the slow part of a run),
      // then its suggestions in a few, each seeing the ids of its own and earlier entries' calls, as one at a time did.
      const callIds = await insertCallRows(
        client,
        calls.flatMap(({ call }) => (call === undefined ? [] : [call])),
      );
      let next = 0;
      const written = calls.map(({ call }) => (call === undefined ? null : callIds[next++]!));
      await this.writeSuggestions(
        client,
        calls.flatMap(({ suggestion }, i) =>
          suggestion === undefined
            ? []
            : [
                {
                  suggestion,
                  thisCall: written[i] ?? undefined,
                  judgeId: annotators.get(suggestion.judge)!,
                  group: written.slice(0, i + 1),
                },
              ],
        ),
      );
      await this.context.notify(client, { what: 'judge' });
      return written;
    });
    this.context.changed({ what: 'judge' });
    return ids;
  }

  async recordCall(call: JudgeCallRecord, suggestion?: SuggestionRecord): Promise<number> {
    const id = await this.context.transaction(async (client) => {
      // The judge's name is checked first: a person's name writes nothing, not even the call.
      const annotatorId =
        suggestion === undefined
          ? undefined
          : await ensureAnnotatorId(client, this.context.location, suggestion.judge, 'llm');
      const [callId] = await insertCallRows(client, [call]);
      if (suggestion !== undefined) await this.writeSuggestion(client, suggestion, callId, annotatorId);
      await this.context.notify(client, { what: 'judge' });
      return callId!;
    });
    this.context.changed({ what: 'judge' });
    return id;
  }

  async replaceSuggestion(suggestion: SuggestionRecord): Promise<number> {
    const id = await this.context.transaction(async (client) => {
      const suggestionId = await this.writeSuggestion(client, suggestion, undefined);
      await this.context.notify(client, { what: 'judge' });
      return suggestionId;
    });
    this.context.changed({ what: 'judge' });
    return id;
  }

  async callTotals(studyId: number, judge?: string): Promise<JudgeCallTotals> {
    return this.context.transaction(async (client) => {
      const { rows } = await client.query<JudgeCallTotals>(
        `SELECT count(*)::integer AS calls,
           count(*) FILTER (WHERE error_kind IS NULL OR error_kind = 'parse')::integer AS answered,
           count(*) FILTER (WHERE error IS NOT NULL)::integer AS failed,
           coalesce(sum(input_tokens), 0)::float8 AS "inputTokens",
           coalesce(sum(output_tokens), 0)::float8 AS "outputTokens",
           coalesce(sum(cost), 0)::float8 AS cost, count(cost)::integer AS "pricedCalls"
         FROM llm_call WHERE study_id = $1 AND ($2::text IS NULL OR judge = $2::text)`,
        [studyId, judge ?? null],
      );
      return rows[0] as JudgeCallTotals;
    }, readOnly);
  }

  async calls(studyId: number, judge?: string): Promise<RecordedJudgeCall[]> {
    const rows = await this.context.transaction(async (client) => {
      const result = await client.query<CallRow>(
        `SELECT c.*, p.qid, p.docid FROM llm_call AS c LEFT JOIN pair AS p ON p.id = c.pair_id
         WHERE c.study_id = $1 AND ($2::text IS NULL OR c.judge = $2::text) ORDER BY c.id`,
        [studyId, judge ?? null],
      );
      return result.rows;
    }, readOnly);
    return rows.map(recordedJudgeCall);
  }

  async suggestionConfidences(studyId: number, judge: string): Promise<SuggestionConfidence[]> {
    return this.context.transaction(async (client) => {
      const result = await client.query<SuggestionConfidence>(
        `SELECT p.qid, p.docid, s.label, s.confidence
         FROM suggestion AS s JOIN pair AS p ON p.id = s.pair_id JOIN annotator AS a ON a.id = s.annotator_id
         WHERE p.study_id = $1 AND a.name = $2 ORDER BY p.qid COLLATE "C", p.docid COLLATE "C"`,
        [studyId, judge],
      );
      return result.rows;
    }, readOnly);
  }

  async suggestions(studyId: number, judge: string): Promise<StoredSuggestion[]> {
    // One statement (one snapshot): each suggestion with its votes, in query order.
    const rows = await this.context.transaction(async (client) => {
      const result = await client.query<StoredSuggestion>(
        `SELECT s.pair_id AS "pairId", p.qid, p.docid, s.label, s.rationale, s.confidence,
           coalesce((
             SELECT json_agg(json_build_object('voteIndex', v.vote_index, 'callId', v.llm_call_id, 'label', v.label,
                 'rawOutput', c.raw_output) ORDER BY v.vote_index)
             FROM suggestion_vote AS v JOIN llm_call AS c ON c.id = v.llm_call_id WHERE v.suggestion_id = s.id),
             '[]'::json) AS votes
         FROM suggestion AS s JOIN pair AS p ON p.id = s.pair_id JOIN annotator AS a ON a.id = s.annotator_id
         WHERE p.study_id = $1 AND a.name = $2
         ORDER BY p.qid COLLATE "C", p.best_rank NULLS LAST, p.docid COLLATE "C"`,
        [studyId, judge],
      );
      return result.rows;
    }, readOnly);
    return rows;
  }

  /** Inside a transaction: replaces the judge's suggestion for the pair; `thisCall` stands for the callIds null. */
  private async writeSuggestion(
    client: PostgresClient,
    suggestion: SuggestionRecord,
    thisCall: number | undefined,
    judgeId?: number,
  ): Promise<number> {
    const [id] = await this.writeSuggestions(client, [
      { suggestion, thisCall, ...(judgeId !== undefined && { judgeId }) },
    ]);
    return id!;
  }

  /**
   * Inside a transaction: replaces the judge's suggestion of each pair, in a few statements whatever their number
   * (a round trip per statement per suggestion made the record the slow part of a run); their ids, in order. A group
   * naming the same pair twice is written one suggestion after another, the later replacing the earlier, as it says.
   */
  private async writeSuggestions(client: PostgresClient, items: readonly SuggestionToWrite[]): Promise<number[]> {
    const rows: SuggestionRow[] = [];
    for (const { suggestion, thisCall, judgeId, group } of items) {
      const callOf = suggestionCallOf(thisCall, group);
      const shownCall = callOf(suggestion.callId);
      const votes = suggestion.votes.map((vote) => ({ ...vote, callId: callOf(vote.callId) }));
      const annotatorId = judgeId ?? (await ensureAnnotatorId(client, this.context.location, suggestion.judge, 'llm'));
      rows.push({ suggestion, shownCall, votes, annotatorId });
    }
    if (new Set(rows.map((r) => `${r.suggestion.pairId}/${r.annotatorId}`)).size < rows.length) {
      const ids: number[] = [];
      for (const row of rows) ids.push(...(await replaceSuggestionRows(client, [row])));
      return ids;
    }
    return replaceSuggestionRows(client, rows);
  }
}

/** A suggestion to write: `thisCall` stands for its callIds null, `group` for the negative ones (recordCalls). */
interface SuggestionToWrite {
  suggestion: SuggestionRecord;
  thisCall: number | undefined;
  judgeId?: number;
  group?: readonly (number | null)[];
}

/** A suggestion with its call ids resolved and its judge's annotator id. */
interface SuggestionRow {
  suggestion: SuggestionRecord;
  shownCall: number;
  votes: { voteIndex: number; callId: number; label: number | null }[];
  annotatorId: number;
}

/** Each row's id drawn with its place (WITH ORDINALITY), so the ids come back in the rows' order. */
const insertSuggestionsSql = `WITH new_suggestion AS MATERIALIZED (
  SELECT nextval(pg_get_serial_sequence('suggestion', 'id'))::integer AS id, u.*
  FROM unnest($1::integer[], $2::integer[], $3::integer[], $4::integer[], $5::text[], $6::text[], $7::float8[])
    WITH ORDINALITY AS u (pair_id, annotator_id, llm_call_id, label, rationale, created_at, confidence, place)
), inserted AS (
  INSERT INTO suggestion (id, pair_id, annotator_id, llm_call_id, label, rationale, created_at, confidence)
  SELECT id, pair_id, annotator_id, llm_call_id, label, rationale, created_at, confidence FROM new_suggestion
)
SELECT id FROM new_suggestion ORDER BY place`;

/**
 * Inside a transaction: the judges' suggestions of the rows' pairs (each pair and judge once) replaced by the rows,
 * votes included, under the pairs' locks; the calls behind what they said before stay on record.
 */
async function replaceSuggestionRows(client: PostgresClient, rows: readonly SuggestionRow[]): Promise<number[]> {
  if (rows.length === 0) return [];
  await lockManyInSchema(
    client,
    'suggestion',
    rows.map((r) => r.suggestion.pairId),
  );
  const pairIds = rows.map((r) => r.suggestion.pairId);
  const annotatorIds = rows.map((r) => r.annotatorId);
  await client.query(
    `DELETE FROM suggestion_vote WHERE suggestion_id IN (
       SELECT s.id FROM suggestion AS s
       JOIN unnest($1::integer[], $2::integer[]) AS k (pair_id, annotator_id)
         ON s.pair_id = k.pair_id AND s.annotator_id = k.annotator_id)`,
    [pairIds, annotatorIds],
  );
  await client.query(
    `DELETE FROM suggestion AS s USING unnest($1::integer[], $2::integer[]) AS k (pair_id, annotator_id)
     WHERE s.pair_id = k.pair_id AND s.annotator_id = k.annotator_id`,
    [pairIds, annotatorIds],
  );
  const { rows: inserted } = await client.query<{ id: number }>(insertSuggestionsSql, [
    pairIds,
    annotatorIds,
    rows.map((r) => r.shownCall),
    rows.map((r) => r.suggestion.label),
    rows.map((r) => r.suggestion.rationale ?? null),
    rows.map((r) => r.suggestion.createdAt),
    rows.map((r) => r.suggestion.confidence ?? null),
  ]);
  const ids = inserted.map((row) => row.id);
  const votes = rows.flatMap((r, i) => r.votes.map((v) => ({ ...v, suggestionId: ids[i]! })));
  if (votes.length > 0) {
    await client.query(
      `INSERT INTO suggestion_vote (suggestion_id, vote_index, llm_call_id, label)
       SELECT * FROM unnest($1::integer[], $2::integer[], $3::integer[], $4::integer[])`,
      [
        votes.map((v) => v.suggestionId),
        votes.map((v) => v.voteIndex),
        votes.map((v) => v.callId),
        votes.map((v) => v.label),
      ],
    );
  }
  return ids;
}
