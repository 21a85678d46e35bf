// Reviewing generated text (a `review` block): its items imported into the task database with their first version,
// and a reviewer's session over them — one item at a time with its versions, the word diff against its source (or
// its first version once edited), the automatic findings, the rubric, and a verdict with a reason. An `edit` verdict
// stores the reviewer's text as a new version (the original is kept); verdicts are append-only, the latest per
// reviewer and version counts. In a blind review, others' verdicts reach the view only after one's own.
import { resolve } from 'node:path';
import type { ReviewModel } from '../dsl/model.ts';
import type { SqliteDatabase } from '../store/sqliteDatabase.ts';
import { StoreError, type StudyDatabase } from '../store/studyDatabase.ts';
import type { ReviewFinding } from './findings/finding.ts';
import { rewriteFindings } from './findings/registry.ts';
import { readReviewItems } from './reviewItems.ts';
import { type ReviewSummary, reviewSummary } from './reviewSummary.ts';
import { type DiffPart, wordDiff } from './textDiff.ts';

/** The verdicts of a review that declares none. */
export const defaultVerdicts = ['accept', 'edit', 'reject'];

export interface ReviewView {
  studyFile: string;
  review: string;
  title?: string;
  annotator: string;
  taxonomy: { code: string; label: string }[];
  rubric?: { levels: string[]; dimensions: { name: string; description?: string }[] };
  verdicts: string[];
  blind: boolean;
}

export interface ReviewVersionView {
  id: number;
  text: string;
  author: string;
  at: string;
}

export interface ReviewVerdictView {
  annotator: string;
  verdict: string;
  rubric: Record<string, string>;
  reason?: string;
  at: string;
  versionId: number;
}

export interface ReviewItemView {
  position: number;
  itemId: string;
  parent?: string;
  type?: string;
  typeLabel?: string;
  model?: string;
  source?: string;
  /** Oldest first; the last is the one under review. */
  versions: ReviewVersionView[];
  /** The version under review against the source (a rewrite) or against the first version (once edited). */
  diff: DiffPart[];
  diffAgainst?: 'source' | 'original';
  findings: ReviewFinding[];
  mine?: ReviewVerdictView;
  others: ReviewVerdictView[];
  /** Blind mode is hiding others' verdicts of this item now. */
  hidden: boolean;
}

export interface ReviewState {
  review: ReviewView;
  length: number;
  /** Items this reviewer has a verdict on. */
  reviewed: number;
}

export interface ReviewCommit {
  position: number;
  itemId: string;
  verdict: string;
  rubric?: Record<string, string>;
  reason?: string;
  /** The edited text (the `edit` verdict). */
  text?: string;
}

/**
 * Imports the review's items (the file it declares): new items with their first version (authored by their
 * generator model), and a new version when the file's text of an item changed. One transaction: all or nothing.
 */
export async function importReviewItems(
  database: StudyDatabase,
  review: ReviewModel,
  folder: string,
): Promise<{ added: number; changed: number; unchanged: number }> {
  if (!review.items) throw new StoreError(`review '${review.name}' declares no items file`);
  const path = review.items.absolutePath ?? resolve(folder, review.items.path);
  const items = await readReviewItems(path, review.items.fields, review.items.path);
  const db = database.db;
  const studyId = database.studyId(review.name);
  const now = new Date().toISOString();
  return db
    .transaction(() => {
      let added = 0;
      let changed = 0;
      let unchanged = 0;
      const find = db.prepare('SELECT id FROM review_item WHERE study_id = ? AND item_id = ?').pluck();
      const insertItem = db.prepare(
        `INSERT INTO review_item (study_id, item_id, parent_id, type, model, metadata) VALUES (?, ?, ?, ?, ?, ?)
         RETURNING id`,
      );
      const latestGenerated = db
        .prepare('SELECT text FROM review_item_version WHERE item_id = ? AND author = ? ORDER BY id DESC LIMIT 1')
        .pluck();
      const insertVersion = db.prepare(
        'INSERT INTO review_item_version (item_id, text, author, created_at) VALUES (?, ?, ?, ?)',
      );
      for (const item of items) {
        const author = item.model ?? 'generator';
        let id = find.get(studyId, item.id) as number | undefined;
        if (id === undefined) {
          id = (
            insertItem.get(
              studyId,
              item.id,
              item.parent ?? null,
              item.type ?? null,
              item.model ?? null,
              item.source !== undefined ? JSON.stringify({ source: item.source }) : null,
            ) as { id: number }
          ).id;
          insertVersion.run(id, item.text, author, now);
          added++;
        } else if (latestGenerated.get(id, author) !== item.text) {
          insertVersion.run(id, item.text, author, now);
          changed++;
        } else unchanged++;
      }
      return { added, changed, unchanged };
    })
    .immediate();
}

