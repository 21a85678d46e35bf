// trec_eval's iprec_at_recall (m_iprec_at_recall.c): the standard recall-precision graph's points. Interpolated
// precision at a rank is the best precision at that rank or any later one; at recall level f it is read at the
// rank of the round(f·R)-th relevant document (recall 0: the best precision anywhere). A level the run never
// reaches is 0.
import type { RankedQuery, TrecMeasure } from '../trecMeasure.ts';

/** The 11 standard recall levels 0.0, 0.1, …, 1.0 (as the doubles C's 0.1 … 1.0 are). */
export const elevenRecallLevels: readonly number[] = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1];

/** Interpolated precision at each recall level (levels increasing; in another order, trec_eval's walk reads
 * only the levels it meets in order, the rest stay 0, and so does this one). */
export function interpolatedPrecisions(
  query: RankedQuery,
  relevanceLevel: number,
  recallLevels: readonly number[],
): readonly number[] {
  // iprec_at_recall and 11pt_avg ask the same levels of the same query: the last answer is kept.
  if (query === lastQuery && relevanceLevel === lastLevel && sameNumbers(recallLevels, lastRecallLevels)) {
    return lastValues;
  }
  const values = computeInterpolatedPrecisions(query, relevanceLevel, recallLevels);
  lastQuery = query;
  lastLevel = relevanceLevel;
  lastRecallLevels = recallLevels;
  lastValues = values;
  return values;
}

let lastQuery: RankedQuery | undefined;
let lastLevel = Number.NaN;
let lastRecallLevels: readonly number[] = [];
let lastValues: readonly number[] = [];

function sameNumbers(a: readonly number[], b: readonly number[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}

function computeInterpolatedPrecisions(
  query: RankedQuery,
  relevanceLevel: number,
  recallLevels: readonly number[],
): number[] {
  const ranking = query.ranking;
  const values = recallLevels.map(() => 0);
  // Levels as numbers of relevant documents; C's lround rounds halves away from 0, Math.round up: same for x ≥ 0.
  const wanted = recallLevels.map((level) => Math.round(level * query.numRel));
  let relevantSoFar = 0;
  for (let i = 0; i < ranking.length; i++) if (ranking[i]! >= relevanceLevel) relevantSoFar++;
  // From the last rank up: best precision at this rank or below, read at each relevant document. An empty ranking
  // (-J removed every document) has precision 0/0, NaN, at the levels of 0 relevant documents, as in trec_eval.
  let best = relevantSoFar / ranking.length;
  let level = recallLevels.length - 1;
  while (level >= 0 && wanted[level]! > relevantSoFar) level--;
  for (let rank = ranking.length; rank > 0 && relevantSoFar > 0; rank--) {
    const precision = relevantSoFar / rank;
    if (precision > best) best = precision;
    if (ranking[rank - 1]! >= relevanceLevel) {
      for (; level >= 0 && wanted[level] === relevantSoFar; level--) values[level] = best;
      relevantSoFar--;
    }
  }
  // Levels of 0 relevant documents (recall 0, or R small): the best precision of the whole ranking.
  for (; level >= 0; level--) values[level] = best;
  return values;
}

export const interpolatedPrecisionAtRecall: TrecMeasure = {
  name: 'iprec_at_recall',
  help:
    'Interpolated precision at recall levels, the standard recall-precision graph: at level f, the best ' +
    'precision at or after the rank where round(f·R) relevant documents have been retrieved (0 if never). ' +
    'Default levels: -m iprec_at_recall.0,.1,.2,.3,.4,.5,.6,.7,.8,.9,1',
  kind: 'float',
  defaultThresholds: elevenRecallLevels,
  compute: (query, options, levels) => interpolatedPrecisions(query, options.relevanceLevel, levels).slice(),
};
