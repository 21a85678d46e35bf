import { judgedNegative, notJudged } from '../../formats/trecRun.ts';
import type { TrecMeasure } from '../trecMeasure.ts';

/** trec_eval's INFAP_EPSILON: keeps the estimated precision defined when nothing above was judged. */
const epsilon = 0.00001;

export const inferredAveragePrecision: TrecMeasure = {
  name: 'infAP',
  help:
    'Inferred AP (Yilmaz and Aslam, CIKM 2006), for judgments sampled from a pool: a document judged with a ' +
    'negative label is in the pool but unjudged, one not in the qrels is outside the pool. At each relevant ' +
    'document, precision above it is estimated from the judged documents above (pooled-unjudged ones assumed ' +
    'relevant in the same proportion), unpooled ones counting as non-relevant; divided by R.',
  kind: 'float',
  compute(query, options) {
    const level = options.relevanceLevel;
    const ranking = query.ranking;
    let nonRelevantSoFar = 0;
    let relevantSoFar = 0;
    let pooledUnjudgedSoFar = 0;
    let sum = 0;
    for (let j = 0; j < ranking.length; j++) {
      const judgment = ranking[j]!;
      if (judgment === notJudged) continue;
      if (judgment === judgedNegative) {
        pooledUnjudgedSoFar++;
        continue;
      }
      if (judgment >= 0 && judgment < level) {
        nonRelevantSoFar++;
        continue;
      }
      relevantSoFar++;
      // The expected precision above rank j+1: the share of the j documents above that were pooled, times the
      // relevant share among the judged ones (smoothed), plus this document itself; 1 at rank 1. One addition
      // site for both: V8's Maglev, seeing a whole-number `sum += 1` beside a fractional one, deoptimised this loop
      // again and again (20× slower).
      const above = j;
      sum +=
        j === 0
          ? 1
          : 1 / (above + 1) +
            (above / (above + 1)) *
              ((relevantSoFar - 1 + nonRelevantSoFar + pooledUnjudgedSoFar) / above) *
              ((relevantSoFar - 1 + epsilon) / (relevantSoFar - 1 + nonRelevantSoFar + 2 * epsilon));
    }
    return query.numRel > 0 ? sum / query.numRel : sum;
  },
};
