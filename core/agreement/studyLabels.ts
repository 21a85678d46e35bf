// A study's labels as reliability data: every annotator's current label of every pair (undone labels are not
// current), human annotators and LLM judges (their suggestions) alike. Adjudicated labels are left out: they are the decision after
// disagreement, not one more opinion to agree with.
import type { SqliteDatabase } from '../store/sqliteDatabase.ts';
import { type AnnotatorKind, ReliabilityBuilder, type ReliabilityData } from './reliabilityData.ts';

/**
 * An LLM judge's labels where it has no judgment of the pair: its latest parsed suggestion of each pair (what the
 * Label view shows; a judge run again replaces what it said before). The rows of `suggestion`, as `sg`.
 */
export const judgeSuggestionsWithoutJudgment = `
  SELECT sg.* FROM suggestion AS sg
  WHERE sg.label IS NOT NULL
    AND NOT EXISTS (
      SELECT 1 FROM suggestion AS later
      WHERE later.pair_id = sg.pair_id AND later.annotator_id = sg.annotator_id
        AND (later.created_at > sg.created_at OR (later.created_at = sg.created_at AND later.id > sg.id)))
    AND NOT EXISTS (
      SELECT 1 FROM current_judgment AS cj WHERE cj.pair_id = sg.pair_id AND cj.annotator_id = sg.annotator_id)`;

/**
 * The current labels of the study's pairs, in the order they were given (the order the trend replays them in): each
 * annotator's current judgment, and each LLM judge's latest parsed suggestion where that judge has no judgment of
 * the pair (judgments of a judge are imported LLM labels).
 */
export function studyLabelRows(
  db: SqliteDatabase,
  studyId: number,
): IterableIterator<
  [qid: string, docid: string, annotator: string, kind: AnnotatorKind | 'gold', label: number, at: string]
> {
  // Gold (`kind gold`) is told apart: the reference is no annotator to agree with (core/store/labelKind.ts).
  return db
    .prepare(
      `SELECT p.qid, p.docid, a.name, CASE WHEN a.label_kind = 'gold' THEN 'gold' ELSE a.kind END,
         j.label, j.created_at AS at, j.id AS row, 0 AS suggested
       FROM current_judgment AS j
       JOIN pair AS p ON p.id = j.pair_id JOIN annotator AS a ON a.id = j.annotator_id
       WHERE p.study_id = @study AND j.source != 'adjudicated'
       UNION ALL
       SELECT p.qid, p.docid, a.name, a.kind, sg.label, sg.created_at AS at, sg.id AS row, 1 AS suggested
       FROM (${judgeSuggestionsWithoutJudgment}) AS sg
       JOIN pair AS p ON p.id = sg.pair_id JOIN annotator AS a ON a.id = sg.annotator_id
       WHERE p.study_id = @study
       ORDER BY at, suggested, row`,
    )
    .raw()
    .iterate({ study: studyId }) as IterableIterator<[string, string, string, AnnotatorKind | 'gold', number, string]>;
}

export interface StudyLabels {
  data: ReliabilityData;
  /** When each label was given: `times[line - 1]` for a cell's line (labels are numbered in time order from 1). */
  times: string[];
}

/**
 * The study's labels, gold left out (it never joins agreement); `scale`: its label values in order (weighted κ and
 * ordinal α use it).
 */
export function readStudyLabels(db: SqliteDatabase, studyId: number, scale?: readonly number[]): StudyLabels {
  const builder = new ReliabilityBuilder();
  const times: string[] = [];
  for (const [qid, docid, annotator, kind, label, at] of studyLabelRows(db, studyId)) {
    if (kind === 'gold') continue;
    times.push(at);
    builder.add(qid, docid, annotator, label, times.length, kind);
  }
  return { data: builder.build(scale), times };
}
