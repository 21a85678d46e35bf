// What exports read from the record: current labels per source, label files with answers, the judgment history.
// Rows come back whole, in the files' order; core/store/studyExports.ts turns them into the files' lines.

/** The answers stored with a label (raw): a judgment's condition and aspect rows, or a judge call's verdicts. */
export interface StoredAnswers {
  /** A judgment's condition rows: [condition (1-based), satisfied 1/0]. */
  conditions?: [condition: number, satisfied: number][];
  /** A judgment's aspect rows: [aspect, answer 1/0 or level], by aspect. */
  aspects?: [aspect: string, answer: number][];
  /** A suggestion's judge call's per-condition verdicts as stored (JSON text of booleans), if any. */
  parsedConditions?: string | null;
}

/** A row of the label file: an annotator's current label of a pair, or an LLM judge's latest suggestion. */
export interface LabelFileRow {
  qid: string;
  docid: string;
  annotator: string;
  /** Who made the label (core/store/labelKind.ts): person, crowd, gold, llm or judge. */
  kind: string;
  label: number;
  created_at: string;
  /** The judgment's source, or `suggestion`. */
  source: string;
  rationale: string | null;
  shown_label: number | null;
  /** With `answers`: what the label was given with. */
  answers?: StoredAnswers;
}

/** A judgment that is not retracted, history included. */
export interface HistoryRow {
  qid: string;
  docid: string;
  annotator: string;
  kind: string;
  label: number;
  created_at: string;
  source: string;
  rationale: string | null;
  shown_label: number | null;
  /** Whether it is its annotator's current label of the pair. */
  current: boolean;
  answers?: StoredAnswers;
}

export interface ExportsPort {
  /** The current label of every (pair, annotator) of a study, ordered by qid, docid, annotator. */
  currentLabels(study: string): Promise<{ qid: string; docid: string; annotator: string; label: number }[]>;
  /**
   * The label file's rows of study `studyId` (studies.studyId): each annotator's current judgment of each pair, and
   * each LLM judge's latest parsed suggestion of a pair it has no judgment of (source `suggestion`), ordered by qid,
   * docid, annotator, source (bytewise); with `answers`, each with its stored answers.
   */
  labelFileRows(studyId: number, options?: { answers?: boolean }): Promise<LabelFileRow[]>;
  /**
   * Every judgment of study `studyId` that is not retracted, ordered by qid, docid, annotator, time; with
   * `answers`, each with its stored answers.
   */
  judgmentHistory(studyId: number, options?: { answers?: boolean }): Promise<HistoryRow[]>;
}
