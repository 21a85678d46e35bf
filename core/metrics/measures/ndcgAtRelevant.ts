// trec_eval's ndcg_rel (m_ndcg_rel.c, experimental): nDCG read at each relevant document and averaged, because
// nDCG at a fixed depth rises and falls as the ideal ranking moves between gain levels. "Relevant" here means a
// positive gain (not -l): the run's documents with a positive gain are read where they are; the ideal's documents
// the run did not retrieve are read at the end of the run.
import type { TrecMeasure } from '../trecMeasure.ts';
import { rankDiscounts } from './discountedGain.ts';
import { gainAt, IdealGains } from './gainLevels.ts';

export const ndcgAtRelevant: TrecMeasure = {
  name: 'ndcg_rel',
  help:
    'nDCG averaged over the relevant documents (trec_eval, experimental): nDCG at the rank of each retrieved ' +
    'document with a positive gain, and the final nDCG for each one not retrieved, averaged over the number of ' +
    'documents in the ideal ranking with a positive gain. Gain = label; not affected by -l.',
  kind: 'float',
  takesPairs: true,
  compute(query, options) {
    const ranking = query.ranking;
    // log2(i + 2) within the ranking; past its end (the ideal alone), Math.log2 itself: the same doubles.
    const discounts = rankDiscounts(ranking.length);
    const ideal = new IdealGains(query.labelCounts, options.gains);
    let runDcg = 0;
    let idealDcg = 0;
    let sum = 0;
    let idealRelevant = 0;
    let retrievedRelevant = 0;
    let i = 0;
    for (; i < ranking.length; i++) {
      const gain = gainAt(ranking[i]!, options.gains);
      if (gain !== 0) runDcg += gain / discounts[i]!;
      // The ideal runs alongside until its gains end (trec_eval's loop test comes before this rank's ideal gain).
      if (ideal.current > 0) {
        const idealGain = ideal.next();
        if (idealGain > 0) {
          idealRelevant++;
          idealDcg += idealGain / discounts[i]!;
        }
      }
      if (gain > 0) {
        sum += runDcg / idealDcg;
        retrievedRelevant++;
      }
    }
    for (; ideal.current > 0; i++) {
      const idealGain = ideal.next();
      if (idealGain > 0) {
        idealRelevant++;
        idealDcg += idealGain / Math.log2(i + 2);
      }
    }
    sum += ((idealRelevant - retrievedRelevant) * runDcg) / idealDcg;
    return sum > 0 ? sum / idealRelevant : 0;
  },
};
