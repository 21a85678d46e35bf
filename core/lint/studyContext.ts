// What a study file tells the linter about the data files it uses: which query ids and document ids exist (its
// queries and corpus files) and which labels its scale allows. The study-aware rules (unknownQuery,
// unknownDocument, labelOutsideScale) read it; without one (a qrels file no study uses) they do nothing.
// The caller builds it from core/dsl's study model and core/data's record indexes; nothing here reads files.

export interface StudyIdSource {
  /** The file the ids come from, as the study names it ("data/queries.jsonl"), for messages. */
  readonly source: string;
  has(id: string): boolean;
}

export interface StudyLintContext {
  /** The study (or studies) this context comes from, for messages: "study 'wqt-dev'". */
  readonly name: string;
  readonly queries?: StudyIdSource;
  readonly corpus?: StudyIdSource;
  /** The labels the scale allows. */
  readonly scaleValues?: readonly number[];
  /** The queries of the study's qrels (its exported or imported qrels file), which every run must rank. */
  readonly qrels?: { readonly source: string; readonly queryIds: ReadonlySet<string> };
}
