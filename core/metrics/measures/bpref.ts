import { judgedNegative, notJudged } from '../../formats/trecRun.ts';
import { judgedAtLeast, type RankedQuery, type TrecMeasure } from '../trecMeasure.ts';

// The last query's value, for gm_bpref, which follows bpref on the same query (see relevantCounts).
let lastQuery: RankedQuery | undefined;
let lastLevel = Number.NaN;
let lastValue = 0;

export const bpref: TrecMeasure = {
  name: 'bpref',
  help:
    'Binary preference (Buckley and Voorhees, SIGIR 2004): for each retrieved relevant document, the fraction ' +
    'of the first R judged non-relevant documents ranked above it, subtracted from 1; unjudged documents are ignored.',
  kind: 'float',
  compute(query, options) {
    const level = options.relevanceLevel;
    if (query === lastQuery && level === lastLevel) return lastValue;
    const judgedNonRelevant = judgedAtLeast(query.labelCounts, 0) - judgedAtLeast(query.labelCounts, level);
    const numRel = query.numRel;
    const ranking = query.ranking;
    let nonRelevantSoFar = 0;
    let sum = 0;
    for (let i = 0; i < ranking.length; i++) {
      const judgment = ranking[i]!;
      if (judgment === notJudged || judgment === judgedNegative) continue;
      if (judgment >= 0 && judgment < level) {
        nonRelevantSoFar++;
      } else {
        // One addition site (see infAP: a separate `sum += 1` made V8's Maglev deoptimise this loop over and over).
        sum += nonRelevantSoFar > 0 ? 1 - Math.min(nonRelevantSoFar, numRel) / Math.min(judgedNonRelevant, numRel) : 1;
      }
    }
    lastQuery = query;
    lastLevel = level;
    lastValue = numRel > 0 ? sum / numRel : sum;
    return lastValue;
  },
};
