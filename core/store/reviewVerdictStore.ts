// Writing review verdicts that came from a file (`qrels-studio import REVIEW.assess --verdicts FILE`): every verdict
// of the file in one transaction, an `edit` storing the reviewer's text as a new version made from the one judged
// first — as the Review view's commit does, so the outcome, summary and export read them the same way.
import type { SqliteDatabase } from './sqliteDatabase.ts';

export interface StoredVerdict {
  /** review_item_version.id of the version judged (for an edit: the version edited). */
  versionId: number;
  /** review_item.id of its item. */
  itemRowId: number;
  reviewer: string;
  verdict: string;
  rubric: Record<string, string>;
  reason: string | null;
  /** The edited text (edit only). */
  text?: string;
}

/** Stores `verdicts` at time `at`, all or none; the reviewers are added as people when new. */
export function recordReviewVerdicts(db: SqliteDatabase, verdicts: readonly StoredVerdict[], at: string): void {
  const annotatorId = db
    .prepare(
      `INSERT INTO annotator (name, kind) VALUES (?, 'human')
       ON CONFLICT (name) DO UPDATE SET name = excluded.name RETURNING id`,
    )
    .pluck();
  const insertVersion = db.prepare(
    'INSERT INTO review_item_version (item_id, text, author, created_at, based_on) VALUES (?, ?, ?, ?, ?)',
  );
  const insertVerdict = db.prepare(
    `INSERT INTO review_verdict (version_id, annotator_id, verdict, rubric, rationale, created_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  db.transaction(() => {
    for (const v of verdicts) {
      const reviewer = annotatorId.get(v.reviewer) as number;
      if (v.text !== undefined) insertVersion.run(v.itemRowId, v.text, v.reviewer, at, v.versionId);
      insertVerdict.run(v.versionId, reviewer, v.verdict, JSON.stringify(v.rubric), v.reason, at);
    }
  }).immediate();
}
