// `--from mean>1.5` / `export qrels "…" from mean > 1.5` (QUEST's rule): a pair is relevant (1) when the mean of
// the people's current labels is above the threshold, else not relevant (0). A threshold rule makes binary qrels —
// what QUEST publishes and trec_eval's binary measures read — whatever the study's scale. People only (persons and
// crowd, core/store/labelKind.ts): LLM labels and gold do not count, adjudications are not one more vote. A pair no
// person labelled is left out.
import { compareBytes, type LabelSource, type PairLabel } from './labelSources.ts';
import { StoreError } from './studyDatabase.ts';
import type { StudyStore } from './studyStore.ts';

async function meanAbove(store: StudyStore, studyId: number, threshold: number): Promise<PairLabel[]> {
  const rows = await store.agreement.peopleMeanLabels(studyId);
  return rows
    .map((r) => ({ qid: r.qid, docid: r.docid, label: r.mean > threshold ? 1 : 0 }))
    .sort((a, b) => compareBytes(a.qid, b.qid) || compareBytes(a.docid, b.docid));
}

export const meanThresholdSource: LabelSource = {
  id: 'mean>',
  takesArgument: true,
  argumentName: 'T',
  description: "1 where the mean of the people's labels is above T, else 0 (mean>1.5)",
  async labels(store, studyId, argument) {
    const threshold = Number(argument);
    if (!/^-?\d+(\.\d+)?$/.test(argument) || !Number.isFinite(threshold)) {
      throw new StoreError(`mean>: expected a number after '>', found '${argument}'`);
    }
    return meanAbove(store, studyId, threshold);
  },
};
