// p-MRR (FollowIR, Weller et al. 2025; as FollowTable §5.1 uses it): for each document the instruction makes
// non-relevant — FollowTable's violating documents, label 1 — the change of its reciprocal rank between the
// query-only ranking (og) and the ranking with the instruction (new): new/og − 1 when it did not move down
// (og ≥ new: ≤ 0, a penalty for promoting it), 1 − og/new when it moved down (> 0); the case's value is their
// mean. A document a ranking lacks is ranked just after that ranking's list (FollowIR's code; its runs rank every
// candidate), or with `--pmrr-missing shared` after every document either ranking holds. An instruction without
// violating documents has no p-MRR (null, left out of the mean).
import { type InstructionMeasure, labelled, rankBeyondBoth, ranksOf } from './instructionMeasure.ts';

export function rankChangeScore(og: number, changed: number): number {
  return og >= changed ? changed / og - 1 : 1 - og / changed;
}

export const pMrr: InstructionMeasure = {
  name: 'p_mrr',
  help: 'p-MRR (FollowIR): mean reciprocal-rank change of the violating (label 1) documents; > 0 when they move down',
  needsBaseline: true,
  valueNames: () => ['p_mrr'],
  compute(c, options) {
    const violating = labelled(c.labels, 1);
    if (violating.length === 0) return { p_mrr: null };
    const baseline = c.baseline ?? [];
    const before = ranksOf(baseline);
    const after = ranksOf(c.ranking);
    const shared = options.pMrrMissing === 'shared' ? rankBeyondBoth(baseline, c.ranking) : undefined;
    let sum = 0;
    for (const docid of violating) {
      sum += rankChangeScore(
        before.get(docid) ?? shared ?? baseline.length + 1,
        after.get(docid) ?? shared ?? c.ranking.length + 1,
      );
    }
    return { p_mrr: sum / violating.length };
  },
};
