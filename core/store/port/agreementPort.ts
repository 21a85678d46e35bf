// What agreement, adjudication, evaluation and the label sources (core/store/labelSources.ts) read from the record:
// every current label of a study in the order it was given, the adjudicated ones, the people's votes, the counts a
// dashboard shows. Reads only; each is one transaction. The rules (what counts as a vote, ties, thresholds, blind
// reliability data) stay in the feature modules; these methods hand them rows.

/** Who gave a label: a person, an LLM, or the study's reference (gold, which is no annotator to agree with). */
export type LabelGiverKind = 'human' | 'llm' | 'gold';

/** One current label of a pair: query, document, annotator, who they are, the label, when it was given (ISO). */
export type StudyLabelRow = [
  qid: string,
  docid: string,
  annotator: string,
  kind: LabelGiverKind,
  label: number,
  at: string,
];

/** A pair's label, as a qrels line holds it. */
export interface PairLabel {
  qid: string;
  docid: string;
  label: number;
}

export interface AgreementPort {
  /**
   * The current labels of the study's pairs, in the order they were given (the order a trend replays them in): each
   * annotator's current judgment (adjudications left out), and each LLM judge's latest parsed suggestion where that
   * judge has no judgment of the pair. Gold annotators' rows say `gold`.
   */
  studyLabelRows(studyId: number): Promise<StudyLabelRow[]>;
  /**
   * The annotators of `kind` with a label in the study: a judgment not retracted, or (LLM judges) a parsed
   * suggestion; sorted by name.
   */
  knownAnnotators(studyId: number, kind: 'human' | 'llm'): Promise<string[]>;
  /** The current labels of one annotator, ordered by qid, docid. */
  annotatorLabels(studyId: number, annotator: string): Promise<PairLabel[]>;
  /**
   * The majority of the people's current labels per pair (kind human, not gold, adjudications not a vote); a tie goes
   * to the lower label. Ordered by qid, docid.
   */
  majorityLabels(studyId: number): Promise<PairLabel[]>;
  /** The latest adjudicated label per pair that is not retracted, ordered by qid, docid. */
  adjudicatedLabels(studyId: number): Promise<PairLabel[]>;
  /** The mean of the people's current labels per pair they labelled (the same people as majorityLabels). */
  peopleMeanLabels(studyId: number): Promise<{ qid: string; docid: string; mean: number }[]>;
  /** How many pairs have an adjudicated label that is not retracted. */
  adjudicatedPairCount(studyId: number): Promise<number>;
  /** How many pairs the study has. */
  pairCount(studyId: number): Promise<number>;
  /** The ids of the study's pairs (query, document), in the order asked. */
  pairIds(studyId: number, pairs: [qid: string, docid: string][]): Promise<number[]>;
  /** Chunk id → its document's id, for every document of the study's corpus that names a parent, by chunk id. */
  chunkParents(studyId: number): Promise<[chunk: string, parent: string][]>;
  /** Everyone with a judgment or a suggestion in the study, ordered by kind then name. */
  labelGivers(studyId: number): Promise<{ name: string; kind: 'human' | 'llm' }[]>;
  /** The study's queries in the order they were imported, with their instruction type and metadata (JSON text). */
  evaluationQueries(studyId: number): Promise<{ qid: string; type: string | null; metadata: string | null }[]>;
}
