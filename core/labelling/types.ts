// What a labelling session hands the Label view: plain, structured-clone-safe data (webview/protocol.ts carries it).
// The host decides what an annotator may see (blind mode); the view shows what it gets and keeps no state of its own.
import type { AspectAnswer } from '../dsl/evaluateDerive.ts';
import type { AspectModel, DeriveExpression, ScaleEntryModel } from '../dsl/model.ts';

/** How the queue is ordered. */
export type QueueOrder =
  /** Query by query (import order of the queries), each query's pairs by best pool rank. */
  | 'query'
  /** Best pool rank across all queries first (rank 1 of every query, then rank 2, …). */
  | 'rank'
  /** Pairs whose LLM suggestions are least confident first; pairs without a suggestion last. */
  | 'confidence'
  /** Pairs whose current labels (any annotator, LLM judges included) disagree first, most distinct labels first. */
  | 'disagreement';

export interface QueueSettings {
  order: QueueOrder;
  /** Only pairs this annotator has not labelled yet (when the queue is built; labelling does not reshuffle it). */
  unlabelledOnly: boolean;
}

export type DocumentFormat = 'plain' | 'markdown' | 'html' | 'table-json' | 'code';

export interface DocumentView {
  docid: string;
  title?: string;
  body: string;
  format: DocumentFormat;
  /** Other fields of the corpus record, as imported. */
  metadata: Record<string, unknown>;
  parentDocid?: string;
  /** Chunks of the same parent before and after this one (import order), for "show neighbouring chunks". */
  chunk?: { index: number; count: number; previousDocid?: string; nextDocid?: string };
}

export interface QueryView {
  qid: string;
  text: string;
  instruction?: string;
  /** The study's `conditions from FIELD`, split into numbered conditions (1-based in the store). */
  conditions: string[];
  type?: string;
  metadata: Record<string, unknown>;
}

/** A label some other annotator (human or LLM judge) gave, shown only when the study is not blind or after labelling. */
export interface OtherLabel {
  annotator: string;
  kind: 'human' | 'llm';
  label: number;
  source: string;
  rationale?: string;
  at: string;
}

export interface SuggestionView {
  judge: string;
  /** null: the judge's output could not be parsed into a label. */
  label: number | null;
  rationale?: string;
  /** Share of votes for the label, 0–1, when the judge voted. */
  confidence?: number;
}

export interface MyLabel {
  label: number;
  at: string;
  note?: string;
  conditions: boolean[];
  /** Yes/no aspects: true or false; graded aspects (`levels`): the level. */
  aspects: Record<string, AspectAnswer>;
}

export interface PairView {
  /** Position in the current queue (0-based) and the queue's version: a reordered queue is a new version. */
  position: number;
  queueVersion: number;
  pairId: number;
  bestRank?: number;
  query: QueryView;
  /** Missing when the corpus does not have the document (a run or qrels file named it). */
  document?: DocumentView;
  /** This annotator's current label, if any. */
  mine?: MyLabel;
  /** Empty in blind mode until this annotator has labelled the pair. */
  others: OtherLabel[];
  suggestions: SuggestionView[];
  /** True when blind mode is hiding other labels and suggestions of this pair right now. */
  hidden: boolean;
}

export interface Progress {
  /** Pairs in this annotator's assignment (all pairs when the study assigns none). */
  assigned: number;
  /** Of those, labelled by this annotator. */
  judged: number;
}

export interface StudyView {
  studyFile: string;
  study: string;
  title?: string;
  annotator: string;
  scale: ScaleEntryModel[];
  /** A graded aspect carries its `levels`. */
  aspects: AspectModel[];
  hasConditions: boolean;
  /** The study has a `derive` rule: toggling aspects and conditions proposes a label (Enter commits it). */
  derives: boolean;
  /** The `derive` rule itself, so the view can propose the label as toggles change (core/dsl/evaluateDerive.ts). */
  derive?: DeriveExpression;
  /** The study's adjudicator: never blind. */
  adjudicator?: string;
  blind: boolean;
  /** Guidelines file as written in the study file, if it declares one. */
  guidelines?: string;
}

export interface SessionState {
  study: StudyView;
  queue: QueueSettings & {
    version: number;
    length: number;
    /** An adjudication queue (LabelSession.adjudicate) is on screen instead of the annotator's own queue. */
    adjudication?: { title: string };
  };
  progress: Progress;
  /** Where the annotator was (or 0). */
  position: number;
}

export interface CommitLabel {
  /** The pair's position in the queue; -1 for a pair the queue does not hold (undone after a reorder left it out). */
  position: number;
  pairId: number;
  label: number;
  note?: string;
  conditions?: boolean[];
  aspects?: Record<string, AspectAnswer>;
  /** What the view showed before the decision (a suggestion's label), recorded with the judgment. */
  shownLabel?: number;
  /**
   * The commit's own id (a UUID): a caller that retries a commit it got no answer for (the connection to the record
   * dropped) sends it again with the same id, and the label is stored once. Without one the session draws one.
   */
  commitId?: string;
}
