// The review adapter's statements in PostgreSQL (core/store/sqlite/reviews/reviewStatements.ts says the same in
// SQLite's dialect). Reads that SQLite makes in several statements of one transaction are one statement here (one
// snapshot, one round trip): an item's versions and verdicts come along as JSON arrays. Text keys order as SQLite's
// BINARY collation does (COLLATE "C").

const itemColumns = 'i.id, i.item_id, i.parent_id, i.type, i.model, i.metadata';

const versionsOf = (item: string) => `coalesce((
  SELECT json_agg(json_build_object('id', v.id, 'text', v.text, 'author', v.author, 'at', v.created_at,
      'basedOn', v.based_on) ORDER BY v.id)
  FROM review_item_version AS v WHERE v.item_id = ${item}), '[]'::json)`;

const verdictsOf = (item: string) => `coalesce((
  SELECT json_agg(json_build_object('id', d.id, 'annotator', a.name, 'verdict', d.verdict, 'rubric', d.rubric,
      'reason', d.rationale, 'versionId', d.version_id, 'at', d.created_at) ORDER BY d.id)
  FROM review_verdict AS d JOIN review_item_version AS v ON v.id = d.version_id
  JOIN annotator AS a ON a.id = d.annotator_id WHERE v.item_id = ${item}), '[]'::json)`;

export const reviewSql = {
  /** $1 study: each item's row id and latest generated text. */
  latestTexts: `SELECT i.id, i.item_id, (
      SELECT v.text FROM review_item_version AS v WHERE v.item_id = i.id AND v.based_on IS NULL
      ORDER BY v.id DESC LIMIT 1) AS text
    FROM review_item AS i WHERE i.study_id = $1`,
  /** $1 study, $2… the new items' ids, parents, types, models, metadata (arrays, in import order). */
  insertItems: `INSERT INTO review_item (study_id, item_id, parent_id, type, model, metadata)
    SELECT $1, n.item_id, n.parent_id, n.type, n.model, n.metadata
    FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) WITH ORDINALITY
      AS n (item_id, parent_id, type, model, metadata, i)
    ORDER BY n.i
    RETURNING id, item_id`,
  /** $1 items, $2 texts, $3 authors (arrays, in order), $4 time. */
  insertGeneratedVersions: `INSERT INTO review_item_version (item_id, text, author, created_at, based_on)
    SELECT g.item_id, g.text, g.author, $4, NULL
    FROM unnest($1::integer[], $2::text[], $3::text[]) WITH ORDINALITY AS g (item_id, text, author, n)
    ORDER BY g.n`,
  items: `SELECT ${itemColumns} FROM review_item AS i WHERE i.study_id = $1 ORDER BY i.id`,
  /** $1 study. */
  records: `SELECT ${itemColumns}, ${versionsOf('i.id')} AS versions, ${verdictsOf('i.id')} AS verdicts
    FROM review_item AS i WHERE i.study_id = $1 ORDER BY i.id`,
  /** $1 item, $2 study, $3 with its table set. */
  item: `SELECT ${itemColumns},
      (SELECT q.text FROM query AS q WHERE q.study_id = i.study_id AND q.qid = i.parent_id) AS parent_text,
      ${versionsOf('i.id')} AS versions, ${verdictsOf('i.id')} AS verdicts,
      CASE WHEN $3::boolean THEN coalesce((
        SELECT json_agg(json_build_object('id', t.docid, 'label', t.label, 'title', d.title, 'text', d.body)
          ORDER BY t.docid COLLATE "C")
        FROM review_table AS t LEFT JOIN document AS d ON d.study_id = i.study_id AND d.docid = t.docid
        WHERE t.item_id = i.id), '[]'::json) END AS tables
    FROM review_item AS i WHERE i.id = $1 AND i.study_id = $2`,
  /** $1 study, $2 reviewer: items, and those whose current text (latest generated version or later) they judged. */
  progress: `SELECT (SELECT count(*)::integer FROM review_item WHERE study_id = $1) AS items, (
      SELECT count(DISTINCT v.item_id)::integer FROM review_verdict AS d
      JOIN review_item_version AS v ON v.id = d.version_id JOIN review_item AS i ON i.id = v.item_id
      JOIN annotator AS a ON a.id = d.annotator_id
      WHERE i.study_id = $1 AND a.name = $2 AND v.id >= (
        SELECT max(g.id) FROM review_item_version AS g WHERE g.item_id = v.item_id AND g.based_on IS NULL)
    ) AS reviewed`,
  /** $1 version, $2 study: the version's item (row id and item id) and that item's latest generated version. */
  versionCheck: `SELECT v.item_id AS item, i.item_id, (
      SELECT max(g.id) FROM review_item_version AS g WHERE g.item_id = v.item_id AND g.based_on IS NULL) AS root
    FROM review_item_version AS v JOIN review_item AS i ON i.id = v.item_id WHERE v.id = $1 AND i.study_id = $2`,
  /** $1 critic, $2 study. */
  criticItems: `SELECT ${itemColumns}, q.text AS parent_text, v.id AS version_id, v.text, EXISTS (
      SELECT 1 FROM review_verdict AS d JOIN annotator AS a ON a.id = d.annotator_id
      WHERE d.version_id = v.id AND a.name = $1) AS rated
    FROM review_item AS i LEFT JOIN query AS q ON q.study_id = i.study_id AND q.qid = i.parent_id
    JOIN review_item_version AS v
      ON v.id = (SELECT max(id) FROM review_item_version WHERE item_id = i.id AND based_on IS NULL)
    WHERE i.study_id = $2 ORDER BY i.id`,
};
