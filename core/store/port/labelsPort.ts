// What labelling asks of the record: judgments and their retractions, assignment, queues, cursors and the counts
// a Label view shows. core/labelling/labelSession.ts holds the rules (blind mode, scale, undo, which pairs an
// annotator sees); this port holds the reads and writes, each one transaction. Everything a Label view does per
// pair — show it, store a label, undo — is a handful of indexed lookups here, so a study of a million pairs labels
// as fast as a small one; the one heavy read (a queue) comes back as a typed array.
import type { QueryFields } from '../../labelling/queryConditions.ts';
import type { DocumentFormat, QueueOrder } from '../../labelling/types.ts';
import type { NewJudgment } from '../studyDatabase.ts';

/** Whose pairs: an annotator of a study, and whether only their assignment (false: every pair of the study). */
export interface LabelScope {
  studyId: number;
  annotatorId: number;
  /** Only the pairs assigned to the annotator (false: every pair of the study). */
  assignedOnly: boolean;
}

/** Where an annotator is in their own queue, as saved (the Label view reopens there). */
export interface LabelCursor {
  order: QueueOrder;
  unlabelledOnly: boolean;
  /** The pair they were at; null for an empty queue. */
  pairId: number | null;
}

/** A cursor to save, with the time it is stamped with (ISO). */
export interface LabelCursorWrite extends LabelCursor {
  studyId: number;
  annotatorId: number;
  at: string;
}

/** A document as the record holds it (metadata: the stored JSON text). */
export interface DocumentRecord {
  docid: string;
  title: string | null;
  body: string;
  format: DocumentFormat;
  parentDocid: string | null;
  metadata: string | null;
  /** The ids of every chunk of its parent (itself included), in no particular order; absent without a parent. */
  siblings?: string[];
}

/** An annotator's current (latest, not retracted) judgment of a pair, with its answers. */
export interface MyJudgmentRecord {
  id: number;
  label: number;
  createdAt: string;
  rationale: string | null;
  /** Answered conditions, numbered from 1. */
  conditions: { condition: number; satisfied: boolean }[];
  /** Aspect answers as stored: 1/0 for yes/no aspects, the level for graded ones; by aspect name. */
  aspects: { aspect: string; answer: number }[];
}

/** Everything a Label view shows of one pair, for one annotator, as the record holds it. */
export interface PairRecord {
  pairId: number;
  qid: string;
  docid: string;
  bestRank: number | null;
  /** Absent when the study's queries have no query by that id. */
  query?: QueryFields;
  /** Absent when the corpus has no document by that id. */
  document?: DocumentRecord;
  mine?: MyJudgmentRecord;
  /** The other annotators' current labels, by kind then name. */
  others: { annotator: string; kind: string; label: number; source: string; rationale: string | null; at: string }[];
  /** Each judge's latest suggestion, by judge name. */
  suggestions: { judge: string; label: number | null; rationale: string | null; confidence: number | null }[];
}

/** One label to store (LabelSession.commit has checked it against the study's rules). */
export interface LabelCommit {
  studyId: number;
  pairId: number;
  annotatorId: number;
  label: number;
  /** 'manual' or 'adjudicated': what the judgment's source is, unless `suggestion` makes it 'suggestion'. */
  source: 'manual' | 'adjudicated';
  /**
   * The source is 'suggestion' when a judge's latest suggestion for the pair says `label` — and, with
   * `onlyIfLabelled`, only when the annotator had a current label of the pair before this one (blind mode: before
   * it, they saw no suggestion).
   */
  suggestion?: { label: number; onlyIfLabelled: boolean };
  note: string | null;
  shownLabel: number | null;
  /** Condition answers, condition i + 1 at index i. */
  conditions: boolean[];
  /** Aspect answers as stored (1/0 for yes/no). */
  aspects: { aspect: string; answer: number }[];
  /** The time to stamp (ISO); a later one when the annotator already has a judgment of the pair at or after it. */
  at: string;
  /** The cursor to save in the same transaction, if any. */
  cursor?: LabelCursorWrite;
  /**
   * The commit's own id (a UUID), the same when it is sent again: a judgment already stored with it is returned as it
   * was stored (labelledBefore: whether the annotator had a current label of the pair before it) and nothing is
   * written — a commit whose reply was lost can be retried without storing the label twice.
   */
  clientId?: string;
}

/** The retraction of one judgment (undo), with the cursor to save in the same transaction. */
export interface LabelRetraction {
  studyId: number;
  judgmentId: number;
  pairId: number;
  annotatorId: number;
  at: string;
  cursor?: LabelCursorWrite;
}

export interface LabelsPort {
  /** One judgment, committed before the promise resolves. */
  addJudgment(judgment: NewJudgment): Promise<{ id: number; createdAt: string }>;
  /**
   * Assigns study `studyId`'s pairs that have no assignment yet, round-robin by pair id: the r-th (from 0) goes to
   * annotators (r·overlap + j) mod n, j = 0…overlap-1 (core/labelling/assignment.ts checks the inputs). Adds the
   * annotators not recorded yet. Returns how many pairs it assigned.
   */
  assignPairs(studyId: number, annotators: readonly string[], overlap: number, at: string): Promise<number>;
  /** The pair ids of the annotator's queue in `order` (see core/labelling/labelQueue.ts for what each order is). */
  labelQueue(scope: LabelScope & { unlabelledOnly: boolean }, order: QueueOrder): Promise<Int32Array>;
  /** The pairs in scope, and how many of them the annotator has a current label for. */
  labelProgress(scope: LabelScope): Promise<{ assigned: number; judged: number }>;
  /**
   * The study as last synced (its model's JSON), and whether it was in the latest sync of the file (a study renamed
   * or removed from its file was not); undefined when there is no such study.
   */
  syncedStudy(studyId: number): Promise<{ model: string; latest: boolean } | undefined>;
  /** Where the annotator was in the study's queue; undefined when they never labelled there. */
  labelCursor(studyId: number, annotatorId: number): Promise<LabelCursor | undefined>;
  saveLabelCursor(cursor: LabelCursorWrite): Promise<void>;
  /** A pair as annotator `annotatorId` is shown it (a StoreError when the study has no such pair). */
  pairRecord(studyId: number, annotatorId: number, pairId: number): Promise<PairRecord>;
  /** The query of a pair (its qid, and the query when the study has it). */
  pairQuery(studyId: number, pairId: number): Promise<{ qid: string; query?: QueryFields }>;
  /** A document of the study by id; undefined when the corpus has none. */
  documentRecord(studyId: number, docid: string): Promise<DocumentRecord | undefined>;
  /** Of `pairIds`, those that are not pairs of the study, in the order given. */
  pairsNotInStudy(studyId: number, pairIds: readonly number[]): Promise<number[]>;
  /** Whether the pair is one the annotator labels: a pair of the study, assigned to them when `assignedOnly`. */
  inLabelScope(scope: LabelScope, pairId: number): Promise<boolean>;
  /**
   * Stores one label in one transaction: the judgment (stamped after the annotator's latest judgment of the pair),
   * its condition and aspect answers, and the cursor. `labelledBefore`: the annotator had a current label of it.
   */
  commitLabel(commit: LabelCommit): Promise<{ judgmentId: number; createdAt: string; labelledBefore: boolean }>;
  /**
   * Retracts one judgment and saves the cursor, in one transaction. `retracted` false: it was already retracted
   * (nothing written). `stillLabelled`: the annotator has a current label of the pair after it (an earlier one).
   */
  retractLabel(retraction: LabelRetraction): Promise<{ retracted: boolean; stillLabelled: boolean }>;
}
