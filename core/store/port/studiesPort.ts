// The studies of a study file as the record holds them: syncing the file's model in, finding a study's id, the
// one rule for adding an annotator (every feature that records a name — a label, a judge call, a review verdict,
// an import — goes through ensureAnnotator, so a person and an LLM judge can never share a name), and what the
// Studies view, the status bar and the judge read about a study as a whole.
import type { StudyFileModel } from '../../dsl/model.ts';
import type { DocumentFormat } from '../../labelling/types.ts';
import type { SyncReport } from '../studyDatabase.ts';

export type AnnotatorKind = 'human' | 'llm';

/**
 * The counts a study's progress is made from (core/store/studyProgress.ts turns them into the progress shown), read
 * in one transaction so they agree with each other.
 */
export interface ProgressCounts {
  pairs: number;
  /** Every annotator of the record, by id. */
  annotators: { id: number; name: string; kind: AnnotatorKind }[];
  /**
   * The pairs grouped by the annotators with a judgment of them that is not retracted: each distinct list of
   * annotator ids (in judgment-index order, an id repeated after a relabel) and how many pairs have it.
   */
  judgedGroups: { annotators: number[]; pairs: number }[];
  /**
   * Only when an LLM judge suggested labels in the study: per annotator with suggestions, the pairs it suggested a
   * label for or judged; and the pairs with a parsed suggestion that nobody has judged.
   */
  suggestions?: { byAnnotator: [id: number, pairs: number][]; onlySuggested: number };
  /** Pairs assigned per annotator id. */
  assigned: [id: number, pairs: number][];
  /** The study's model as last synced (StudiesPort.sync), as stored: its `annotators` and `adjudicator` count. */
  model: unknown;
}

export interface StudiesPort {
  /** Makes the record say what the study file says (see StudyDatabase.syncStudies). One transaction. */
  sync(model: StudyFileModel, now?: Date): Promise<SyncReport>;
  /** The id of study `name`; a StoreError naming the known studies when there is none. */
  studyId(name: string): Promise<number>;
  /**
   * The id of annotator `name`, added as `kind` (default: `llm` for `llm:…` names, else `human`) if new; a
   * StoreError when the name is recorded as the other kind. Adapters use the same rule inside their own writes.
   */
  ensureAnnotator(name: string, kind?: AnnotatorKind): Promise<number>;
  /** Whether study `name` is in the record with pairs or documents (false when it is not in the record). */
  hasImported(name: string): Promise<boolean>;
  /** What study `name`'s progress is counted from; a StoreError when there is no such study. */
  progressCounts(name: string): Promise<ProgressCounts>;
  /**
   * Up to `limit` documents of study `name` as the judge will see them: those of its pairs, in pair order (first
   * pair of each document); when it has no pairs, its corpus's first documents.
   */
  sampleDocuments(name: string, limit: number): Promise<{ body: string; format: DocumentFormat }[]>;
  /** The ids of study `name`'s queries. */
  queryIds(name: string): Promise<string[]>;
}
