// The statements of the labelling adapter (sqliteLabels.ts) that run per pair, label or undo — each an indexed
// lookup (test/core/store/sqlite/labelStatements.test.ts checks every one with EXPLAIN QUERY PLAN), prepared once
// per store.
import type { SqliteDatabase } from '../../sqliteDatabase.ts';

/** A judgment `j` that is not retracted. */
export const notRetracted = 'NOT EXISTS (SELECT 1 FROM judgment_retraction AS r WHERE r.judgment_id = j.id)';

export function labelStatements(db: SqliteDatabase) {
  return {
    studyName: db.prepare('SELECT name FROM study WHERE id = ?').pluck(),
    pair: db.prepare('SELECT id, qid, docid, best_rank FROM pair WHERE id = ? AND study_id = ?'),
    query: db.prepare('SELECT qid, text, instruction, type, metadata FROM query WHERE study_id = ? AND qid = ?'),
    document: db.prepare(
      'SELECT id, docid, title, body, format, parent_docid, metadata FROM document WHERE study_id = ? AND docid = ?',
    ),
    /** The chunks of one parent (document_by_parent index); the session orders them. */
    // In docid's byte order on both adapters: ids follow whichever import or copy wrote the rows.
    chunks: db.prepare('SELECT docid FROM document WHERE study_id = ? AND parent_docid = ? ORDER BY docid').pluck(),
    /** The annotator's current judgment of a pair: the latest not retracted. */
    mine: db.prepare(
      `SELECT id, label, created_at, rationale FROM judgment AS j
       WHERE j.pair_id = ? AND j.annotator_id = ? AND ${notRetracted}
       ORDER BY j.created_at DESC, j.id DESC LIMIT 1`,
    ),
    mineConditions: db.prepare('SELECT condition, satisfied FROM condition_judgment WHERE judgment_id = ?'),
    mineAspects: db.prepare('SELECT aspect, answer FROM aspect_judgment WHERE judgment_id = ? ORDER BY aspect'),
    others: db.prepare(
      `SELECT a.name AS annotator, a.kind, j.label, j.source, j.rationale, j.created_at AS at
       FROM current_judgment AS j JOIN annotator AS a ON a.id = j.annotator_id
       WHERE j.pair_id = ? AND j.annotator_id != ? ORDER BY a.kind, a.name`,
    ),
    /** The latest suggestion of each judge for a pair. */
    suggestions: db.prepare(
      `SELECT a.name AS judge, s.label, s.rationale, s.confidence
       FROM suggestion AS s JOIN annotator AS a ON a.id = s.annotator_id
       WHERE s.pair_id = ? AND NOT EXISTS (
         SELECT 1 FROM suggestion AS later
         WHERE later.pair_id = s.pair_id AND later.annotator_id = s.annotator_id
           AND (later.created_at > s.created_at OR (later.created_at = s.created_at AND later.id > s.id)))
       ORDER BY a.name`,
    ),
    /** The latest time of any judgment (retracted ones too: the UNIQUE key counts them) of a pair by an annotator. */
    latestTime: db.prepare('SELECT max(created_at) FROM judgment WHERE pair_id = ? AND annotator_id = ?').pluck(),
    /** A pair of the study the annotator may label: assigned to them, or any pair when `@assignedOnly` is 0. */
    inScope: db.prepare(
      `SELECT 1 FROM pair AS p WHERE p.id = @pair AND p.study_id = @study
         AND (@assignedOnly = 0 OR EXISTS (
           SELECT 1 FROM assignment AS s WHERE s.pair_id = p.id AND s.annotator_id = @annotator))`,
    ),
    inStudy: db.prepare('SELECT 1 FROM pair WHERE id = ? AND study_id = ?').pluck(),
    insertJudgment: db.prepare(
      `INSERT INTO judgment (pair_id, annotator_id, label, created_at, source, rationale, shown_label, client_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    ),
    /** The judgment a commit with this id stored (a retried commit), and whether a label of the pair preceded it. */
    byClientId: db.prepare(
      `SELECT j.id, j.created_at, EXISTS (
         SELECT 1 FROM judgment AS o WHERE o.pair_id = j.pair_id AND o.annotator_id = j.annotator_id
           AND o.created_at < j.created_at
           AND NOT EXISTS (SELECT 1 FROM judgment_retraction AS r WHERE r.judgment_id = o.id)) AS labelled
       FROM judgment AS j WHERE j.client_id = ?`,
    ),
    insertCondition: db.prepare('INSERT INTO condition_judgment (judgment_id, condition, satisfied) VALUES (?, ?, ?)'),
    insertAspect: db.prepare('INSERT INTO aspect_judgment (judgment_id, aspect, answer) VALUES (?, ?, ?)'),
    retract: db.prepare(
      'INSERT INTO judgment_retraction (judgment_id, retracted_at) VALUES (?, ?) ON CONFLICT DO NOTHING',
    ),
    /**
     * The study as last synced, and whether it was in the latest sync (syncStudies stamps every study of the file
     * with one time: a study renamed or removed from the file keeps an older one).
     */
    synced: db.prepare(
      'SELECT model, synced_at = (SELECT max(synced_at) FROM study) AS latest FROM study WHERE id = ?',
    ),
    cursor: db.prepare(
      'SELECT queue_order, unlabelled_only, pair_id FROM label_cursor WHERE study_id = ? AND annotator_id = ?',
    ),
    saveCursor: db.prepare(
      `INSERT INTO label_cursor (study_id, annotator_id, queue_order, unlabelled_only, pair_id, updated_at)
       VALUES (@study, @annotator, @order, @unlabelledOnly, @pair, @at)
       ON CONFLICT (study_id, annotator_id) DO UPDATE SET queue_order = excluded.queue_order,
         unlabelled_only = excluded.unlabelled_only, pair_id = excluded.pair_id, updated_at = excluded.updated_at`,
    ),
  };
}

export type LabelStatements = ReturnType<typeof labelStatements>;
