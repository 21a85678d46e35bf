// MultiConIR's win rates (§3.3), on graded qrels whose label is the number of the query's conditions a document
// satisfies (README: the MultiConIR layout). A pair (a, b) with label(a) > label(b) is won when the run scores a
// strictly higher than b — a tie is a loss (MultiConIR's `>`); a document the run lacks scores −∞ (it wins nothing;
// two it lacks tie).
// - win_rate (WR_k, complexity robustness): the positive (the highest label, k) against the documents one
//   condition short (label k − 1), for every query; broken down by k.
// - adjacent_win_rate (WR_{k,k−1}, relevance monotonicity): every pair of adjacent labels j and j − 1 of a query;
//   broken down by j.
// - flip_rate (format invariance): the same adjacent pairs, won under one query style (the run) and not under the
//   other (--baseline, the other style's run of the same query ids), or the other way round; broken down by j.
// Of task-structured qrels (`inst#1` … `inst#10` in one file) the last two take each task's last step themselves
// (lastStepOnly): the paper's q_10; win_rate takes every step.
// A query's value is its share of pairs; the measure is the mean over queries (macro, as the paper's 1/N Σ).
import type { ScoredDocument } from './instructionInputs.ts';
import type { InstructionCase, InstructionMeasure } from './instructionMeasure.ts';

function scoresOf(ranking: readonly ScoredDocument[] | undefined): Map<string, number> {
  return new Map((ranking ?? []).map((d) => [d.docid, d.score]));
}

const won = (scores: Map<string, number>, a: string, b: string): boolean =>
  (scores.get(a) ?? Number.NEGATIVE_INFINITY) > (scores.get(b) ?? Number.NEGATIVE_INFINITY);

/** Documents by label. */
function byLabel(labels: Map<string, number>): Map<number, string[]> {
  const groups = new Map<number, string[]>();
  for (const [docid, label] of labels) {
    const group = groups.get(label);
    if (group) group.push(docid);
    else groups.set(label, [docid]);
  }
  return groups;
}

/** Pairs (a with label j, b with label j − 1) for every j (or only the top j), by j. */
function adjacentPairs(labels: Map<string, number>, topOnly: boolean): Map<number, [string, string][]> {
  const groups = byLabel(labels);
  const top = Math.max(...groups.keys());
  const pairs = new Map<number, [string, string][]>();
  for (const [j, upper] of groups) {
    if (topOnly && j !== top) continue;
    const lower = groups.get(j - 1);
    if (!lower) continue;
    pairs.set(
      j,
      upper.flatMap((a) => lower.map((b): [string, string] => [a, b])),
    );
  }
  return pairs;
}

/** The share of pairs `count` says yes to, per j and over all j. */
function shares(
  pairs: Map<number, [string, string][]>,
  count: (a: string, b: string) => boolean,
  name: string,
): { value: number | null; groups: Record<string, Record<string, number | null>> } {
  let yes = 0;
  let all = 0;
  const groups: Record<string, Record<string, number | null>> = {};
  for (const [j, list] of pairs) {
    const hits = list.filter(([a, b]) => count(a, b)).length;
    groups[`${name === 'win_rate' ? 'k' : 'j'}:${j}`] = { [name]: hits / list.length };
    yes += hits;
    all += list.length;
  }
  return { value: all === 0 ? null : yes / all, groups };
}

function winRateMeasure(name: 'win_rate' | 'adjacent_win_rate', help: string): InstructionMeasure {
  const evaluate = (c: InstructionCase) => {
    const scores = scoresOf(c.ranking);
    return shares(adjacentPairs(c.labels, name === 'win_rate'), (a, b) => won(scores, a, b), name);
  };
  return {
    name,
    help,
    needsBaseline: false,
    // WR_{k,k−1} is measured on q_10 (every condition); WR_k on every step.
    ...(name === 'adjacent_win_rate' && { lastStepOnly: true }),
    valueNames: () => [name],
    compute: (c) => ({ [name]: evaluate(c).value }),
    groups: (c) => evaluate(c).groups,
  };
}

export const winRate = winRateMeasure(
  'win_rate',
  'MultiConIR WR_k: the positive (highest label k) scored strictly above the documents labelled k − 1; by k',
);

export const adjacentWinRate = winRateMeasure(
  'adjacent_win_rate',
  'MultiConIR WR_{k,k−1}: documents labelled j scored strictly above those labelled j − 1, every adjacent j; by j',
);

function flips(c: InstructionCase) {
  const styleA = scoresOf(c.ranking);
  const styleB = scoresOf(c.baseline);
  return shares(adjacentPairs(c.labels, false), (a, b) => won(styleA, a, b) !== won(styleB, a, b), 'flip_rate');
}

export const flipRate: InstructionMeasure = {
  name: 'flip_rate',
  help: 'MultiConIR flip rate: adjacent-label pairs whose order differs between the run and --baseline (the other query style); by j',
  needsBaseline: true,
  lastStepOnly: true,
  valueNames: () => ['flip_rate'],
  compute: (c) => ({ flip_rate: flips(c).value }),
  groups: (c) => flips(c).groups,
};
