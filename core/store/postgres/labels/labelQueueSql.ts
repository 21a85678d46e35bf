// The SQL of a Label view's queue, progress and assignment in PostgreSQL: core/store/sqlite/labels/labelQueueSql.ts
// says what each order is; this is the same SQL in PostgreSQL's words, answering the same ids in the same order.
// Text keys are compared as bytes (the columns are COLLATE "C", and the ORDER BY says so too), so ties between
// qids and docids break as SQLite's BINARY collation breaks them; NULLS LAST is written wherever SQLite's NULLs
// (smallest) would sort differently from PostgreSQL's (largest).
import type { QueueOrder } from '../../../labelling/types.ts';
import { StoreError } from '../../studyDatabase.ts';

const queryOrder = 'q.id NULLS LAST, p.qid COLLATE "C", p.best_rank NULLS LAST, p.docid COLLATE "C"';

/** `sg` is its judge's latest suggestion for the pair (as the pair view's `suggestions` statement picks it). */
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
    columns: `, (SELECT CASE WHEN count(DISTINCT label) >= 2 THEN count(DISTINCT label) ELSE 0 END FROM (
                   SELECT cj.label FROM current_judgment AS cj WHERE cj.pair_id = p.id
                   UNION ALL
                   SELECT sg.label FROM suggestion AS sg
                   WHERE sg.pair_id = p.id AND sg.label IS NOT NULL AND ${latestSuggestion}
                 ) AS labels) AS disagreement`,
    orderBy: `disagreement DESC, ${queryOrder}`,
  },
};

/** A judgment `j` that is not retracted. */
export const notRetracted = 'NOT EXISTS (SELECT 1 FROM judgment_retraction AS r WHERE r.judgment_id = j.id)';

/** The SQL of a queue: parameters $1 the study, and $2 the annotator when the scope names one. */
export function queueSql(order: QueueOrder, scope: { assignedOnly: boolean; unlabelledOnly: boolean }): string {
  const shape = Object.hasOwn(orderBy, order) ? orderBy[order] : undefined;
  if (shape === undefined) {
    throw new StoreError(`unknown queue order '${order}' (expected one of: ${Object.keys(orderBy).join(', ')})`);
  }
  return `SELECT p.id ${shape.columns}
    FROM pair AS p
    ${scope.assignedOnly ? 'JOIN assignment AS s ON s.pair_id = p.id AND s.annotator_id = $2' : ''}
    LEFT JOIN query AS q ON q.study_id = p.study_id AND q.qid = p.qid
    WHERE p.study_id = $1
    ${
      scope.unlabelledOnly
        ? `AND NOT EXISTS (SELECT 1 FROM judgment AS j WHERE j.pair_id = p.id AND j.annotator_id = $2 AND ${notRetracted})`
        : ''
    }
    ORDER BY ${shape.orderBy}`;
}

/** The SQL that counts an annotator's progress ($1 study, $2 annotator): pairs in scope, those they labelled. */
export function progressSql(assignedOnly: boolean): string {
  const labelled = `EXISTS (SELECT 1 FROM judgment AS j WHERE j.pair_id = p.id AND j.annotator_id = $2 AND ${notRetracted})`;
  const from = assignedOnly
    ? 'FROM assignment AS s JOIN pair AS p ON p.id = s.pair_id WHERE s.annotator_id = $2 AND p.study_id = $1'
    : 'FROM pair AS p WHERE p.study_id = $1';
  return `SELECT count(*)::integer AS assigned, (count(*) FILTER (WHERE ${labelled}))::integer AS judged ${from}`;
}

/**
 * The SQL that assigns a study's unassigned pairs, round-robin by pair id ($1 study, $2 time, $3 the annotator ids
 * in the study's order, $4 overlap k): the r-th unassigned pair (from 0) goes to annotators (r·k + j) mod n,
 * j = 0…k-1. The caller holds the study's advisory lock, so that two sessions assigning at once never both see a pair
 * as unassigned.
 */
export const assignmentSql = `WITH unassigned AS (
    SELECT p.id AS pair_id, row_number() OVER (ORDER BY p.id) - 1 AS r
    FROM pair AS p
    WHERE p.study_id = $1 AND NOT EXISTS (SELECT 1 FROM assignment AS a WHERE a.pair_id = p.id)
  )
  INSERT INTO assignment (pair_id, annotator_id, assigned_at)
  SELECT u.pair_id, ($3::integer[])[((u.r * $4::integer + j) % cardinality($3::integer[])) + 1], $2
  FROM unassigned AS u CROSS JOIN generate_series(0, $4::integer - 1) AS j`;
