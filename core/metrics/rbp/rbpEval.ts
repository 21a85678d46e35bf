// rbp_eval 0.2's evaluation of a run: which grades count as how relevant, which topics are evaluated, and the
// averages (over the run's topics that have judgments; a judged topic the run lacks counts nowhere).
import {
  fullDepth,
  type RbpAtDepth,
  type RbpOrdering,
  type Relevance,
  rbpAtDepths,
  tiedGroupsOf,
} from './rankBiasedPrecision.ts';
import type { RbpQrels, RbpRun } from './rbpEvalInput.ts';

/**
 * How a grade becomes a relevance. Binary: 1 at or above the threshold, else 0 (-b T, -B for T = 1). Fractional:
 * the grade times the scale (-f S, -F for S = 1). Automatic (-a, the default): binary at 1 when every grade is
 * written without a '.', else fractional unscaled.
 */
export type RbpRelevance =
  | { kind: 'binary'; threshold: number }
  | { kind: 'fractional'; scale: number }
  | { kind: 'auto' };

export interface RbpEvalOptions {
  persistences: number[];
  /** Ascending; fullDepth for the whole ranking. */
  depths: number[];
  ordering: RbpOrdering;
  relevance: RbpRelevance;
}

/** rbp_eval's defaults: -p 0.5,0.8,0.95 -d 0 (full), by score, automatic relevance. */
export const defaultRbpEvalOptions: RbpEvalOptions = {
  persistences: [0.5, 0.8, 0.95],
  depths: [fullDepth],
  ordering: 'score',
  relevance: { kind: 'auto' },
};

export interface RbpTopicResult {
  qid: string;
  retrieved: number;
  /** undefined: the qrels have no line for this topic (rbp_eval warns and leaves it out). */
  atDepths: RbpAtDepth[] | undefined;
}

export interface RbpEvaluation {
  /** The run's topics in the order of their first line. */
  topics: RbpTopicResult[];
  /** The mean over judged topics at each depth and persistence (NaN when no topic is judged: C's 0/0). */
  averages: RbpAtDepth[];
  /** The largest effective relevance (rbp_eval warns when it exceeds 1). */
  maximumRelevance: number;
}

/** A raw grade's effective relevance under the option (rbp_eval's _adj_rel). */
export function relevanceOfGrade(grade: number, relevance: RbpRelevance, allGradesIntegral: boolean): number {
  const resolved: Exclude<RbpRelevance, { kind: 'auto' }> =
    relevance.kind !== 'auto'
      ? relevance
      : allGradesIntegral
        ? { kind: 'binary', threshold: 1 }
        : { kind: 'fractional', scale: 1 };
  return resolved.kind === 'binary' ? (grade >= resolved.threshold ? 1 : 0) : grade * resolved.scale;
}

export function evaluateRbp(qrels: RbpQrels, run: RbpRun, options: RbpEvalOptions): RbpEvaluation {
  const { persistences, depths } = options;
  const adjust = (grade: number): number => relevanceOfGrade(grade, options.relevance, qrels.allGradesIntegral);
  const sums = depths.map((depth) => ({
    depth,
    relevantRetrieved: 0,
    byPersistence: persistences.map(() => ({ value: 0, residual: 0 })),
  }));
  let judgedTopics = 0;
  const topics: RbpTopicResult[] = [];
  for (const [qid, documents] of run.topics) {
    const judgments = qrels.topics.get(qid);
    if (!judgments) {
      topics.push({ qid, retrieved: documents.length, atDepths: undefined });
      continue;
    }
    const relevanceOf = (docid: string): Relevance => {
      const grade = judgments.get(docid);
      return grade === undefined ? undefined : adjust(grade);
    };
    const atDepths = rbpAtDepths(tiedGroupsOf(documents, options.ordering, relevanceOf), persistences, depths);
    topics.push({ qid, retrieved: documents.length, atDepths });
    judgedTopics++;
    // Summed in the run's topic order, as rbp_eval does, so the mean's last bits are its own.
    for (const [d, atDepth] of atDepths.entries()) {
      const sum = sums[d]!;
      sum.relevantRetrieved += atDepth.relevantRetrieved;
      for (const [k, { value, residual }] of atDepth.byPersistence.entries()) {
        sum.byPersistence[k]!.value += value;
        sum.byPersistence[k]!.residual += residual;
      }
    }
  }
  const averages = sums.map((sum) => ({
    ...sum,
    byPersistence: sum.byPersistence.map(({ value, residual }) => ({
      value: value / judgedTopics,
      residual: residual / judgedTopics,
    })),
  }));
  return { topics, averages, maximumRelevance: adjust(qrels.maximumGrade) };
}

/** Parsing `-p` and `-d`: a message saying what is wrong with the spec, for the caller to position. */
export class RbpSpecError extends Error {}

/** `-p 0.5,0.8,0.95`: persistences in [0, 1], comma-separated (a trailing comma is allowed, as rbp_eval does). */
export function parsePersistences(spec: string): number[] {
  const elements = spec.endsWith(',') ? spec.slice(0, -1).split(',') : spec.split(',');
  if (spec === '' || spec === ',') throw new RbpSpecError('empty persistence specification');
  return elements.map((element, index) => {
    const trimmed = element.trimStart(); // strtod skips leading blanks
    const value = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(trimmed) ? Number(trimmed) : Number.NaN;
    if (Number.isNaN(value)) {
      throw new RbpSpecError(`element ${index + 1} of '${spec}': expected a persistence in [0, 1], found '${element}'`);
    }
    if (value < 0 || value > 1) {
      throw new RbpSpecError(`element ${index + 1} of '${spec}': ${element} is not in [0, 1]`);
    }
    return value;
  });
}

/** `-d 10,100,0`: depths ≥ 1 in strictly ascending order, 0 for the whole ranking (so only last). */
export function parseDepths(spec: string): number[] {
  const elements = spec.endsWith(',') ? spec.slice(0, -1).split(',') : spec.split(',');
  if (spec === '' || spec === ',') throw new RbpSpecError('empty depth specification');
  const depths = elements.map((element, index) => {
    const trimmed = element.trimStart();
    if (!/^\+?\d+$/.test(trimmed) || Number(trimmed) > fullDepth) {
      throw new RbpSpecError(
        `element ${index + 1} of '${spec}': expected a depth (an integer ≥ 1, or 0 for all), found '${element}'`,
      );
    }
    const depth = Number(trimmed);
    return depth === 0 ? fullDepth : depth;
  });
  for (let i = 1; i < depths.length; i++) {
    if (depths[i]! <= depths[i - 1]!) {
      throw new RbpSpecError(`depths in '${spec}' not in strictly ascending order (0, all, can only be last)`);
    }
  }
  return depths;
}
