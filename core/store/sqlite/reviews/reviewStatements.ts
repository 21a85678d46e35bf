// The review adapter's statements, prepared once per connection (the first time a review method runs).
import type { SqliteDatabase } from '../../sqliteDatabase.ts';

export function reviewStatements(db: SqliteDatabase) {
  return {
    findItem: db.prepare('SELECT id FROM review_item WHERE study_id = ? AND item_id = ?').pluck(),
    insertItem: db.prepare(
      `INSERT INTO review_item (study_id, item_id, parent_id, type, model, metadata) VALUES (?, ?, ?, ?, ?, ?)
       RETURNING id`,
    ),
    latestGeneratedText: db
      .prepare('SELECT text FROM review_item_version WHERE item_id = ? AND based_on IS NULL ORDER BY id DESC LIMIT 1')
      .pluck(),
    latestGeneratedId: db
      .prepare('SELECT max(id) FROM review_item_version WHERE item_id = ? AND based_on IS NULL')
      .pluck(),
    clearTables: db.prepare('DELETE FROM review_table WHERE item_id = ?'),
    insertTable: db.prepare('INSERT INTO review_table (item_id, docid, label) VALUES (?, ?, ?)'),
    insertVersion: db.prepare(
      'INSERT INTO review_item_version (item_id, text, author, created_at, based_on) VALUES (?, ?, ?, ?, ?)',
    ),
    insertVerdict: db.prepare(
      `INSERT INTO review_verdict (version_id, annotator_id, verdict, rubric, rationale, created_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
    ),
    items: db.prepare(
      'SELECT id, item_id, parent_id, type, model, metadata FROM review_item WHERE study_id = ? ORDER BY id',
    ),
    item: db.prepare(
      'SELECT id, item_id, parent_id, type, model, metadata FROM review_item WHERE id = ? AND study_id = ?',
    ),
    itemCount: db.prepare('SELECT count(*) FROM review_item WHERE study_id = ?').pluck(),
    itemOfVersion: db
      .prepare(
        'SELECT v.item_id FROM review_item_version AS v JOIN review_item AS i ON i.id = v.item_id WHERE v.id = ? AND i.study_id = ?',
      )
      .pluck(),
    itemVersions: db.prepare(
      `SELECT id, text, author, created_at AS at, based_on AS basedOn FROM review_item_version WHERE item_id = ?
       ORDER BY id`,
    ),
    itemVerdicts: db.prepare(
      `SELECT d.id, a.name AS annotator, d.verdict, d.rubric, d.rationale AS reason, d.version_id AS versionId,
         d.created_at AS at
       FROM review_verdict AS d JOIN review_item_version AS v ON v.id = d.version_id
       JOIN annotator AS a ON a.id = d.annotator_id WHERE v.item_id = ? ORDER BY d.id`,
    ),
    studyVersions: db.prepare(
      `SELECT v.item_id AS item, v.id, v.text, v.author, v.created_at AS at, v.based_on AS basedOn
       FROM review_item_version AS v JOIN review_item AS i ON i.id = v.item_id WHERE i.study_id = ? ORDER BY v.id`,
    ),
    studyVerdicts: db.prepare(
      `SELECT v.item_id AS item, d.id, a.name AS annotator, d.verdict, d.rubric, d.rationale AS reason,
         d.version_id AS versionId, d.created_at AS at
       FROM review_verdict AS d JOIN review_item_version AS v ON v.id = d.version_id
       JOIN review_item AS i ON i.id = v.item_id JOIN annotator AS a ON a.id = d.annotator_id
       WHERE i.study_id = ? ORDER BY d.id`,
    ),
    queryText: db.prepare('SELECT text FROM query WHERE study_id = ? AND qid = ?').pluck(),
    tableSet: db.prepare(
      `SELECT t.docid AS id, t.label, d.title, d.body AS text FROM review_table AS t
       LEFT JOIN document AS d ON d.study_id = ? AND d.docid = t.docid WHERE t.item_id = ? ORDER BY t.docid`,
    ),
    // Items whose current text (the latest generated version, or a version made after it) the reviewer judged.
    reviewedCount: db
      .prepare(
        `SELECT count(DISTINCT v.item_id) FROM review_verdict AS d
         JOIN review_item_version AS v ON v.id = d.version_id JOIN review_item AS i ON i.id = v.item_id
         JOIN annotator AS a ON a.id = d.annotator_id
         WHERE i.study_id = ? AND a.name = ? AND v.id >= (
           SELECT max(g.id) FROM review_item_version AS g WHERE g.item_id = v.item_id AND g.based_on IS NULL)`,
      )
      .pluck(),
    criticItems: db.prepare(
      `SELECT i.id, i.item_id, i.parent_id, i.type, i.model, i.metadata, q.text AS parent_text, v.id AS version_id,
         v.text, EXISTS (
           SELECT 1 FROM review_verdict AS d JOIN annotator AS a ON a.id = d.annotator_id
           WHERE d.version_id = v.id AND a.name = ?) AS rated
       FROM review_item AS i LEFT JOIN query AS q ON q.study_id = i.study_id AND q.qid = i.parent_id
       JOIN review_item_version AS v
         ON v.id = (SELECT max(id) FROM review_item_version WHERE item_id = i.id AND based_on IS NULL)
       WHERE i.study_id = ? ORDER BY i.id`,
    ),
  };
}

export type ReviewStatements = ReturnType<typeof reviewStatements>;
