// The SQL of the exports port over PostgreSQL (postgresExports.ts): SQLite's statements (core/store/sqlite/
// sqliteExports.ts, studyDatabase.ts's currentLabels) in PostgreSQL's dialect, rows in the same bytewise order.
import { judgeSuggestionsWithoutJudgmentPg } from '../agreement/agreementSql.ts';

/** An annotator row's (alias `a`) label kind, declared or from its coarse kind (core/store/labelKind.ts). */
export function labelKindPg(alias = 'a'): string {
  return `coalesce(${alias}.label_kind, CASE ${alias}.kind WHEN 'llm' THEN 'judge' ELSE 'person' END)`;
}

/** $1: the study's id. */
export const currentLabelsSql = `
  SELECT p.qid, p.docid, a.name AS annotator, j.label
  FROM current_judgment AS j JOIN pair AS p ON p.id = j.pair_id JOIN annotator AS a ON a.id = j.annotator_id
  WHERE p.study_id = $1 ORDER BY p.qid COLLATE "C", p.docid COLLATE "C", a.name COLLATE "C"`;

/** $1: the study's id. Ordered as SQLite's `ORDER BY 1, 2, 3, 6`: qid, docid, annotator, time. */
export const labelFileSql = `
  SELECT * FROM (
    SELECT p.qid, p.docid, a.name AS annotator, ${labelKindPg()} AS kind, j.label, j.created_at, j.source,
      j.rationale, j.shown_label, j.id AS judgment_id, NULL::integer AS call_id
    FROM current_judgment AS j JOIN pair AS p ON p.id = j.pair_id JOIN annotator AS a ON a.id = j.annotator_id
    WHERE p.study_id = $1
    UNION ALL
    SELECT p.qid, p.docid, a.name, ${labelKindPg()}, sg.label, sg.created_at, 'suggestion', sg.rationale, NULL,
      NULL, sg.llm_call_id
    FROM (${judgeSuggestionsWithoutJudgmentPg}) AS sg
    JOIN pair AS p ON p.id = sg.pair_id JOIN annotator AS a ON a.id = sg.annotator_id
    WHERE p.study_id = $1
  ) AS rows
  ORDER BY qid COLLATE "C", docid COLLATE "C", annotator COLLATE "C", created_at COLLATE "C"`;

/** $1: the study's id. */
export const historySql = `
  SELECT j.id, p.qid, p.docid, a.name AS annotator, ${labelKindPg()} AS kind, j.label, j.created_at, j.source,
    j.rationale, j.shown_label, EXISTS (SELECT 1 FROM current_judgment AS c WHERE c.id = j.id) AS current
  FROM judgment AS j
  JOIN pair AS p ON p.id = j.pair_id JOIN annotator AS a ON a.id = j.annotator_id
  WHERE p.study_id = $1 AND NOT EXISTS (SELECT 1 FROM judgment_retraction AS r WHERE r.judgment_id = j.id)
  ORDER BY p.qid COLLATE "C", p.docid COLLATE "C", a.name COLLATE "C", j.created_at COLLATE "C", j.id`;

/** $1: the study's id. The condition rows of its judgments, by judgment then condition. */
export const conditionsSql = `
  SELECT c.judgment_id, c.condition, c.satisfied FROM condition_judgment AS c
  JOIN judgment AS j ON j.id = c.judgment_id JOIN pair AS p ON p.id = j.pair_id
  WHERE p.study_id = $1 ORDER BY c.judgment_id, c.condition`;

/** $1: the study's id. The aspect rows of its judgments, by judgment then aspect (bytewise). */
export const aspectsSql = `
  SELECT x.judgment_id, x.aspect, x.answer FROM aspect_judgment AS x
  JOIN judgment AS j ON j.id = x.judgment_id JOIN pair AS p ON p.id = j.pair_id
  WHERE p.study_id = $1 ORDER BY x.judgment_id, x.aspect COLLATE "C"`;

/** $1: call ids. */
export const parsedConditionsSql = 'SELECT id, parsed_conditions FROM llm_call WHERE id = ANY ($1::integer[])';
