// One annotator's queue: the pair ids of a study in a QueueOrder (types.ts), limited to the pairs assigned to them
// (all pairs when the study assigns none, and for the adjudicator) and, with `unlabelledOnly`, to the pairs they
// have no current label for. One SQL statement per order, sorted by SQLite; a million pairs take about a second.
//
// Every order ends in the query order: query table id (import order of the queries; a pair whose query is not in
// the study's queries after all of them, by qid), then best pool rank (pairs no run ranked last), then docid.
// - confidence: the least confidence among the pair's suggestions first — a suggestion's confidence, 1 when a
//   parsed label has none (the judge did not vote), 0 for output that could not be parsed into a label (the judge
//   could not decide: look first); pairs without suggestions last.
// - disagreement: the number of distinct labels among the pair's current labels (every annotator, LLM judges
//   included) and its parsed suggestions, most first; pairs with fewer than two distinct labels last.
// A judge's suggestions are its latest one per pair (the one the Label view shows): a judge run again replaces
// what it said before, and does not disagree with itself.
import type { SqliteDatabase } from '../store/sqliteDatabase.ts';
import { StoreError } from '../store/studyDatabase.ts';
import type { QueueOrder } from './types.ts';

export const queueOrders: readonly QueueOrder[] = ['query', 'rank', 'confidence', 'disagreement'];

export interface QueueScope {
  studyId: number;
  annotatorId: number;
  /** Only the pairs assigned to the annotator (false: every pair of the study). */
  assignedOnly: boolean;
  /** Only the pairs the annotator has no current label for. */
  unlabelledOnly: boolean;
}

const queryOrder = 'q.id NULLS LAST, p.qid, p.best_rank NULLS LAST, p.docid';

/** `sg` is its judge's latest suggestion for the pair (as LabelSession's `suggestions` statement picks it). */
const latestSuggestion = `NOT EXISTS (
  SELECT 1 FROM suggestion AS later
  WHERE later.pair_id = sg.pair_id AND later.annotator_id = sg.annotator_id
    AND (later.created_at > sg.created_at OR (later.created_at = sg.created_at AND later.id > sg.id)))`;

const orderBy: Record<QueueOrder, { columns: string; orderBy: string }> = {
  query: { columns: '', orderBy: queryOrder },
  rank: { columns: '', orderBy: `p.best_rank NULLS LAST, ${queryOrder}` },
  confidence: {
    columns: `, (SELECT min(CASE WHEN sg.label IS NULL THEN 0 ELSE coalesce(sg.confidence, 1) END)
                 FROM suggestion AS sg WHERE sg.pair_id = p.id AND ${latestSuggestion}) AS confidence`,
    orderBy: `confidence NULLS LAST, ${queryOrder}`,
  },
  disagreement: {
    // Fewer than two distinct labels count as 0, inside the subquery: the ORDER BY names the column only, so
    // SQLite evaluates the subquery once per pair.
    columns: `, (SELECT CASE WHEN count(DISTINCT label) >= 2 THEN count(DISTINCT label) ELSE 0 END FROM (
                   SELECT cj.label FROM current_judgment AS cj WHERE cj.pair_id = p.id
                   UNION ALL
                   SELECT sg.label FROM suggestion AS sg
                   WHERE sg.pair_id = p.id AND sg.label IS NOT NULL AND ${latestSuggestion}
                 )) AS disagreement`,
    orderBy: `disagreement DESC, ${queryOrder}`,
  },
};

/** The SQL of a queue (parameters: study id, then the annotator id where the scope needs it). */
export function queueSql(order: QueueOrder, scope: Pick<QueueScope, 'assignedOnly' | 'unlabelledOnly'>): string {
  const shape = orderBy[order];
  if (shape === undefined) {
    throw new StoreError(`unknown queue order '${order}' (expected one of: ${queueOrders.join(', ')})`);
  }
  return `SELECT p.id ${shape.columns}
    FROM pair AS p
    ${scope.assignedOnly ? 'JOIN assignment AS s ON s.pair_id = p.id AND s.annotator_id = @annotator' : ''}
    LEFT JOIN query AS q ON q.study_id = p.study_id AND q.qid = p.qid
    WHERE p.study_id = @study
    ${
      scope.unlabelledOnly
        ? `AND NOT EXISTS (
             SELECT 1 FROM judgment AS j WHERE j.pair_id = p.id AND j.annotator_id = @annotator
               AND NOT EXISTS (SELECT 1 FROM judgment_retraction AS r WHERE r.judgment_id = j.id))`
        : ''
    }
    ORDER BY ${shape.orderBy}`;
}

/** The pair ids of the queue, in order. */
export function buildLabelQueue(db: SqliteDatabase, order: QueueOrder, scope: QueueScope): Int32Array {
  const sql = queueSql(order, scope);
  const parameters: Record<string, number> = { study: scope.studyId };
  if (scope.assignedOnly || scope.unlabelledOnly) parameters.annotator = scope.annotatorId;
  const statement = db.prepare(sql).raw();
  // Pair ids are SQLite rowids handed out one by one: far below 2^31.
  const ids = new Int32Array(64);
  let queue = ids;
  let length = 0;
  for (const row of statement.iterate(parameters) as IterableIterator<[number]>) {
    if (length === queue.length) {
      const grown = new Int32Array(queue.length * 2);
      grown.set(queue);
      queue = grown;
    }
    queue[length++] = row[0];
  }
  return queue.slice(0, length);
}
