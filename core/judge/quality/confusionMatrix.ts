// The people's label against the judge's over the pairs both labelled: the pairs lined up (sharedLabels) and the
// scale × scale table of counts (rows: people, columns: judge) that κ, accuracy and the report read.
import type { PairLabel } from '../../store/port/agreementPort.ts';
import type { JudgeConfusion } from './judgeQualityTypes.ts';

/** One pair both labelled: the people's label and the judge's. */
export interface SharedLabel {
  qid: string;
  docid: string;
  people: number;
  judge: number;
}

const pairKey = (l: { qid: string; docid: string }) => `${l.qid}\u0000${l.docid}`;

/** The pairs both `people` and `judge` labelled, in the people's order. */
export function sharedLabels(people: readonly PairLabel[], judge: readonly PairLabel[]): SharedLabel[] {
  const judged = new Map(judge.map((l) => [pairKey(l), l.label]));
  const shared: SharedLabel[] = [];
  for (const l of people) {
    const label = judged.get(pairKey(l));
    if (label !== undefined) shared.push({ qid: l.qid, docid: l.docid, people: l.label, judge: label });
  }
  return shared;
}

/**
 * The confusion matrix over `scale` (the study's scale values) and any other label either side gave — a label
 * outside the scale (an imported one) still counts, in a row and column of its own rather than silently dropped.
 */
export function judgeConfusion(shared: readonly SharedLabel[], scale: readonly number[]): JudgeConfusion {
  const labels = [...new Set([...scale, ...shared.flatMap((s) => [s.people, s.judge])])].sort((a, b) => a - b);
  const index = new Map(labels.map((label, i) => [label, i]));
  const counts = labels.map(() => labels.map(() => 0));
  for (const s of shared) counts[index.get(s.people)!]![index.get(s.judge)!]!++;
  return { labels, counts, pairs: shared.length };
}

/** Share of the counted pairs on the diagonal; null when there are none. */
export function confusionAccuracy(confusion: JudgeConfusion): number | null {
  if (confusion.pairs === 0) return null;
  let agreed = 0;
  for (let i = 0; i < confusion.labels.length; i++) agreed += confusion.counts[i]![i]!;
  return agreed / confusion.pairs;
}
