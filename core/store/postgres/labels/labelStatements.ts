// The per-pair SQL of the PostgreSQL labelling adapter (postgresLabels.ts): core/store/sqlite/labels/labelStatements.ts
// in PostgreSQL's words, each an indexed lookup, with the same columns and the same orders (text ordered as bytes).
import { notRetracted } from './labelQueueSql.ts';

/** The latest suggestion `s` of its judge for the pair. */
const latestSuggestion = `NOT EXISTS (
  SELECT 1 FROM suggestion AS later
  WHERE later.pair_id = s.pair_id AND later.annotator_id = s.annotator_id
    AND (later.created_at > s.created_at OR (later.created_at = s.created_at AND later.id > s.id)))`;

export const labelSql = {
  studyName: 'SELECT name FROM study WHERE id = $1',
  pair: 'SELECT id, qid, docid, best_rank FROM pair WHERE id = $1 AND study_id = $2',
  query: 'SELECT qid, text, instruction, type, metadata FROM query WHERE study_id = $1 AND qid = $2',
  document:
    'SELECT id, docid, title, body, format, parent_docid, metadata FROM document WHERE study_id = $1 AND docid = $2',
  /** The chunks of one parent (document_by_parent index); the session orders them. */
  // In docid's byte order on both adapters: ids follow whichever import or copy wrote the rows.
  chunks: 'SELECT docid FROM document WHERE study_id = $1 AND parent_docid = $2 ORDER BY docid COLLATE "C"',
  /** The annotator's current judgment of a pair ($1 pair, $2 annotator): the latest not retracted. */
  mine: `SELECT id, label, created_at, rationale FROM judgment AS j
     WHERE j.pair_id = $1 AND j.annotator_id = $2 AND ${notRetracted}
     ORDER BY j.created_at DESC, j.id DESC LIMIT 1`,
  /**
   * Everything a Label view shows of pair $1 of study $2 for annotator $3, in one statement (one round trip): the pair,
   * and as JSON its query, its document (with its parent's chunks), the annotator's current judgment (with condition
   * and aspect answers), the others' current labels and each judge's latest suggestion — the same rows, in the same
   * orders, as SQLite's statements (core/store/sqlite/labels/labelStatements.ts). No row: no such pair in the study.
   */
  pairView: `SELECT p.qid, p.docid, p.best_rank,
       (SELECT row_to_json(q) FROM (
          SELECT qid, text, instruction, type, metadata FROM query WHERE study_id = $2 AND qid = p.qid) AS q) AS query,
       (SELECT row_to_json(d) FROM (
          SELECT doc.docid, doc.title, doc.body, doc.format, doc.parent_docid, doc.metadata,
            CASE WHEN doc.parent_docid IS NOT NULL THEN ARRAY(
              SELECT chunk.docid FROM document AS chunk
              WHERE chunk.study_id = $2 AND chunk.parent_docid = doc.parent_docid ORDER BY chunk.docid COLLATE "C") END AS siblings
          FROM document AS doc WHERE doc.study_id = $2 AND doc.docid = p.docid) AS d) AS document,
       (SELECT row_to_json(m) FROM (
          SELECT j.id, j.label, j.created_at, j.rationale,
            coalesce((SELECT json_agg(json_build_object('condition', c.condition, 'satisfied', c.satisfied)
                        ORDER BY c.condition)
                      FROM condition_judgment AS c WHERE c.judgment_id = j.id), '[]') AS conditions,
            coalesce((SELECT json_agg(json_build_object('aspect', x.aspect, 'answer', x.answer)
                        ORDER BY x.aspect COLLATE "C")
                      FROM aspect_judgment AS x WHERE x.judgment_id = j.id), '[]') AS aspects
          FROM judgment AS j
          WHERE j.pair_id = p.id AND j.annotator_id = $3 AND ${notRetracted}
          ORDER BY j.created_at DESC, j.id DESC LIMIT 1) AS m) AS mine,
       (SELECT coalesce(json_agg(json_build_object('annotator', a.name, 'kind', a.kind, 'label', j.label,
                 'source', j.source, 'rationale', j.rationale, 'at', j.created_at)
                 ORDER BY a.kind COLLATE "C", a.name COLLATE "C"), '[]')
          FROM current_judgment AS j JOIN annotator AS a ON a.id = j.annotator_id
          WHERE j.pair_id = p.id AND j.annotator_id != $3) AS others,
       (SELECT coalesce(json_agg(json_build_object('judge', a.name, 'label', s.label, 'rationale', s.rationale,
                 'confidence', s.confidence) ORDER BY a.name COLLATE "C"), '[]')
          FROM suggestion AS s JOIN annotator AS a ON a.id = s.annotator_id
          WHERE s.pair_id = p.id AND ${latestSuggestion}) AS suggestions
     FROM pair AS p WHERE p.id = $1 AND p.study_id = $2`,
  /**
   * What a commit decides from ($1 pair, $2 annotator), read under the pair's commit lock: whether the annotator has a
   * current label of it, the latest time of any of their judgments of it (retracted ones too: the UNIQUE key counts
   * them), the labels of each judge's latest suggestion for it, the name of study $3 (for the notification), and the
   * judgment a commit with id $4 stored already (a retried commit: returned instead of stored again).
   */
  beforeCommit: `SELECT
       EXISTS (SELECT 1 FROM judgment AS j WHERE j.pair_id = $1 AND j.annotator_id = $2 AND ${notRetracted})
         AS labelled,
       (SELECT max(created_at) FROM judgment WHERE pair_id = $1 AND annotator_id = $2) AS latest,
       ARRAY(SELECT s.label FROM suggestion AS s WHERE s.pair_id = $1 AND ${latestSuggestion}) AS suggested,
       (SELECT name FROM study WHERE id = $3) AS study,
       (SELECT json_build_object('id', j.id, 'createdAt', j.created_at, 'labelledBefore', EXISTS (
          SELECT 1 FROM judgment AS o WHERE o.pair_id = j.pair_id AND o.annotator_id = j.annotator_id
            AND o.created_at < j.created_at
            AND NOT EXISTS (SELECT 1 FROM judgment_retraction AS r WHERE r.judgment_id = o.id)))
        FROM judgment AS j WHERE j.client_id = $4::text) AS replayed`,
  /**
   * A judgment with its condition answers (satisfied 0/1 in position order), aspect answers and the annotator's cursor,
   * in one statement: $1 pair, $2 annotator, $3 label, $4 time, $5 source, $6 note, $7 label shown, $8 conditions,
   * $9 aspects, $10 answers; $11 whether to save the cursor, $12–$17 its study, annotator, order, unlabelled only
   * (0/1), pair and time; $18 the commit's id.
   */
  insertJudgment: `WITH j AS (
       INSERT INTO judgment (pair_id, annotator_id, label, created_at, source, rationale, shown_label, client_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $18::text) RETURNING id
     ), c AS (
       INSERT INTO condition_judgment (judgment_id, condition, satisfied)
       SELECT j.id, t.position, t.satisfied
       FROM j CROSS JOIN unnest($8::integer[]) WITH ORDINALITY AS t (satisfied, position)
     ), a AS (
       INSERT INTO aspect_judgment (judgment_id, aspect, answer)
       SELECT j.id, t.aspect, t.answer FROM j CROSS JOIN unnest($9::text[], $10::integer[]) AS t (aspect, answer)
     ), saving AS (
       INSERT INTO label_cursor (study_id, annotator_id, queue_order, unlabelled_only, pair_id, updated_at)
       SELECT $12::integer, $13::integer, $14::text, $15::integer, $16::integer, $17::text WHERE $11::boolean
       ON CONFLICT (study_id, annotator_id) DO UPDATE SET queue_order = excluded.queue_order,
         unlabelled_only = excluded.unlabelled_only, pair_id = excluded.pair_id, updated_at = excluded.updated_at
     )
     SELECT id FROM j`,
  retract:
    'INSERT INTO judgment_retraction (judgment_id, retracted_at) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING judgment_id',
  /** A pair of the study the annotator may label ($1 pair, $2 study, $3 annotator, $4 assigned only). */
  inScope: `SELECT 1 FROM pair AS p WHERE p.id = $1 AND p.study_id = $2
       AND (NOT $4::boolean OR EXISTS (
         SELECT 1 FROM assignment AS s WHERE s.pair_id = p.id AND s.annotator_id = $3))`,
  /** Of the ids $2, those that are not pairs of study $1, in the order given. */
  notInStudy: `SELECT t.id FROM unnest($2::integer[]) WITH ORDINALITY AS t (id, position)
     WHERE NOT EXISTS (SELECT 1 FROM pair AS p WHERE p.id = t.id AND p.study_id = $1) ORDER BY t.position`,
  /** The study as last synced, and whether it was in the latest sync (see the SQLite statement). */
  synced: 'SELECT model, synced_at = (SELECT max(synced_at) FROM study) AS latest FROM study WHERE id = $1',
  cursor: 'SELECT queue_order, unlabelled_only, pair_id FROM label_cursor WHERE study_id = $1 AND annotator_id = $2',
  saveCursor: `INSERT INTO label_cursor (study_id, annotator_id, queue_order, unlabelled_only, pair_id, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (study_id, annotator_id) DO UPDATE SET queue_order = excluded.queue_order,
       unlabelled_only = excluded.unlabelled_only, pair_id = excluded.pair_id, updated_at = excluded.updated_at`,
  scaleValues: 'SELECT value FROM scale_value WHERE study_id = $1 ORDER BY value',
  /**
   * The id of pair ($1 study, $2 qid, $3 docid), added when missing — without drawing an id from the sequence when it
   * is there (so ids follow SQLite's). No row: another transaction added it meanwhile; ask again.
   */
  pairByKey: `WITH found AS (SELECT id FROM pair WHERE study_id = $1 AND qid = $2 AND docid = $3),
     added AS (
       INSERT INTO pair (study_id, qid, docid) SELECT $1, $2, $3 WHERE NOT EXISTS (SELECT 1 FROM found)
       ON CONFLICT (study_id, qid, docid) DO NOTHING RETURNING id
     )
     SELECT id FROM found UNION ALL SELECT id FROM added`,
  /** Annotator ($1 name, $2 kind): its id and recorded kind, added when missing (as pairByKey). */
  ensureAnnotator: `WITH found AS (SELECT id, kind FROM annotator WHERE name = $1),
     added AS (
       INSERT INTO annotator (name, kind) SELECT $1, $2 WHERE NOT EXISTS (SELECT 1 FROM found)
       ON CONFLICT (name) DO NOTHING RETURNING id, kind
     )
     SELECT id, kind FROM found UNION ALL SELECT id, kind FROM added`,
  latestTime: 'SELECT max(created_at) AS latest FROM judgment WHERE pair_id = $1 AND annotator_id = $2',
  insertPlainJudgment: `INSERT INTO judgment (pair_id, annotator_id, label, created_at, source, rationale, shown_label)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
} as const;
