// trec_eval's Rndcg (m_Rndcg.c, experimental): nDCG read where the ideal ranking moves from one gain level to the
// next (after the 5 documents of gain 3, after the next 3 of gain 2, …) and at the end of the run if the ideal's
// positive gains end before it, averaged — the points where nDCG's expected value jumps.
import type { TrecMeasure } from '../trecMeasure.ts';
import { rankDiscounts } from './discountedGain.ts';
import { gainAt, IdealGains } from './gainLevels.ts';

export const ndcgAtRLevels: TrecMeasure = {
  name: 'Rndcg',
  help:
    'nDCG averaged over the R levels (trec_eval, experimental): nDCG at each rank where the ideal ranking moves ' +
    'to a lower gain level, and at the end of the run when it is longer than the positive-gain ideal. Gain = ' +
    'label; 0 for a query with no relevant document (by -l).',
  kind: 'float',
  takesPairs: true,
  compute(query, options) {
    if (query.numRel === 0) return 0;
    const ranking = query.ranking;
    // log2(i + 2) within the ranking; past its end (the ideal alone), Math.log2 itself: the same doubles.
    const discounts = rankDiscounts(ranking.length);
    const ideal = new IdealGains(query.labelCounts, options.gains);
    let runDcg = 0;
    let idealDcg = 0;
    let sum = 0;
    let levelChanges = 0;
    let previousIdealGain = ideal.current;
    // nDCG of the ranks before this one, at a change of the ideal's level.
    const atLevelChange = (idealGain: number): void => {
      if (idealGain === previousIdealGain) return;
      if (idealDcg > 0) {
        sum += runDcg / idealDcg;
        levelChanges++;
      }
      previousIdealGain = idealGain;
    };
    let i = 0;
    for (; i < ranking.length && ideal.current > 0; i++) {
      const gain = gainAt(ranking[i]!, options.gains);
      const idealGain = ideal.next();
      atLevelChange(idealGain);
      if (gain !== 0) runDcg += gain / discounts[i]!;
      if (idealGain > 0) idealDcg += idealGain / discounts[i]!;
    }
    if (i < ranking.length) {
      for (; i < ranking.length; i++) {
        const gain = gainAt(ranking[i]!, options.gains);
        if (gain !== 0) runDcg += gain / discounts[i]!;
      }
      if (idealDcg > 0) {
        sum += runDcg / idealDcg;
        levelChanges++;
      }
    }
    for (; ideal.current > 0; i++) {
      const idealGain = ideal.next();
      atLevelChange(idealGain);
      if (idealGain > 0) idealDcg += idealGain / Math.log2(i + 2);
    }
    // trec_eval divides even by 0 changes (only possible when no positive gain exists, e.g. -l 0 on 0 labels).
    return sum / levelChanges;
  },
};
