// trec_eval's binG (m_binG.c, "experimental", 2008): G with gains 0 or 1 by the relevance level, where the cost
// so far is the number of non-relevant documents before the document.
import type { TrecMeasure } from '../trecMeasure.ts';
import { rankDiscounts } from './discountedGain.ts';

export const binaryGain: TrecMeasure = {
  name: 'binG',
  help:
    'Binary G (trec_eval, experimental): the sum over retrieved relevant documents of 1 / log2(2 + non-relevant ' +
    'documents retrieved before it), divided by the number of relevant documents (R).',
  kind: 'float',
  compute(query, options) {
    const ranking = query.ranking;
    const discounts = rankDiscounts(ranking.length);
    let relevantSoFar = 0;
    let sum = 0;
    for (let i = 0; i < ranking.length; i++) {
      if (ranking[i]! >= options.relevanceLevel) {
        relevantSoFar++;
        // i + 1 − relevantSoFar documents before rank i + 1 are not relevant: log2(3 + i − relevantSoFar).
        sum += 1 / discounts[1 + i - relevantSoFar]!;
      }
    }
    return relevantSoFar > 0 ? sum / query.numRel : 0;
  },
};