interface VersionRow {
  id: number;
  text: string;
  author: string;
  created_at: string;
}

export class ReviewSession {
  readonly annotator: string;
  private readonly db: SqliteDatabase;
  private readonly review: ReviewModel;
  private readonly studyFile: string;
  private readonly studyId: number;
  private readonly annotatorId: number;
  private readonly items: { id: number; item_id: string }[];
  private readonly now: () => Date;

  private constructor(
    database: StudyDatabase,
    options: { studyFile: string; review: ReviewModel; annotator: string; now?: () => Date },
  ) {
    this.db = database.db;
    this.review = options.review;
    this.studyFile = options.studyFile;
    this.annotator = options.annotator;
    this.now = options.now ?? (() => new Date());
    this.studyId = database.studyId(options.review.name);
    this.annotatorId = (
      this.db
        .prepare(
          `INSERT INTO annotator (name, kind) VALUES (?, 'human')
           ON CONFLICT (name) DO UPDATE SET name = excluded.name RETURNING id`,
        )
        .get(options.annotator) as { id: number }
    ).id;
    this.items = this.db
      .prepare('SELECT id, item_id FROM review_item WHERE study_id = ? ORDER BY id')
      .all(this.studyId) as { id: number; item_id: string }[];
  }

  /** A reviewer's session on a review whose items are imported; a reviewer the review does not name is refused. */
  static open(
    database: StudyDatabase,
    options: { studyFile: string; review: ReviewModel; annotator: string; now?: () => Date },
  ): ReviewSession {
    const { review, annotator } = options;
    if (annotator.trim() === '' || annotator.startsWith('llm:')) {
      throw new StoreError(`'${annotator}' cannot review: the setting qrelsStudio.annotator names a person`);
    }
    if (review.annotators.length > 0 && !review.annotators.includes(annotator) && review.adjudicator !== annotator) {
      throw new StoreError(
        `'${annotator}' is not a reviewer of '${review.name}' (its annotators: ${review.annotators.join(', ')})`,
      );
    }
    return new ReviewSession(database, options);
  }

  private verdicts(): string[] {
    return this.review.verdicts.length > 0 ? this.review.verdicts : defaultVerdicts;
  }

  state(): ReviewState {
    const reviewed = this.db
      .prepare(
        `SELECT count(DISTINCT v.item_id) FROM review_verdict AS d JOIN review_item_version AS v ON v.id = d.version_id
         JOIN review_item AS i ON i.id = v.item_id WHERE i.study_id = ? AND d.annotator_id = ?`,
      )
      .pluck()
      .get(this.studyId, this.annotatorId) as number;
    const review = this.review;
    return {
      review: {
        studyFile: this.studyFile,
        review: review.name,
        ...(review.title !== undefined && { title: review.title }),
        annotator: this.annotator,
        taxonomy: review.taxonomy,
        ...(review.rubric && { rubric: review.rubric }),
        verdicts: this.verdicts(),
        blind: review.blind && review.adjudicator !== this.annotator,
      },
      length: this.items.length,
      reviewed,
    };
  }

