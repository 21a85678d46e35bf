// Reviewing generated text (a `review` block): its items imported into the task database with their generated
// versions, and a reviewer's session over them — one item at a time with its versions, the word diff against its
// source (or the generated text once edited), the automatic findings, the rubric, and a verdict with a reason. An
// `edit` verdict stores the reviewer's text as a new version made from the one edited (the original is kept);
// verdicts are append-only. What the verdicts decide is reviewOutcome.ts's: only verdicts on the item as the items
// file has it now count. In a blind review a reviewer sees neither others' verdicts nor their edits before giving
// their own. A queue can hold every item, the ones still to review, or the disputed ones (the adjudicator's).
import { resolve } from 'node:path';
import type { ReviewModel } from '../dsl/model.ts';
import { FormatError } from '../formats/formatError.ts';
import { ImportError } from '../importers/types.ts';
import { type GradedQrels, readGradedQrels } from '../metrics/instruction/instructionInputs.ts';
import { importDeclaredSources } from '../store/declaredImport.ts';
import type { SqliteDatabase } from '../store/sqliteDatabase.ts';
import { StoreError, type StudyDatabase } from '../store/studyDatabase.ts';
import type { ReviewFinding } from './findings/finding.ts';
import { instructionFindings, rewriteFindings } from './findings/registry.ts';
import { readReviewItems } from './reviewItems.ts';
import { type ItemOutcome, itemOutcome, type Outcome, type ReviewRules, type VerdictRecord } from './reviewOutcome.ts';
import { type ItemRow, ReviewRecords, reviewRules } from './reviewRecords.ts';
import { type ReviewSummary, reviewSummary } from './reviewSummary.ts';
import { type DiffPart, wordDiff } from './textDiff.ts';

/**
 * Which items a session goes through: all; those still to review (no verdict of one's own on their current text and
 * not decided without it — for the adjudicator, the disputed ones not yet settled); the disputed ones.
 */
export type ReviewQueue = 'all' | 'todo' | 'disputed';
export const reviewQueues: readonly ReviewQueue[] = ['all', 'todo', 'disputed'];

export interface ReviewView {
  studyFile: string;
  review: string;
  title?: string;
  annotator: string;
  taxonomy: { code: string; label: string }[];
  rubric?: { levels: string[]; dimensions: { name: string; description?: string }[] };
  verdicts: string[];
  blind: boolean;
  adjudicator?: string;
  /** Reviewers per item for a final verdict. */
  required: number;
}

export interface ReviewVersionView {
  id: number;
  /** Numbered from 1 among the versions the reviewer sees (a blind reviewer's gaps would tell of others' edits). */
  number: number;
  text: string;
  author: string;
  at: string;
  /** The version an edit was made from. */
  basedOn?: number;
  /** A version of the item as the items file has it now (not an earlier generated text or its edits). */
  current: boolean;
  /** The automatic findings on this version's text (current versions only: a verdict may judge any of them). */
  findings?: ReviewFinding[];
}

export interface ReviewVerdictView {
  annotator: string;
  verdict: string;
  rubric: Record<string, string>;
  reason?: string;
  at: string;
  versionId: number;
  /** What the verdict amounts to (reviewOutcome.ts): `edit` for accepting an edited text. */
  category?: string;
}

export interface ReviewItemView {
  position: number;
  itemId: string;
  parent?: string;
  /** The parent query's text (the review's `queries`). */
  parentText?: string;
  type?: string;
  typeLabel?: string;
  model?: string;
  source?: string;
  /** The versions this reviewer may see, oldest first (in a blind review, others' edits only after one's verdict). */
  versions: ReviewVersionView[];
  /** The version under review by default: the latest of the current text's versions one may see (a verdict may judge
   * any version of the current text one sees: the adjudicator may accept one reviewer's edit over a later one). */
  reviewing: number;
  /** The version under review against the source (a rewrite) or against the generated text (once edited). */
  diff: DiffPart[];
  diffAgainst?: 'source' | 'original';
  /** The findings on the version under review (`reviewing`); each current version carries its own. */
  findings: ReviewFinding[];
  /** The item's table set by label (the review's `tables`), when it declares one. */
  tables?: { compliant: number; violating: number; offTopic: number };
  /** One's verdict on the current text. */
  mine?: ReviewVerdictView;
  /** One's latest verdict when it judged an earlier text of the item (the items file changed since). */
  earlier?: ReviewVerdictView;
  others: ReviewVerdictView[];
  /** Blind mode is hiding others' verdicts and edits of this item now. */
  hidden: boolean;
  /** What the verdicts decide so far (not while hidden): the final verdict, reviewers counted and required. */
  status?: { final: string; reviewers: number; required: number };
}

