// The SQL of the agreement port's reads (sqliteAgreement.ts): current labels for reliability data and the label
// sources, adjudications, chunk parents, the queries an evaluation breaks down by.
import { judgeSuggestionsWithoutJudgment } from './judgeSuggestions.ts';

/**
 * Current judgments (adjudications left out) and judges' suggestions without a judgment, in the order given; gold
 * (`kind gold`, core/store/labelKind.ts) is told apart: the reference is no annotator to agree with.
 */
export const studyLabelRowsSql = `
  SELECT p.qid, p.docid, a.name, CASE WHEN a.label_kind = 'gold' THEN 'gold' ELSE a.kind END,
    j.label, j.created_at AS at, j.id AS row, 0 AS suggested
  FROM current_judgment AS j
  JOIN pair AS p ON p.id = j.pair_id JOIN annotator AS a ON a.id = j.annotator_id
  WHERE p.study_id = @study AND j.source != 'adjudicated'
  UNION ALL
  SELECT p.qid, p.docid, a.name, a.kind, sg.label, sg.created_at AS at, sg.id AS row, 1 AS suggested
  FROM (${judgeSuggestionsWithoutJudgment}) AS sg
  JOIN pair AS p ON p.id = sg.pair_id JOIN annotator AS a ON a.id = sg.annotator_id
  WHERE p.study_id = @study
  ORDER BY at, suggested, row`;

export const knownAnnotatorsSql = `
  SELECT DISTINCT a.name FROM judgment AS j JOIN pair AS p ON p.id = j.pair_id
  JOIN annotator AS a ON a.id = j.annotator_id WHERE p.study_id = @study AND a.kind = @kind
    AND NOT EXISTS (SELECT 1 FROM judgment_retraction AS r WHERE r.judgment_id = j.id)
  UNION
  SELECT a.name FROM suggestion AS sg JOIN pair AS p ON p.id = sg.pair_id
  JOIN annotator AS a ON a.id = sg.annotator_id WHERE p.study_id = @study AND a.kind = @kind
    AND sg.label IS NOT NULL
  ORDER BY 1`;

export const annotatorLabelsSql = `
  SELECT p.qid, p.docid, j.label FROM current_judgment AS j
  JOIN pair AS p ON p.id = j.pair_id JOIN annotator AS a ON a.id = j.annotator_id
  WHERE p.study_id = ? AND a.name = ? ORDER BY p.qid, p.docid`;

/** The people's votes: kind human, not gold, an adjudication is no vote. A tie goes to the lower label. */
export const majorityLabelsSql = `
  WITH votes AS (
    SELECT p.qid, p.docid, j.label, count(*) AS n FROM current_judgment AS j
    JOIN pair AS p ON p.id = j.pair_id JOIN annotator AS a ON a.id = j.annotator_id
    WHERE p.study_id = ? AND a.kind = 'human' AND a.label_kind IS NOT 'gold' AND j.source != 'adjudicated'
    GROUP BY p.qid, p.docid, j.label
  ), ranked AS (
    SELECT qid, docid, label, row_number() OVER (PARTITION BY qid, docid ORDER BY n DESC, label ASC) AS place
    FROM votes
  )
  SELECT qid, docid, label FROM ranked WHERE place = 1 ORDER BY qid, docid`;

export const adjudicatedLabelsSql = `
  WITH adjudications AS (
    SELECT p.qid, p.docid, j.label,
      row_number() OVER (PARTITION BY j.pair_id ORDER BY j.created_at DESC, j.id DESC) AS place
    FROM judgment AS j JOIN pair AS p ON p.id = j.pair_id
    WHERE p.study_id = ? AND j.source = 'adjudicated'
      AND NOT EXISTS (SELECT 1 FROM judgment_retraction AS r WHERE r.judgment_id = j.id)
  )
  SELECT qid, docid, label FROM adjudications WHERE place = 1 ORDER BY qid, docid`;

export const peopleMeanLabelsSql = `
  SELECT p.qid, p.docid, avg(j.label) AS mean FROM current_judgment AS j
  JOIN pair AS p ON p.id = j.pair_id JOIN annotator AS a ON a.id = j.annotator_id
  WHERE p.study_id = ? AND a.kind = 'human' AND a.label_kind IS NOT 'gold' AND j.source != 'adjudicated'
  GROUP BY p.id`;

export const adjudicatedPairCountSql = `
  SELECT count(DISTINCT j.pair_id) FROM judgment AS j JOIN pair AS p ON p.id = j.pair_id
  WHERE p.study_id = ? AND j.source = 'adjudicated'
    AND NOT EXISTS (SELECT 1 FROM judgment_retraction AS r WHERE r.judgment_id = j.id)`;

export const pairCountSql = 'SELECT count(*) FROM pair WHERE study_id = ?';

export const pairIdSql = 'SELECT id FROM pair WHERE study_id = ? AND qid = ? AND docid = ?';

export const chunkParentsSql = `
  SELECT docid, parent_docid FROM document WHERE study_id = ? AND parent_docid IS NOT NULL AND parent_docid != ''
  ORDER BY docid`;

export const labelGiversSql = `
  SELECT DISTINCT a.name, a.kind FROM annotator AS a WHERE a.id IN (
    SELECT j.annotator_id FROM judgment AS j JOIN pair AS p ON p.id = j.pair_id WHERE p.study_id = @study
    UNION SELECT s.annotator_id FROM suggestion AS s JOIN pair AS p ON p.id = s.pair_id WHERE p.study_id = @study)
  ORDER BY a.kind, a.name`;

export const evaluationQueriesSql = 'SELECT qid, type, metadata FROM query WHERE study_id = ? ORDER BY id';