  /** The item at `position` (null past the end). */
  itemAt(position: number): ReviewItemView | null {
    if (!Number.isInteger(position) || position < 0) throw new StoreError(`expected a position ≥ 0, found ${position}`);
    const entry = this.items[position];
    if (!entry) return null;
    const row = this.db
      .prepare('SELECT item_id, parent_id, type, model, metadata FROM review_item WHERE id = ?')
      .get(entry.id) as {
      item_id: string;
      parent_id: string | null;
      type: string | null;
      model: string | null;
      metadata: string | null;
    };
    const versions = this.db
      .prepare('SELECT id, text, author, created_at FROM review_item_version WHERE item_id = ? ORDER BY id')
      .all(entry.id) as VersionRow[];
    const latest = versions.at(-1)!;
    const source = row.metadata ? ((JSON.parse(row.metadata) as { source?: string }).source ?? undefined) : undefined;
    const against = source ?? (versions.length > 1 ? versions[0]!.text : undefined);
    const verdicts = this.db
      .prepare(
        `SELECT a.name AS annotator, d.verdict, d.rubric, d.rationale, d.created_at, d.version_id
         FROM review_verdict AS d JOIN review_item_version AS v ON v.id = d.version_id
         JOIN annotator AS a ON a.id = d.annotator_id
         WHERE v.item_id = ? AND NOT EXISTS (
           SELECT 1 FROM review_verdict AS later JOIN review_item_version AS lv ON lv.id = later.version_id
           WHERE lv.item_id = v.item_id AND later.annotator_id = d.annotator_id AND later.id > d.id)
         ORDER BY a.name`,
      )
      .all(entry.id) as {
      annotator: string;
      verdict: string;
      rubric: string | null;
      rationale: string | null;
      created_at: string;
      version_id: number;
    }[];
    const view = (v: (typeof verdicts)[number]): ReviewVerdictView => ({
      annotator: v.annotator,
      verdict: v.verdict,
      rubric: v.rubric ? (JSON.parse(v.rubric) as Record<string, string>) : {},
      ...(v.rationale !== null && { reason: v.rationale }),
      at: v.created_at,
      versionId: v.version_id,
    });
    const mine = verdicts.find((v) => v.annotator === this.annotator);
    const hidden = this.state().review.blind && mine === undefined;
    return {
      position,
      itemId: row.item_id,
      ...(row.parent_id !== null && { parent: row.parent_id }),
      ...(row.type !== null && { type: row.type }),
      ...(row.type !== null && {
        typeLabel: this.review.taxonomy.find((t) => t.code === row.type)?.label ?? row.type,
      }),
      ...(row.model !== null && { model: row.model }),
      ...(source !== undefined && { source }),
      versions: versions.map((v) => ({ id: v.id, text: v.text, author: v.author, at: v.created_at })),
      diff: against === undefined ? [] : wordDiff(against, latest.text),
      ...(against !== undefined && { diffAgainst: source !== undefined ? ('source' as const) : ('original' as const) }),
      findings: source !== undefined ? rewriteFindings({ source, rewrite: latest.text, declaredChanges: 1 }) : [],
      ...(mine && { mine: view(mine) }),
      others: hidden ? [] : verdicts.filter((v) => v.annotator !== this.annotator).map(view),
      hidden,
    };
  }

  /** Stores a verdict (one transaction; an `edit` stores the new version first) and returns the item as it now is. */
  /** What the review decided so far (reviewSummary.ts). */
  summary(): ReviewSummary {
    return reviewSummary(this.db, this.studyId, this.review);
  }

  commit(commit: ReviewCommit): { state: ReviewState; item: ReviewItemView } {
    const entry = this.items[commit.position];
    if (!entry || entry.item_id !== commit.itemId) {
      throw new StoreError(
        `expected item '${entry?.item_id ?? '(none)'}' at position ${commit.position}, found '${commit.itemId}'`,
      );
    }
    const verdicts = this.verdicts();
    if (!verdicts.includes(commit.verdict)) {
      throw new StoreError(`unknown verdict '${commit.verdict}' (expected one of: ${verdicts.join(', ')})`);
    }
    const reason = commit.reason?.trim() ?? '';
    if (commit.verdict !== verdicts[0] && reason === '') {
      throw new StoreError(`the verdict '${commit.verdict}' needs a reason`);
    }
    const rubric = commit.rubric ?? {};
    const dimensions = this.review.rubric?.dimensions.map((d) => d.name) ?? [];
    const levels = this.review.rubric?.levels ?? [];
    for (const [dimension, level] of Object.entries(rubric)) {
      if (!dimensions.includes(dimension)) {
        throw new StoreError(`review '${this.review.name}' has no rubric dimension '${dimension}'`);
      }
      if (!levels.includes(level))
        throw new StoreError(`expected a level (${levels.join(', ')}) for '${dimension}', found '${level}'`);
    }
    const at = this.now().toISOString();
    this.db
      .transaction(() => {
        const latest = this.db
          .prepare('SELECT id, text FROM review_item_version WHERE item_id = ? ORDER BY id DESC LIMIT 1')
          .get(entry.id) as { id: number; text: string };
        if (commit.verdict === 'edit') {
          const text = commit.text?.trim() ?? '';
          if (text === '' || text === latest.text.trim()) {
            throw new StoreError('an edit needs the edited text, different from the version under review');
          }
          this.db
            .prepare('INSERT INTO review_item_version (item_id, text, author, created_at) VALUES (?, ?, ?, ?)')
            .run(entry.id, text, this.annotator, at);
        }
        this.db
          .prepare(
            `INSERT INTO review_verdict (version_id, annotator_id, verdict, rubric, rationale, created_at)
             VALUES (?, ?, ?, ?, ?, ?)`,
          )
          .run(latest.id, this.annotatorId, commit.verdict, JSON.stringify(rubric), reason === '' ? null : reason, at);
      })
      .immediate();
    return { state: this.state(), item: this.itemAt(commit.position)! };
  }
}
