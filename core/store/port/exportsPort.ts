// What exports read from the record: current labels per source, label files with answers, qrels.
export interface ExportsPort {
  /** The current label of every (pair, annotator) of a study, ordered by qid, docid, annotator. */
  currentLabels(study: string): Promise<{ qid: string; docid: string; annotator: string; label: number }[]>;
}
