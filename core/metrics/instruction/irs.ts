// IRS, the Instruction Responsiveness Score (FollowTable §4.3, eq. 1–4): with F(π) = Σ_{t∈T+} w(r(t,π)) −
// Σ_{t∈T−} w(r(t,π)) and w(r) = 1/log2(r+1), S = F(π_q,i) − F(π_q); IRS = S / S(ideal) when S ≥ 0, S / |S(worst)|
// when S < 0, where the ideal ranking puts T+ (label 2) first and T− (label 1) last, the worst the other way round;
// 0 when T+ and T− are empty. Off-topic documents (0 or unlabelled) are neutral. The paper leaves three things open;
// each is an option (instructionMeasure.ts IrsOptions): the list the ideal and worst rankings are built over, the
// rank of a document a truncated ranking lacks, and 0/0 when the baseline is already ideal and stays so. Under the
// defaults every ranking is (in expectation) a permutation of the same list as the ideal and the worst, so
// F(worst) ≤ F(π) ≤ F(ideal) and IRS ∈ [−1, 1]; a last clamp only absorbs floating-point rounding.
import type { ScoredDocument } from './instructionInputs.ts';
import { type InstructionMeasure, type IrsOptions, labelled, ranksOf, rankWeight } from './instructionMeasure.ts';

/** Σ w(r) for r = from … to. */
function weightSum(from: number, to: number): number {
  let sum = 0;
  for (let r = from; r <= to; r++) sum += rankWeight(r);
  return sum;
}

/** The IRS of `ranking` against `baseline` with compliant `plus` and violating `minus` documents. */
export function instructionResponsiveness(
  ranking: readonly ScoredDocument[],
  baseline: readonly ScoredDocument[],
  plus: readonly string[],
  minus: readonly string[],
  options: IrsOptions,
): number {
  const held = new Set([...ranking, ...baseline].map((d) => d.docid));
  const inList = (docid: string) => options.list === 'union' || held.has(docid);
  const compliant = plus.filter(inList);
  const violating = minus.filter(inList);
  if (compliant.length === 0 && violating.length === 0) return 0;
  const size = options.list === 'union' ? new Set([...held, ...compliant, ...violating]).size : held.size;
  const f = (list: readonly ScoredDocument[]): number => {
    const ranks = ranksOf(list);
    const missing =
      options.missing === 'beyond' || list.length >= size
        ? rankWeight(list.length + 1)
        : weightSum(list.length + 1, size) / (size - list.length);
    const weight = (docid: string) => {
      const rank = ranks.get(docid);
      return rank === undefined ? missing : rankWeight(rank);
    };
    return compliant.reduce((s, d) => s + weight(d), 0) - violating.reduce((s, d) => s + weight(d), 0);
  };
  const p = compliant.length;
  const n = violating.length;
  const ideal = weightSum(1, p) - weightSum(size - n + 1, size);
  const worst = weightSum(size - p + 1, size) - weightSum(1, n);
  const base = f(baseline);
  const s = f(ranking) - base;
  const scale = 1e-12 * Math.max(1, Math.abs(ideal), Math.abs(worst));
  if (s >= -scale) {
    const room = ideal - base;
    // Nothing to gain: the baseline is already ideal (F equal to the ideal's), and so is the ranking.
    if (room <= scale) return Math.abs(s) <= scale ? (options.degenerate === 'one' ? 1 : 0) : 1;
    return Math.min(1, Math.max(0, s / room));
  }
  return Math.max(-1, s / Math.abs(worst - base));
}

export const irs: InstructionMeasure = {
  name: 'irs',
  help: "Instruction Responsiveness Score (FollowTable §4.3): the ranking's movement of compliant (2) up and violating (1) documents down against the query-only baseline, normalised by the ideal or the worst; in [−1, 1]",
  needsBaseline: true,
  valueNames: () => ['irs'],
  compute: (c, options) => ({
    irs: instructionResponsiveness(
      c.ranking,
      c.baseline ?? [],
      labelled(c.labels, 2),
      labelled(c.labels, 1),
      options.irs,
    ),
  }),
};
