// nDCG@k and ERR@k of one topic exactly as the TREC Web track's gdeval.pl (version 1.3) computes them, in its
// order of floating-point operations, so that its printed digits come out the same. Exported for the named measures
// of the normal output (engineer V names them): a caller ranks a topic with `compareGdevalRanking`, maps each
// document to its grade (0 when unjudged or judged ≤ 0), and gives the topic's positive grades for the ideal.

/** gdeval.pl's $MAX_JUDGMENT: the largest grade a qrels line may hold, and ERR's top probability 2^4-1 / 2^4. */
export const gdevalMaxGrade = 4;

/** gdeval.pl's default depth ($K). */
export const gdevalDefaultDepth = 20;

/** DCG of the first `depth` grades: Σ (2^grade − 1) / log2(rank + 1), the log as gdeval takes it (ln x / ln 2). */
export function gdevalDcg(grades: readonly number[], depth: number): number {
  let score = 0;
  const end = Math.min(depth, grades.length);
  for (let i = 0; i < end; i++) score += (2 ** grades[i]! - 1) / (Math.log(i + 2) / Math.LN2);
  return score;
}

/**
 * ERR of the first `depth` grades (Chapelle et al. 2009): a user stops at rank r with probability
 * R = (2^grade − 1) / 2^maxGrade, having not stopped before; ERR = Σ R_r · Π_{i<r}(1 − R_i) / r.
 */
export function gdevalErr(grades: readonly number[], depth: number, maxGrade = gdevalMaxGrade): number {
  let score = 0;
  let decay = 1;
  const end = Math.min(depth, grades.length);
  const stopScale = 2 ** maxGrade;
  for (let i = 0; i < end; i++) {
    const stop = (2 ** grades[i]! - 1) / stopScale;
    score += (stop * decay) / (i + 1);
    decay *= 1 - stop;
  }
  return score;
}

/**
 * The ideal ranking's grades: a topic's positive grades, largest first. Every positive qrels line counts, a
 * document judged twice included (gdeval does not merge duplicates).
 */
export function gdevalIdealGrades(positiveGrades: readonly number[]): number[] {
  return [...positiveGrades].sort((a, b) => b - a);
}

export interface GdevalTopicValues {
  ndcg: number;
  err: number;
}

/**
 * nDCG@depth and ERR@depth of one topic. `rankedGrades`: the grade of each retrieved document in gdeval's order
 * (0 for unjudged and for grades ≤ 0); `idealGrades`: from `gdevalIdealGrades`, not empty (gdeval skips a topic
 * without a positive grade: neither printed nor averaged, even with -c).
 */
export function gdevalTopicValues(
  rankedGrades: readonly number[],
  idealGrades: readonly number[],
  depth: number,
  maxGrade = gdevalMaxGrade,
): GdevalTopicValues {
  return {
    ndcg: gdevalDcg(rankedGrades, depth) / gdevalDcg(idealGrades, depth),
    err: gdevalErr(rankedGrades, depth, maxGrade),
  };
}
