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
import type { ReviewItemDetail } from '../store/port/reviewsPort.ts';
import { StoreError } from '../store/studyDatabase.ts';
import type { StudyStore } from '../store/studyStore.ts';
import type { ReviewFinding } from './findings/finding.ts';
import { instructionFindings, rewriteFindings } from './findings/registry.ts';
import { readReviewItems } from './reviewItems.ts';
import { type ItemOutcome, itemOutcome, type Outcome, type ReviewRules, type VerdictRecord } from './reviewOutcome.ts';
import { type ItemRecords, reviewRules } from './reviewRecords.ts';
import { reviewSummary } from './reviewSummary.ts';
import {
  type ReviewCommit,
  type ReviewItemView,
  type ReviewQueue,
  type ReviewState,
  type ReviewSummary,
  type ReviewVerdictView,
  reviewQueues,
} from './reviewTypes.ts';
import { wordDiff } from './textDiff.ts';

export type {
  ReviewCommit,
  ReviewItemView,
  ReviewQueue,
  ReviewState,
  ReviewVerdictView,
  ReviewVersionView,
  ReviewView,
} from './reviewTypes.ts';
export { reviewQueues } from './reviewTypes.ts';

/** What a review declares to import besides its items: its queries and corpus, as a study's. */
export type DeclaredSources = Parameters<typeof importDeclaredSources>[1];

export interface ReviewImportOptions {
  /**
   * Imports the review's declared queries and corpus (all or nothing). Default: importDeclaredSources into the
   * store, here; the extension runs it in its store's worker (an import reads files as streams, which cannot cross
   * to the worker).
   */
  importSources?: (sources: DeclaredSources, folder: string) => Promise<unknown>;
}

/**
 * Imports what the review declares: its queries and corpus (the parents' text, the tables' titles and text; all or
 * nothing, as a study's), then its items — new ones with their first version (authored by their generator model), a
 * new generated version when the file's text of an item changed (the item is then to review again) — and the items'
 * table sets from `tables`, in one transaction. Every problem is an error at its file, line and column.
 */
export async function importReviewItems(
  store: StudyStore,
  review: ReviewModel,
  folder: string,
  options: ReviewImportOptions = {},
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
    const sources: DeclaredSources = {
      name: review.name,
      ...(review.queries && { queries: review.queries }),
      ...(review.corpus && { corpus: review.corpus }),
    };
    await (options.importSources ?? ((study, from) => importDeclaredSources(store, study, from)))(sources, folder);
  }
  return store.reviews.importItems(
    review.name,
    items.map((item) => ({
      id: item.id,
      text: item.text,
      ...(item.parent !== undefined && { parent: item.parent }),
      ...(item.type !== undefined && { type: item.type }),
      ...(item.model !== undefined && { model: item.model }),
      ...(item.source !== undefined && { source: item.source }),
    })),
    tables,
    new Date().toISOString(),
  );
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

interface SessionOptions {
  studyFile: string;
  review: ReviewModel;
  annotator: string;
  now?: () => Date;
}

export class ReviewSession {
  readonly annotator: string;
  private readonly store: StudyStore;
  private readonly review: ReviewModel;
  private readonly rules: ReviewRules;
  private readonly studyFile: string;
  private readonly now: () => Date;
  private queue: ReviewQueue = 'all';
  /** The queue's items (row ids), fixed when the queue is picked: deciding an item does not move the others. */
  private items: number[];

  private constructor(store: StudyStore, options: SessionOptions, items: number[]) {
    this.store = store;
    this.review = options.review;
    this.rules = reviewRules(options.review);
    this.studyFile = options.studyFile;
    this.annotator = options.annotator;
    this.now = options.now ?? (() => new Date());
    this.items = items;
  }

  /** A reviewer's session on a review whose items are imported; a reviewer the review does not name is refused. */
  static async open(store: StudyStore, options: SessionOptions): Promise<ReviewSession> {
    const { review, annotator } = options;
    if (annotator.trim() === '' || annotator.startsWith('llm:')) {
      throw new StoreError(`'${annotator}' cannot review: the setting qrelsStudio.annotator names a person`);
    }
    if (review.annotators.length > 0 && !review.annotators.includes(annotator) && review.adjudicator !== annotator) {
      throw new StoreError(
        `'${annotator}' is not a reviewer of '${review.name}' (its annotators: ${review.annotators.join(', ')})`,
      );
    }
    await store.studies.studyId(review.name);
    // The reviewer is on record from the session's start (a person: a judge's name is refused).
    await store.studies.ensureAnnotator(annotator, 'human');
    const items = (await store.reviews.items(review.name)).map((item) => item.id);
    return new ReviewSession(store, options, items);
  }

  private get isAdjudicator(): boolean {
    return this.review.adjudicator === this.annotator;
  }

  private get blind(): boolean {
    return this.review.blind && !this.isAdjudicator;
  }

