// A review's items as stored — each with its versions and verdicts — and the rules its block sets (verdicts,
// adjudicator, reviewers per item): what reviewOutcome.ts decides from, read in one place for the session, the
// summary and the export.
import type { ReviewModel } from '../dsl/model.ts';
import type { SqliteDatabase } from '../store/sqliteDatabase.ts';
import type { ReviewRules, VerdictRecord, VersionRecord } from './reviewOutcome.ts';

/** The verdicts of a review that declares none. */
export const defaultVerdicts = ['accept', 'edit', 'reject'];

export function verdictsOf(review: ReviewModel): string[] {
  return review.verdicts.length > 0 ? review.verdicts : defaultVerdicts;
}

/**
 * The rules of `review`. Reviewers per item: its `overlap`, else every annotator it names, else one — never more
 * than the annotators it names.
 */
export function reviewRules(review: ReviewModel): ReviewRules {
  const named = review.annotators.filter((a) => a !== review.adjudicator).length;
  const wanted = review.overlap ?? (named > 0 ? named : 1);
  return {
    verdicts: verdictsOf(review),
    ...(review.adjudicator !== undefined && { adjudicator: review.adjudicator }),
    required: Math.max(1, named > 0 ? Math.min(wanted, named) : wanted),
  };
}

export interface ItemRow {
  /** The row id (review_item.id). */
  id: number;
  itemId: string;
  parent: string | null;
  type: string | null;
  model: string | null;
  /** The rewrite's source text, when the items file gives one. */
  source?: string;
}

export interface ItemRecords {
  versions: VersionRecord[];
  verdicts: VerdictRecord[];
}

/** Reads items' versions and verdicts with prepared statements (one reader per session or export). */
export class ReviewRecords {
  private readonly db: SqliteDatabase;
  private readonly versions;
  private readonly verdicts;
  private readonly item;

  constructor(db: SqliteDatabase) {
    this.db = db;
    this.versions = db.prepare(
      'SELECT id, text, author, created_at AS at, based_on AS basedOn FROM review_item_version WHERE item_id = ? ORDER BY id',
    );
    this.verdicts = db.prepare(
      `SELECT d.id, a.name AS annotator, d.verdict, d.rubric, d.rationale AS reason, d.version_id AS versionId,
         d.created_at AS at
       FROM review_verdict AS d JOIN review_item_version AS v ON v.id = d.version_id
       JOIN annotator AS a ON a.id = d.annotator_id WHERE v.item_id = ? ORDER BY d.id`,
    );
    this.item = db.prepare('SELECT id, item_id, parent_id, type, model, metadata FROM review_item WHERE id = ?');
  }

  /** The review's items in import order. */
  items(studyId: number): ItemRow[] {
    const rows = this.db
      .prepare('SELECT id, item_id, parent_id, type, model, metadata FROM review_item WHERE study_id = ? ORDER BY id')
      .all(studyId) as RawItem[];
    return rows.map(itemRow);
  }

  itemById(rowId: number): ItemRow {
    return itemRow(this.item.get(rowId) as RawItem);
  }

  records(rowId: number): ItemRecords {
    const verdicts = (this.verdicts.all(rowId) as (Omit<VerdictRecord, 'rubric'> & { rubric: string | null })[]).map(
      (v) => ({ ...v, rubric: v.rubric ? (JSON.parse(v.rubric) as Record<string, string>) : {} }),
    );
    return { versions: this.versions.all(rowId) as VersionRecord[], verdicts };
  }
}

interface RawItem {
  id: number;
  item_id: string;
  parent_id: string | null;
  type: string | null;
  model: string | null;
  metadata: string | null;
}

function itemRow(raw: RawItem): ItemRow {
  const source = raw.metadata ? (JSON.parse(raw.metadata) as { source?: string }).source : undefined;
  return {
    id: raw.id,
    itemId: raw.item_id,
    parent: raw.parent_id,
    type: raw.type,
    model: raw.model,
    ...(source !== undefined && { source }),
  };
}
