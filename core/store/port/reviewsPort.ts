// What the review of generated text asks of the record: a review's items with their versions (generated texts and
// reviewers' edits) and verdicts, the items' table sets, the reviewers' and the LLM critic's verdicts. Reviews are
// named as their study rows are (the review block's name). What the verdicts decide (reviewOutcome.ts), who may see
// what (blind mode) and which verdicts are valid stay in core/review/: these methods read and write the record.
import type { VerdictRecord, VersionRecord } from '../../review/reviewOutcome.ts';

/** An item as the items file gives it (reviewItems.ts), to import. */
export interface ReviewItemInput {
  id: string;
  text: string;
  parent?: string;
  type?: string;
  model?: string;
  /** The rewrite's source text. */
  source?: string;
}

/** An item as stored. */
export interface ReviewItemRow {
  /** The item's row id: what the other methods name it by. */
  id: number;
  itemId: string;
  parent: string | null;
  type: string | null;
  model: string | null;
  /** The rewrite's source text, when the items file gives one. */
  source?: string;
}

/** An item with every version (oldest first) and every verdict on any of them (in the order given). */
export interface ReviewItemRecords {
  item: ReviewItemRow;
  versions: VersionRecord[];
  verdicts: VerdictRecord[];
}

/** One document of an item's table set, with its title and text when the review's corpus has it. */
export interface ReviewTableDocument {
  id: string;
  label: number;
  title?: string;
  text?: string;
}

/** An item as the Review view shows it: its records, its parent query's text, its table set. */
export interface ReviewItemDetail extends ReviewItemRecords {
  parentText?: string;
  /** The item's table set by document id (when asked for). */
  tables?: ReviewTableDocument[];
}

/** A verdict to store. */
export interface NewReviewVerdict {
  /** The item's row id. */
  item: number;
  /** The version judged (for an edit: the version edited). */
  versionId: number;
  /** A person's name (added as a person if new), or the critic's `llm:…` name (recordCriticVerdict). */
  reviewer: string;
  verdict: string;
  rubric: Record<string, string>;
  reason: string | null;
  /** An edit's text: stored first as a new version made from `versionId`, authored by the reviewer. */
  text?: string;
  /**
   * The item's latest generated version when the verdict was decided on: when the items file was imported again
   * since (another generated version), nothing is stored and the write is a StoreError saying to look again.
   */
  root?: number;
}

/** An item for the LLM critic: its latest generated version, and whether the critic rated that version already. */
export interface CriticItem {
  item: ReviewItemRow;
  parentText?: string;
  versionId: number;
  text: string;
  rated: boolean;
}

export interface ReviewsPort {
  /**
   * Imports a review's items, one transaction: a new item with its first version (authored by its model, else
   * `generator`), a new generated version when an item's text changed, and each item's table set replaced by
   * `tables`' (docid → label; none when not given). `at` is an ISO time.
   */
  importItems(
    review: string,
    items: readonly ReviewItemInput[],
    tables: ReadonlyMap<string, ReadonlyMap<string, number>> | undefined,
    at: string,
  ): Promise<{ added: number; changed: number; unchanged: number }>;
  /** The review's items in import order. */
  items(review: string): Promise<ReviewItemRow[]>;
  /** Every item of the review in import order, with its versions and verdicts. */
  records(review: string): Promise<ReviewItemRecords[]>;
  /** One item (by row id) with its records, parent text and (`tables`) table set; undefined if not the review's. */
  item(review: string, item: number, options?: { tables?: boolean }): Promise<ReviewItemDetail | undefined>;
  /** Items of the review, and those whose current text (latest generated version or later) `reviewer` judged. */
  progress(review: string, reviewer: string): Promise<{ items: number; reviewed: number }>;
  /** Stores people's verdicts (edits' versions first), all or none, at ISO time `at`. */
  recordVerdicts(review: string, verdicts: readonly NewReviewVerdict[], at: string): Promise<void>;
  /** The review's items as the critic rates them (import order), and whether critic `critic` rated each already. */
  criticItems(review: string, critic: string): Promise<CriticItem[]>;
  /** Stores an LLM critic's verdict (the critic added as an LLM if new) at ISO time `at`. */
  recordCriticVerdict(review: string, verdict: Omit<NewReviewVerdict, 'text'>, at: string): Promise<void>;
}
