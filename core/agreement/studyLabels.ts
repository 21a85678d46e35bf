// A study's labels as reliability data: every annotator's current label of every pair (undone labels are not
// current), human annotators and LLM judges (their suggestions) alike. Adjudicated labels are left out: they are the decision after
// disagreement, not one more opinion to agree with. The rows come from the record (AgreementPort.studyLabelRows).
import type { StudyStore } from '../store/studyStore.ts';
import { ReliabilityBuilder, type ReliabilityData } from './reliabilityData.ts';

export interface StudyLabels {
  data: ReliabilityData;
  /** When each label was given: `times[line - 1]` for a cell's line (labels are numbered in time order from 1). */
  times: string[];
}

/**
 * The study's labels, gold left out (it never joins agreement); `scale`: its label values in order (weighted κ and
 * ordinal α use it).
 */
export async function readStudyLabels(
  store: StudyStore,
  studyId: number,
  scale?: readonly number[],
): Promise<StudyLabels> {
  const builder = new ReliabilityBuilder();
  const times: string[] = [];
  for (const [qid, docid, annotator, kind, label, at] of await store.agreement.studyLabelRows(studyId)) {
    if (kind === 'gold') continue;
    times.push(at);
    builder.add(qid, docid, annotator, label, times.length, kind);
  }
  return { data: builder.build(scale), times };
}