  async state(): Promise<ReviewState> {
    const review = this.review;
    const progress = await this.store.reviews.progress(review.name, this.annotator);
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
      reviewed: progress.reviewed,
      items: progress.items,
    };
  }

  /**
   * Picks the queue (see ReviewQueue): every item, the items still to review, or the disputed ones. The queue holds
   * the items it had when picked, in import order.
   */
  async setQueue(queue: ReviewQueue): Promise<ReviewState> {
    if (!reviewQueues.includes(queue)) {
      throw new StoreError(`expected a queue (${reviewQueues.join(', ')}), found '${String(queue)}'`);
    }
    if (queue === 'all') this.items = (await this.store.reviews.items(this.review.name)).map((item) => item.id);
    else {
      const all = await this.store.reviews.records(this.review.name);
      this.items = all
        .filter(({ versions, verdicts }) => {
          const outcome = itemOutcome(versions, verdicts, this.rules);
          // A blind reviewer learns of a dispute only on items with their own verdict (where they see the others').
          if (queue === 'disputed') return outcome.final === 'disputed' && (!this.blind || !!this.mineIn(outcome));
          // Still to review: no verdict of one's own on the current text, and not decided without one (by the
          // reviewers asked for, or the adjudicator); for the adjudicator, the disputed items not yet settled.
          if (this.mineIn(outcome)) return false;
          if (this.isAdjudicator) return outcome.final === 'disputed';
          return outcome.final === 'unreviewed' || outcome.final === 'pending';
        })
        .map(({ item }) => item.id);
    }
    this.queue = queue;
    return this.state();
  }

  private mineIn(outcome: ItemOutcome): Outcome | undefined {
    return this.isAdjudicator ? outcome.adjudication : outcome.reviewers.get(this.annotator);
  }

  /** The item at `position` of the queue (null past the end). */
  async itemAt(position: number): Promise<ReviewItemView | null> {
    if (!Number.isInteger(position) || position < 0) throw new StoreError(`expected a position ≥ 0, found ${position}`);
    const detail = await this.itemIn(position);
    return detail === undefined ? null : this.view(position, detail);
  }

  /** The stored item at `position` of the queue, with its records (undefined past the end). */
  private async itemIn(position: number): Promise<ReviewItemDetail | undefined> {
    const rowId = this.items[position];
    if (rowId === undefined) return undefined;
    return this.store.reviews.item(this.review.name, rowId, { tables: this.review.tables !== undefined });
  }

  /**
   * An item as this reviewer may see it: what its verdicts decide, one's own outcome, whether blind mode hides the
   * others, the versions one sees and which of them are current (a verdict may judge any of those).
   */
  private seen({ versions, verdicts }: ItemRecords) {
    const outcome = itemOutcome(versions, verdicts, this.rules);
    const current = new Set(outcome.round.map((v) => v.id));
    const mine = this.mineIn(outcome);
    const hidden = this.blind && mine === undefined;
    // Before one's own verdict in a blind review: the generated texts only, so no one else's edit shows.
    const visible = hidden ? versions.filter((v) => v.basedOn === null) : versions;
    return { verdicts, outcome, current, mine, hidden, visible };
  }

  private view(position: number, detail: ReviewItemDetail): ReviewItemView {
    const { item, parentText } = detail;
    const { verdicts, outcome, current, mine, hidden, visible } = this.seen(detail);
    // Numbered among what one sees: "version 1, version 3" would tell a blind reviewer that someone edited.
    const number = new Map(visible.map((v, i) => [v.id, i + 1]));
    const reviewing = visible.filter((v) => current.has(v.id)).at(-1)!;
    const source = item.source;
    const against = source ?? (reviewing.id !== outcome.root.id ? outcome.root.text : undefined);
    let tables: ReviewItemView['tables'];
    let tableSet: Parameters<typeof instructionFindings>[0]['tables'] | undefined;
    if (this.review.tables) {
      const set = detail.tables ?? [];
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
  async summary(): Promise<ReviewSummary> {
    return reviewSummary(
      this.store,
      this.review,
      this.blind ? { only: (outcome) => !!this.mineIn(outcome), scope: 'the items you have reviewed' } : {},
    );
  }

  /** Stores a verdict (one transaction; an `edit` stores the new version first) and returns the item as it now is. */
  async commit(commit: ReviewCommit): Promise<{ state: ReviewState; item: ReviewItemView }> {
    const detail = await this.itemIn(commit.position);
    const item = detail?.item;
    if (!detail || !item || item.itemId !== commit.itemId) {
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
    const { current, visible, outcome } = this.seen(detail);
    const reviewed = visible.find((v) => v.id === commit.versionId && current.has(v.id));
    if (!reviewed) {
      throw new StoreError(
        `item '${item.itemId}' changed since it was shown (the version judged is not one of its current ` +
          'versions you may see): look at it again',
      );
    }
    let text: string | undefined;
    if (commit.verdict === 'edit') {
      text = commit.text?.trim() ?? '';
      if (text === '' || text === reviewed.text.trim()) {
        throw new StoreError('an edit needs the edited text, different from the version under review');
      }
    }
    // The store refuses it (nothing written) if the items file was imported again since: the round checked here is
    // the one of the root it names.
    await this.store.reviews.recordVerdicts(
      this.review.name,
      [
        {
          item: item.id,
          versionId: reviewed.id,
          reviewer: this.annotator,
          verdict: commit.verdict,
          rubric,
          reason: reason === '' ? null : reason,
          ...(text !== undefined && { text }),
          root: outcome.root.id,
        },
      ],
      this.now().toISOString(),
    );
    const [state, now] = await Promise.all([this.state(), this.itemIn(commit.position)]);
    return { state, item: this.view(commit.position, now!) };
  }
}