export interface ReviewState {
  review: ReviewView;
  queue: ReviewQueue;
  /** Items in the queue. */
  length: number;
  /** Items of the review with this reviewer's verdict on their current text. */
  reviewed: number;
  /** Items of the review. */
  items: number;
}

export interface ReviewCommit {
  position: number;
  itemId: string;
  /** The version under review when the verdict was given (the item's `reviewing`). */
  versionId: number;
  verdict: string;
  rubric?: Record<string, string>;
  reason?: string;
  /** The edited text (the `edit` verdict). */
  text?: string;
}

/**
 * Imports what the review declares: its queries and corpus (the parents' text, the tables' titles and text; all or
 * nothing, as a study's), then its items — new ones with their first version (authored by their generator model), a
 * new generated version when the file's text of an item changed (the item is then to review again) — and the items'
 * table sets from `tables`, in one transaction. Every problem is an error at its file, line and column.
 */
export async function importReviewItems(
  database: StudyDatabase,
  review: ReviewModel,
  folder: string,
): Promise<{ added: number; changed: number; unchanged: number }> {
  if (!review.items) throw new StoreError(`review '${review.name}' declares no items file`);
  const path = review.items.absolutePath ?? resolve(folder, review.items.path);
  const items = await readReviewItems(path, review.items.fields, review.items.path);
  const codes = review.taxonomy.map((t) => t.code);
  const untyped = codes.length > 0 ? items.find((i) => i.type !== undefined && !codes.includes(i.type)) : undefined;
  if (untyped) {
    throw new ImportError(
      { file: review.items.path, line: untyped.line, column: 1 },
      `a type the taxonomy declares (${codes.join(', ')}) for item '${untyped.id}'`,
      `'${untyped.type}'`,
    );
  }
  let tables: GradedQrels | undefined;
  if (review.tables) {
    const tablesPath = review.tables.absolutePath ?? resolve(folder, review.tables.path);
    const firstLines = new Map<string, number>();
    tables = await readGradedQrels(tablesPath, firstLines);
    const ids = new Set(items.map((i) => i.id));
    for (const [id, line] of firstLines) {
      if (!ids.has(id)) {
        throw new FormatError(
          review.tables.path,
          line,
          1,
          `the table set of item '${id}', which ${review.items.path} does not have (a tables qrels is keyed by item id)`,
        );
      }
    }
  }
  if (review.queries || review.corpus) {
    await importDeclaredSources(
      database,
      {
        name: review.name,
        ...(review.queries && { queries: review.queries }),
        ...(review.corpus && { corpus: review.corpus }),
      },
      folder,
    );
  }
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
        .prepare('SELECT text FROM review_item_version WHERE item_id = ? AND based_on IS NULL ORDER BY id DESC LIMIT 1')
        .pluck();
      const insertVersion = db.prepare(
        'INSERT INTO review_item_version (item_id, text, author, created_at) VALUES (?, ?, ?, ?)',
      );
      const clearTables = db.prepare('DELETE FROM review_table WHERE item_id = ?');
      const insertTable = db.prepare('INSERT INTO review_table (item_id, docid, label) VALUES (?, ?, ?)');
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
        } else if (latestGenerated.get(id) !== item.text) {
          insertVersion.run(id, item.text, author, now);
          changed++;
        } else unchanged++;
        // The table set as the file has it now.
        clearTables.run(id);
        for (const [docid, label] of tables?.get(item.id) ?? []) insertTable.run(id, docid, label);
      }
      return { added, changed, unchanged };
    })
    .immediate();
}

