// The SQL of the agreement port's reads over PostgreSQL (postgresAgreement.ts): the statements of
// core/store/sqlite/agreement/agreementStatements.ts in PostgreSQL's dialect, answering the same rows in the same
// order. Text keys order bytewise (the schema's columns are COLLATE "C"; a key that is an expression says so), counts
// are cast to integer (pg hands bigint over as a string), and a mean is the float sum over the count, as SQLite's
// avg() computes it.

/**
 * An LLM judge's latest parsed suggestion of each pair it has no current judgment of (sqlite/agreement/
 * judgeSuggestions.ts): the rows of `suggestion`, as `sg`.
 */
export const judgeSuggestionsWithoutJudgmentPg = `
  SELECT sg.* FROM suggestion AS sg
  WHERE sg.label IS NOT NULL
    AND NOT EXISTS (
      SELECT 1 FROM suggestion AS later
      WHERE later.pair_id = sg.pair_id AND later.annotator_id = sg.annotator_id
        AND (later.created_at > sg.created_at OR (later.created_at = sg.created_at AND later.id > sg.id)))
    AND NOT EXISTS (
      SELECT 1 FROM current_judgment AS cj WHERE cj.pair_id = sg.pair_id AND cj.annotator_id = sg.annotator_id)`;

/** $1: the study. As arrays: qid, docid, annotator, kind, label, at, row id, suggested (0/1) — SQLite's columns. */
export const studyLabelRowsSql = `
  SELECT p.qid, p.docid, a.name, CASE WHEN a.label_kind = 'gold' THEN 'gold' ELSE a.kind END AS kind,
    j.label, j.created_at AS at, j.id AS row, 0 AS suggested
  FROM current_judgment AS j
  JOIN pair AS p ON p.id = j.pair_id JOIN annotator AS a ON a.id = j.annotator_id
  WHERE p.study_id = $1 AND j.source <> 'adjudicated'
  UNION ALL
  SELECT p.qid, p.docid, a.name, a.kind, sg.label, sg.created_at AS at, sg.id AS row, 1 AS suggested
  FROM (${judgeSuggestionsWithoutJudgmentPg}) AS sg
  JOIN pair AS p ON p.id = sg.pair_id JOIN annotator AS a ON a.id = sg.annotator_id
  WHERE p.study_id = $1
  ORDER BY at, suggested, row`;

/** $1: the study, $2: the kind. */
export const knownAnnotatorsSql = `
  SELECT name FROM (
    SELECT a.name FROM judgment AS j JOIN pair AS p ON p.id = j.pair_id
    JOIN annotator AS a ON a.id = j.annotator_id WHERE p.study_id = $1 AND a.kind = $2
      AND NOT EXISTS (SELECT 1 FROM judgment_retraction AS r WHERE r.judgment_id = j.id)
    UNION
    SELECT a.name FROM suggestion AS sg JOIN pair AS p ON p.id = sg.pair_id
    JOIN annotator AS a ON a.id = sg.annotator_id WHERE p.study_id = $1 AND a.kind = $2
      AND sg.label IS NOT NULL
  ) AS known
  ORDER BY name COLLATE "C"`;

/** $1: the study, $2: the annotator's name. */
export const annotatorLabelsSql = `
  SELECT p.qid, p.docid, j.label FROM current_judgment AS j
  JOIN pair AS p ON p.id = j.pair_id JOIN annotator AS a ON a.id = j.annotator_id
  WHERE p.study_id = $1 AND a.name = $2 ORDER BY p.qid COLLATE "C", p.docid COLLATE "C"`;

/** The people's votes: kind human, not gold, an adjudication is no vote. A tie goes to the lower label. */
export const majorityLabelsSql = `
  WITH votes AS (
    SELECT p.qid, p.docid, j.label, count(*) AS n FROM current_judgment AS j
    JOIN pair AS p ON p.id = j.pair_id JOIN annotator AS a ON a.id = j.annotator_id
    WHERE p.study_id = $1 AND a.kind = 'human' AND a.label_kind IS DISTINCT FROM 'gold' AND j.source <> 'adjudicated'
    GROUP BY p.qid, p.docid, j.label
  ), ranked AS (
    SELECT qid, docid, label, row_number() OVER (PARTITION BY qid, docid ORDER BY n DESC, label ASC) AS place
    FROM votes
  )
  SELECT qid, docid, label FROM ranked WHERE place = 1 ORDER BY qid COLLATE "C", docid COLLATE "C"`;

export const adjudicatedLabelsSql = `
  WITH adjudications AS (
    SELECT p.qid, p.docid, j.label,
      row_number() OVER (PARTITION BY j.pair_id ORDER BY j.created_at COLLATE "C" DESC, j.id DESC) AS place
    FROM judgment AS j JOIN pair AS p ON p.id = j.pair_id
    WHERE p.study_id = $1 AND j.source = 'adjudicated'
      AND NOT EXISTS (SELECT 1 FROM judgment_retraction AS r WHERE r.judgment_id = j.id)
  )
  SELECT qid, docid, label FROM adjudications WHERE place = 1 ORDER BY qid COLLATE "C", docid COLLATE "C"`;

/** In pair-id order (SQLite's GROUP BY p.id answers in that order). */
export const peopleMeanLabelsSql = `
  SELECT p.qid, p.docid, sum(j.label)::double precision / count(*) AS mean FROM current_judgment AS j
  JOIN pair AS p ON p.id = j.pair_id JOIN annotator AS a ON a.id = j.annotator_id
  WHERE p.study_id = $1 AND a.kind = 'human' AND a.label_kind IS DISTINCT FROM 'gold' AND j.source <> 'adjudicated'
  GROUP BY p.id ORDER BY p.id`;

export const adjudicatedPairCountSql = `
  SELECT count(DISTINCT j.pair_id)::integer AS n FROM judgment AS j JOIN pair AS p ON p.id = j.pair_id
  WHERE p.study_id = $1 AND j.source = 'adjudicated'
    AND NOT EXISTS (SELECT 1 FROM judgment_retraction AS r WHERE r.judgment_id = j.id)`;

export const pairCountSql = 'SELECT count(*)::integer AS n FROM pair WHERE study_id = $1';

/** $1: the study, $2 and $3: the pairs' qids and docids (arrays); one id (or null) per pair, in the order asked. */
export const pairIdsSql = `
  SELECT p.id FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS asked (qid, docid, place)
  LEFT JOIN pair AS p ON p.study_id = $1 AND p.qid = asked.qid AND p.docid = asked.docid
  ORDER BY asked.place`;

export const chunkParentsSql = `
  SELECT docid, parent_docid FROM document WHERE study_id = $1 AND parent_docid IS NOT NULL AND parent_docid <> ''
  ORDER BY docid COLLATE "C"`;

export const labelGiversSql = `
  SELECT DISTINCT a.name, a.kind FROM annotator AS a WHERE a.id IN (
    SELECT j.annotator_id FROM judgment AS j JOIN pair AS p ON p.id = j.pair_id WHERE p.study_id = $1
    UNION SELECT s.annotator_id FROM suggestion AS s JOIN pair AS p ON p.id = s.pair_id WHERE p.study_id = $1)
  ORDER BY a.kind, a.name`;

export const evaluationQueriesSql = 'SELECT qid, type, metadata FROM query WHERE study_id = $1 ORDER BY id';
