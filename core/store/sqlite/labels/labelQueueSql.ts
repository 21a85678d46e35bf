// The SQL of a Label view's queue (core/labelling/labelQueue.ts says what each order is): one statement per order
// and scope, sorted by SQLite; a million pairs take about a second.
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
import type { QueueOrder } from '../../../labelling/types.ts';
import { StoreError } from '../../studyDatabase.ts';

const queryOrder = 'q.id NULLS LAST, p.qid, p.best_rank NULLS LAST, p.docid';

/** `sg` is its judge's latest suggestion for the pair (as the `suggestions` statement of labelStatements picks it). */
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

/** The SQL of a queue (named parameters: @study, and @annotator where the scope needs it). */
export function queueSql(order: QueueOrder, scope: { assignedOnly: boolean; unlabelledOnly: boolean }): string {
  const shape = Object.hasOwn(orderBy, order) ? orderBy[order] : undefined;
  if (shape === undefined) {
    throw new StoreError(`unknown queue order '${order}' (expected one of: ${Object.keys(orderBy).join(', ')})`);
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

/** The SQL that counts an annotator's progress: pairs in scope, and those with a current label of theirs. */
export function progressSql(assignedOnly: boolean): string {
  const labelled = `EXISTS (SELECT 1 FROM judgment AS j WHERE j.pair_id = p.id AND j.annotator_id = @annotator
                     AND NOT EXISTS (SELECT 1 FROM judgment_retraction AS r WHERE r.judgment_id = j.id))`;
  const from = assignedOnly
    ? 'FROM assignment AS s JOIN pair AS p ON p.id = s.pair_id WHERE s.annotator_id = @annotator AND p.study_id = @study'
    : 'FROM pair AS p WHERE p.study_id = @study';
  return `SELECT count(*) AS assigned, coalesce(sum(${labelled}), 0) AS judged ${from}`;
}

/**
 * The SQL that assigns a study's unassigned pairs (parameters: study id, time) to the annotators `ids`, `k` each.
 * Ids and counts are integers (from the annotator table and the checks of core/labelling/assignment.ts), written into
 * the SQL as numbers: the annotator of a slot is a CASE, which SQLite evaluates faster than a join per row. Pairs
 * are read in rowid order (`+p.study_id` keeps the planner off the (study, qid, docid) index): nothing is sorted.
 */
export function assignmentSql(ids: readonly number[], k: number): string {
  const n = ids.length;
  if (!ids.every(Number.isInteger) || !Number.isInteger(k) || k < 1 || k > n) {
    throw new StoreError(`expected 1 to ${n} annotators per pair, found ${k}`);
  }
  const annotatorOf = `CASE (u.r * ${k} + s.j) % ${n} ${ids.map((id, i) => `WHEN ${i} THEN ${id}`).join(' ')} END`;
  const slots = Array.from({ length: k }, (_, j) => `(${j})`).join(', ');
  return `WITH unassigned AS (
      SELECT p.id AS pair_id, row_number() OVER (ORDER BY p.id) - 1 AS r
      FROM pair AS p
      WHERE +p.study_id = ? AND NOT EXISTS (SELECT 1 FROM assignment AS a WHERE a.pair_id = p.id)
    ),
    slots (j) AS (VALUES ${slots})
    INSERT INTO assignment (pair_id, annotator_id, assigned_at)
    SELECT u.pair_id, ${annotatorOf}, ? FROM unassigned AS u CROSS JOIN slots AS s`;
}