const viewOf = (v: VerdictRecord, category?: string): ReviewVerdictView => ({
  annotator: v.annotator,
  verdict: v.verdict,
  rubric: v.rubric,
  ...(v.reason !== null && { reason: v.reason }),
  at: v.at,
  versionId: v.versionId,
  ...(category !== undefined && { category }),
});

export class ReviewSession {
  readonly annotator: string;
  private readonly db: SqliteDatabase;
  private readonly review: ReviewModel;
  private readonly rules: ReviewRules;
  private readonly records: ReviewRecords;
  private readonly studyFile: string;
  private readonly studyId: number;
  private readonly annotatorId: number;
  private readonly now: () => Date;
  private queue: ReviewQueue = 'all';
  /** The queue's items (row ids), fixed when the queue is picked: deciding an item does not move the others. */
  private items: number[];

  private constructor(
    database: StudyDatabase,
    options: { studyFile: string; review: ReviewModel; annotator: string; now?: () => Date },
  ) {
    this.db = database.db;
    this.review = options.review;
    this.rules = reviewRules(options.review);
    this.records = new ReviewRecords(this.db);
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
    this.items = this.allItems();
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

  private allItems(): number[] {
    return this.db
      .prepare('SELECT id FROM review_item WHERE study_id = ? ORDER BY id')
      .pluck()
      .all(this.studyId) as number[];
  }

  private get isAdjudicator(): boolean {
    return this.review.adjudicator === this.annotator;
  }

  private get blind(): boolean {
    return this.review.blind && !this.isAdjudicator;
  }

  /** Items whose current text has this reviewer's verdict. */
  private reviewedCount(): number {
    return this.db
      .prepare(
        `SELECT count(DISTINCT v.item_id) FROM review_verdict AS d
         JOIN review_item_version AS v ON v.id = d.version_id JOIN review_item AS i ON i.id = v.item_id
         WHERE i.study_id = ? AND d.annotator_id = ? AND v.id >= (
           SELECT max(g.id) FROM review_item_version AS g WHERE g.item_id = v.item_id AND g.based_on IS NULL)`,
      )
      .pluck()
      .get(this.studyId, this.annotatorId) as number;
  }

  state(): ReviewState {
    const review = this.review;
    return {
      review: {
        studyFile: this.studyFile,
        review: review.name,
        ...(review.title !== undefined && { title: review.title }),
        annotator: this.annotator,
        taxonomy: review.taxonomy,
        ...(review.rubric && { rubric: review.rubric }),
        verdicts: [...this.rules.verdicts],
        blind: this.blind,
        ...(review.adjudicator !== undefined && { adjudicator: review.adjudicator }),
        required: this.rules.required,
      },
      queue: this.queue,
      length: this.items.length,
      reviewed: this.reviewedCount(),
      items: this.db.prepare('SELECT count(*) FROM review_item WHERE study_id = ?').pluck().get(this.studyId) as number,
    };
  }

  /**
   * Picks the queue (see ReviewQueue): every item, the items still to review, or the disputed ones. The queue holds
   * the items it had when picked, in import order.
   */
  setQueue(queue: ReviewQueue): ReviewState {
    if (!reviewQueues.includes(queue)) {
      throw new StoreError(`expected a queue (${reviewQueues.join(', ')}), found '${String(queue)}'`);
    }
    const all = this.allItems();
    if (queue === 'all') this.items = all;
    else {
      this.items = all.filter((rowId) => {
        const { versions, verdicts } = this.records.records(rowId);
        const outcome = itemOutcome(versions, verdicts, this.rules);
        // A blind reviewer learns of a dispute only on items with their own verdict (where they see the others').
        if (queue === 'disputed') return outcome.final === 'disputed' && (!this.blind || !!this.mineIn(outcome));
        // Still to review: no verdict of one's own on the current text, and not decided without one (by the
        // reviewers asked for, or the adjudicator); for the adjudicator, the disputed items not yet settled.
        if (this.mineIn(outcome)) return false;
        if (this.isAdjudicator) return outcome.final === 'disputed';
        return outcome.final === 'unreviewed' || outcome.final === 'pending';
      });
    }
    this.queue = queue;
    return this.state();
  }

  private mineIn(outcome: ItemOutcome): Outcome | undefined {
    return this.isAdjudicator ? outcome.adjudication : outcome.reviewers.get(this.annotator);
  }

  /** The item at `position` of the queue (null past the end). */
  itemAt(position: number): ReviewItemView | null {
    if (!Number.isInteger(position) || position < 0) throw new StoreError(`expected a position ≥ 0, found ${position}`);
    const rowId = this.items[position];
    if (rowId === undefined) return null;
    return this.view(position, this.records.itemById(rowId));
  }

  /**
   * An item as this reviewer may see it: what its verdicts decide, one's own outcome, whether blind mode hides the
   * others, the versions one sees and which of them are current (a verdict may judge any of those).
   */
  private seen(item: ItemRow) {
    const { versions, verdicts } = this.records.records(item.id);
    const outcome = itemOutcome(versions, verdicts, this.rules);
    const current = new Set(outcome.round.map((v) => v.id));
    const mine = this.mineIn(outcome);
    const hidden = this.blind && mine === undefined;
    // Before one's own verdict in a blind review: the generated texts only, so no one else's edit shows.
    const visible = hidden ? versions.filter((v) => v.basedOn === null) : versions;
    return { verdicts, outcome, current, mine, hidden, visible };
  }

  private view(position: number, item: ItemRow): ReviewItemView {
    const { verdicts, outcome, current, mine, hidden, visible } = this.seen(item);
    // Numbered among what one sees: "version 1, version 3" would tell a blind reviewer that someone edited.
    const number = new Map(visible.map((v, i) => [v.id, i + 1]));
    const reviewing = visible.filter((v) => current.has(v.id)).at(-1)!;
    const source = item.source;
    const against = source ?? (reviewing.id !== outcome.root.id ? outcome.root.text : undefined);
    const parentText =
      item.parent === null
        ? undefined
        : (this.db
            .prepare('SELECT text FROM query WHERE study_id = ? AND qid = ?')
            .pluck()
            .get(this.studyId, item.parent) as string | undefined);
    let tables: ReviewItemView['tables'];
    let tableSet: Parameters<typeof instructionFindings>[0]['tables'] | undefined;
    if (this.review.tables) {
      const rows = this.db
        .prepare(
          `SELECT t.docid AS id, t.label, d.title, d.body AS text FROM review_table AS t
           LEFT JOIN document AS d ON d.study_id = ? AND d.docid = t.docid WHERE t.item_id = ? ORDER BY t.docid`,
        )
        .all(this.studyId, item.id) as { id: string; label: number; title: string | null; text: string | null }[];
      const set = rows.map((r) => ({
        id: r.id,
        label: r.label,
        ...(r.title !== null && { title: r.title }),
        ...(r.text !== null && { text: r.text }),
      }));
      tableSet = set;
      tables = {
        compliant: set.filter((t) => t.label === 2).length,
        violating: set.filter((t) => t.label === 1).length,
        offTopic: set.filter((t) => t.label !== 1 && t.label !== 2).length,
      };
    }
    // A type the taxonomy calls an expansion ("QE" "Query expansion") marks rewrites meant to grow.
    const typeLabel = item.type === null ? undefined : this.review.taxonomy.find((t) => t.code === item.type)?.label;
    const expansion = item.type !== null && /expan/i.test(`${item.type} ${typeLabel ?? ''}`);
    const findingsOf = (text: string): ReviewFinding[] => [
      ...(source !== undefined ? rewriteFindings({ source, rewrite: text, declaredChanges: 1, expansion }) : []),
      ...(tableSet ? instructionFindings({ instruction: text, tables: tableSet }) : []),
    ];
    const findingsByVersion = new Map(
      visible.filter((v) => current.has(v.id)).map((v) => [v.id, findingsOf(v.text)] as const),
    );
    const findings = findingsByVersion.get(reviewing.id)!;
    const mineLatest = [...verdicts].reverse().find((v) => v.annotator === this.annotator);
    const others: ReviewVerdictView[] = [];
    if (!hidden) {
      for (const [name, o] of outcome.reviewers)
        if (name !== this.annotator) others.push(viewOf(o.verdict, o.category));
      const adjudication = outcome.adjudication;
      if (adjudication && !this.isAdjudicator) others.push(viewOf(adjudication.verdict, adjudication.category));
    }
    // The critic's rating pre-fills the rubric: not before one's own verdict in a blind review.
    if (!hidden) {
      const critics = new Map<string, VerdictRecord>();
      for (const v of verdicts)
        if (v.annotator.startsWith('llm:') && current.has(v.versionId)) critics.set(v.annotator, v);
      for (const v of critics.values()) others.push(viewOf(v));
    }
    others.sort((a, b) => (a.annotator < b.annotator ? -1 : a.annotator > b.annotator ? 1 : 0));
    return {
      position,
      itemId: item.itemId,
      ...(item.parent !== null && { parent: item.parent }),
      ...(parentText !== undefined && { parentText }),
      ...(item.type !== null && { type: item.type }),
      ...(item.type !== null && {
        typeLabel: this.review.taxonomy.find((t) => t.code === item.type)?.label ?? item.type,
      }),
      ...(item.model !== null && { model: item.model }),
      ...(source !== undefined && { source }),
      versions: visible.map((v) => ({
        id: v.id,
        number: number.get(v.id)!,
        text: v.text,
        author: v.author,
        at: v.at,
        ...(v.basedOn !== null && { basedOn: v.basedOn }),
        current: current.has(v.id),
        ...(findingsByVersion.has(v.id) && { findings: findingsByVersion.get(v.id)! }),
      })),
      reviewing: reviewing.id,
      diff: against === undefined ? [] : wordDiff(against, reviewing.text),
      ...(against !== undefined && { diffAgainst: source !== undefined ? ('source' as const) : ('original' as const) }),
      findings,
      ...(tables && { tables }),
      ...(mine && { mine: viewOf(mine.verdict, mine.category) }),
      ...(!mine && mineLatest && { earlier: viewOf(mineLatest) }),
      others,
      hidden,
      ...(!hidden && {
        status: { final: outcome.final, reviewers: outcome.reviewers.size, required: this.rules.required },
      }),
    };
  }

  /**
   * What the review decided so far (reviewSummary.ts); for a reviewer in a blind review, over the items with their
   * own verdict only (the counts of the others would tell what others decided).
   */
  summary(): ReviewSummary {
    return reviewSummary(
      this.db,
      this.studyId,
      this.review,
      this.blind ? { only: (outcome) => !!this.mineIn(outcome), scope: 'the items you have reviewed' } : {},
    );
  }

  /** Stores a verdict (one transaction; an `edit` stores the new version first) and returns the item as it now is. */
  commit(commit: ReviewCommit): { state: ReviewState; item: ReviewItemView } {
    const rowId = this.items[commit.position];
    const item = rowId === undefined ? undefined : this.records.itemById(rowId);
    if (!item || item.itemId !== commit.itemId) {
      throw new StoreError(
        `expected item '${item?.itemId ?? '(none)'}' at position ${commit.position}, found '${commit.itemId}'`,
      );
    }
    const verdicts = this.rules.verdicts;
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
        // Checked inside the transaction: the items file may have been imported again since the view showed it.
        const { current, visible } = this.seen(item);
        const reviewed = visible.find((v) => v.id === commit.versionId && current.has(v.id));
        if (!reviewed) {
          throw new StoreError(
            `item '${item.itemId}' changed since it was shown (the version judged is not one of its current ` +
              'versions you may see): look at it again',
          );
        }
        if (commit.verdict === 'edit') {
          const text = commit.text?.trim() ?? '';
          if (text === '' || text === reviewed.text.trim()) {
            throw new StoreError('an edit needs the edited text, different from the version under review');
          }
          this.db
            .prepare(
              'INSERT INTO review_item_version (item_id, text, author, created_at, based_on) VALUES (?, ?, ?, ?, ?)',
            )
            .run(item.id, text, this.annotator, at, reviewed.id);
        }
        this.db
          .prepare(
            `INSERT INTO review_verdict (version_id, annotator_id, verdict, rubric, rationale, created_at)
             VALUES (?, ?, ?, ?, ?, ?)`,
          )
          .run(
            reviewed.id,
            this.annotatorId,
            commit.verdict,
            JSON.stringify(rubric),
            reason === '' ? null : reason,
            at,
          );
      })
      .immediate();
    return { state: this.state(), item: this.view(commit.position, item) };
  }
}
