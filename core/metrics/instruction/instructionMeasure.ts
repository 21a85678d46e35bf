// What every instruction-following measure module has (the instruction measures' TrecMeasure): a name, its help,
// what it needs, and a pure function of one case — an instruction (or query) with its ranking, the query-only
// baseline, its graded labels and traps. A value is a number, or null where the measure is undefined for the case
// (no violating document for p-MRR, no trap for NFR, …): null cases are left out of averages and counted apart.
import type { InstructionInfo, ScoredDocument } from './instructionInputs.ts';

export interface InstructionCase {
  /** The instruction id (the query id for measures of one run). */
  id: string;
  info?: InstructionInfo;
  /** The ranking being evaluated (RUN_QI), in trec_eval's order. */
  ranking: ScoredDocument[];
  /** The query-only ranking (--baseline); for flip_rate the other query style's ranking. */
  baseline?: ScoredDocument[];
  /** Graded labels: 2 compliant, 1 violating, 0 or absent off-topic (FollowTable); condition counts (MultiConIR). */
  labels: Map<string, number>;
  traps?: Set<string>;
  /** Task-structured ids (MultiConIR's `inst#k`): the task, the step k, and whether k is the task's last step. */
  step?: TaskStep;
}

export interface TaskStep {
  task: string;
  k: number;
  last: boolean;
}

/**
 * The steps of task-structured ids `<task>#<k>` (MultiConIR: one query per instance and condition count): each id's
 * task, k, and whether k is the highest step its task has among `ids`. Ids of no such form have no step.
 */
export function taskSteps(ids: Iterable<string>): Map<string, TaskStep> {
  const parsed = new Map<string, { task: string; k: number }>();
  const lastOf = new Map<string, number>();
  for (const id of ids) {
    const match = /^(.+)#(\d+)$/.exec(id);
    if (!match) continue;
    const task = match[1]!;
    const k = Number(match[2]);
    parsed.set(id, { task, k });
    lastOf.set(task, Math.max(lastOf.get(task) ?? k, k));
  }
  const steps = new Map<string, TaskStep>();
  for (const [id, { task, k }] of parsed) steps.set(id, { task, k, last: lastOf.get(task) === k });
  return steps;
}

export interface IrsOptions {
  /**
   * What the ideal and worst rankings are permutations of: `union` (default) every document either ranking holds
   * plus every labelled compliant or violating one; `retrieved` only what either ranking holds.
   */
  list: 'union' | 'retrieved';
  /**
   * The rank of a document a (truncated) ranking does not hold: `expected` (default) the mean weight of the ranks
   * after its list, as if the rest were placed at random — IRS stays in [−1, 1]; `beyond` the rank after its list.
   */
  missing: 'expected' | 'beyond';
  /** The query-only ranking is already ideal and the ranking keeps it (0/0): `one` (default, the paper) or `zero`. */
  degenerate: 'one' | 'zero';
}

export const defaultIrsOptions: IrsOptions = { list: 'union', missing: 'expected', degenerate: 'one' };

/**
 * The rank p-MRR gives a violating document a ranking lacks: `own` (default) just after that ranking's own list, as
 * FollowIR's code does (its runs rerank the same candidates, so none is missing); `shared` after every document
 * either ranking holds, as NFR does — a document a shallower run left out then counts as moved down, not up.
 */
export type PMrrMissing = 'own' | 'shared';

export interface InstructionOptions {
  irs: IrsOptions;
  pMrrMissing: PMrrMissing;
  /** Minimum label that is relevant (capped recall), as trec_eval's -l. */
  relevanceLevel: number;
  /** Cutoffs of capped recall. */
  cutoffs: readonly number[];
}

export const defaultInstructionOptions: InstructionOptions = {
  irs: defaultIrsOptions,
  pMrrMissing: 'own',
  relevanceLevel: 1,
  cutoffs: [10],
};

export type CaseValues = Record<string, number | null>;

export interface InstructionMeasure {
  name: string;
  help: string;
  /** Needs --baseline. */
  needsBaseline: boolean;
  /**
   * Measured on the last step of each task only (MultiConIR's WR_{k,k−1} and flip rate are defined on q_10, the
   * query with every condition): of task-structured qrels (`inst#1` … `inst#10` in one file) it takes those cases
   * itself, and needs no ranking or baseline for the other steps. Ids without a step are all taken.
   */
  lastStepOnly?: boolean;
  /** The names of the values it gives (one per cutoff for capped recall). */
  valueNames(options: InstructionOptions): string[];
  compute(c: InstructionCase, options: InstructionOptions): CaseValues;
  /** For a micro average: each value's numerator and denominator over this case. */
  micro?(c: InstructionCase, options: InstructionOptions): Record<string, [number, number]>;
  /** A breakdown of its own (win rates by condition count): the group of the case. */
  groups?(c: InstructionCase): Record<string, CaseValues>;
}

/** 1-based ranks of a ranking's documents. */
export function ranksOf(ranking: readonly ScoredDocument[]): Map<string, number> {
  const ranks = new Map<string, number>();
  ranking.forEach((d, i) => {
    ranks.set(d.docid, i + 1);
  });
  return ranks;
}

/** The rank after every document either ranking holds (where a document neither holds is placed). */
export function rankBeyondBoth(a: readonly ScoredDocument[], b: readonly ScoredDocument[]): number {
  return new Set([...a, ...b].map((d) => d.docid)).size + 1;
}

/** FollowTable's rank weight w(r) = 1 / log2(r + 1). */
export const rankWeight = (rank: number): number => 1 / Math.log2(rank + 1);

/** Documents with exactly `label`. */
export function labelled(labels: Map<string, number>, label: number): string[] {
  return [...labels].filter(([, l]) => l === label).map(([docid]) => docid);
}
