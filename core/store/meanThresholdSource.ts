// `--from mean>1.5` / `export qrels "…" from mean > 1.5` (QUEST's rule): a pair is relevant (1) when the mean of
// the people's current labels is above the threshold, else not relevant (0). A threshold rule makes binary qrels —
// what QUEST publishes and trec_eval's binary measures read — whatever the study's scale. People only (persons and
// crowd, core/store/labelKind.ts): LLM labels and gold do not count, adjudications are not one more vote. A pair no
// person labelled is left out.
import { compareBytes, type LabelSource, type PairLabel } from './labelSources.ts';
import type { SqliteDatabase } from './sqliteDatabase.ts';
import { StoreError } from './studyDatabase.ts';

function meanAbove(db: SqliteDatabase, studyId: number, threshold: number): PairLabel[] {
  const rows = db
    .prepare(
      `SELECT p.qid, p.docid, avg(j.label) AS mean FROM current_judgment AS j
       JOIN pair AS p ON p.id = j.pair_id JOIN annotator AS a ON a.id = j.annotator_id
       WHERE p.study_id = ? AND a.kind = 'human' AND a.label_kind IS NOT 'gold' AND j.source != 'adjudicated'
       GROUP BY p.id`,
    )
    .all(studyId) as { qid: string; docid: string; mean: number }[];
  return rows
    .map((r) => ({ qid: r.qid, docid: r.docid, label: r.mean > threshold ? 1 : 0 }))
    .sort((a, b) => compareBytes(a.qid, b.qid) || compareBytes(a.docid, b.docid));
}

export const meanThresholdSource: LabelSource = {
  id: 'mean>',
  takesArgument: true,
  argumentName: 'T',
  description: "1 where the mean of the people's labels is above T, else 0 (mean>1.5)",
  labels(db, studyId, argument) {
    const threshold = Number(argument);
    if (!/^-?\d+(\.\d+)?$/.test(argument) || !Number.isFinite(threshold)) {
      throw new StoreError(`mean>: expected a number after '>', found '${argument}'`);
    }
    return meanAbove(db, studyId, threshold);
  },
};
