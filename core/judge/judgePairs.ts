// The pairs a judge run asks about, in the Label view's query order, and those it cannot ask about (with why):
// shared by the online run (judgeStudy.ts) and the Batch API run (batch/).
import type { StudyModel } from '../dsl/model.ts';
import { type QueryFields, queryConditions } from '../labelling/queryConditions.ts';
import type { PairToJudge, QueryToJudge } from '../store/port/judgePort.ts';
import type { StudyStore } from '../store/studyStore.ts';

/** What a prompt says of a pair's query. */
export interface QueryValues {
  text: string;
  instruction?: string;
  conditions: string[];
}

/** A pair to judge; pairs of one query share its QueryValues. */
export interface JudgePair {
  pairId: number;
  qid: string;
  docid: string;
  query: QueryValues;
}

export interface SkippedPair {
  qid: string;
  docid: string;
  reason: string;
}

export interface PairSelection {
  limit?: number;
  onlyUnlabelled?: boolean;
  /** Only these pairs (ids), when given: a retry of some pairs' votes. */
  pairIds?: ReadonlySet<number>;
}

/** The pairs to judge, in query order, and those that cannot be judged (with why). */
export async function selectJudgePairs(
  store: StudyStore,
  study: StudyModel,
  studyId: number,
  options: PairSelection,
  output: 'label' | 'conditions',
): Promise<{ pairs: JudgePair[]; skipped: SkippedPair[] }> {
  const selected = await store.judge.pairsToJudge(studyId, {
    // A pair filter applies after the store's selection: the limit then counts the filtered pairs (below).
    ...(options.limit !== undefined && options.pairIds === undefined && { limit: options.limit }),
    ...(options.onlyUnlabelled !== undefined && { onlyUnlabelled: options.onlyUnlabelled }),
  });
  const fieldsOf = new Map<string, QueryFields>(selected.queries.map((q) => [q.qid, q]));
  const queries = new Map<string, QueryValues>();
  const pairs: JudgePair[] = [];
  const skipped: SkippedPair[] = [];
  for (const row of selected.pairs) {
    if (options.pairIds !== undefined) {
      if (!options.pairIds.has(row.pairId)) continue;
      if (options.limit !== undefined && pairs.length + skipped.length >= options.limit) break;
    }
    const judged = judgePairOf(row, study, fieldsOf, queries, output);
    if ('reason' in judged) skipped.push(judged);
    else pairs.push(judged);
  }
  fieldsOf.clear();
  return { pairs, skipped };
}

/**
 * A selected pair as the run asks about it, or why it cannot (no query, no document, no conditions to check): the
 * one place those reasons are given, for a whole selection (selectJudgePairs) and a page (judgePairPages.ts).
 * `queries` caches each query's values so the pairs of one query share them.
 */
export function judgePairOf(
  row: PairToJudge,
  study: StudyModel,
  fieldsOf: ReadonlyMap<string, QueryToJudge>,
  queries: Map<string, QueryValues>,
  output: 'label' | 'conditions',
): JudgePair | SkippedPair {
  if (!row.hasQuery) return { qid: row.qid, docid: row.docid, reason: `the study has no query '${row.qid}'` };
  if (!row.hasDocument) return { qid: row.qid, docid: row.docid, reason: `the corpus has no document '${row.docid}'` };
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
    return { qid: row.qid, docid: row.docid, reason: `query '${row.qid}' has no conditions to check` };
  }
  return { pairId: row.pairId, qid: row.qid, docid: row.docid, query };
}
