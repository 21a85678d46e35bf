// trec_eval's G (m_G.c, "experimental", 2008): a document's gain is discounted by how far the run has fallen
// behind the ideal so far — log2(2 + ideal cost so far − gain so far) — so a document retrieved after documents
// as good as the ideal's is worth nearly its whole gain. Past the end of the ideal ranking (or where the ideal's
// gain is below 1), each rank costs 1.
import type { TrecMeasure } from '../trecMeasure.ts';
import { gainAt, IdealGains } from './gainLevels.ts';

/** The least cost of a rank: the ideal's gain when it is at least this, else this. */
const minimumCost = 1;

export const normalizedGain: TrecMeasure = {
  name: 'G',
  help:
    'Normalized Gain (trec_eval, experimental): the sum over retrieved documents of gain / log2(2 + ideal gain so ' +
    'far − gain so far, the ideal counting at least 1 a rank), divided by the total ideal gain. Gain = label; ' +
    'not affected by -l.',
  kind: 'float',
  takesPairs: true,
  compute(query, options) {
    const ranking = query.ranking;
    const ideal = new IdealGains(query.labelCounts, options.gains);
    let value = 0;
    let runGainSoFar = 0;
    let idealGainTotal = 0;
    let costSoFar = 0;
    let i = 0;
    for (; i < ranking.length && ideal.current > 0; i++) {
      const gain = gainAt(ranking[i]!, options.gains);
      runGainSoFar += gain;
      const idealGain = ideal.next();
      if (idealGain > 0) idealGainTotal += idealGain;
      costSoFar += idealGain >= minimumCost ? idealGain : minimumCost;
      if (gain !== 0) value += gain / Math.log2(2 + costSoFar - runGainSoFar);
    }
    for (; i < ranking.length; i++) {
      const gain = gainAt(ranking[i]!, options.gains);
      runGainSoFar += gain;
      costSoFar += minimumCost;
      if (gain !== 0) value += gain / Math.log2(2 + costSoFar - runGainSoFar);
    }
    // The ideal ranking beyond the run still counts in the normaliser.
    while (ideal.current > 0) {
      const idealGain = ideal.next();
      if (idealGain > 0) idealGainTotal += idealGain;
    }
    return idealGainTotal > 0 ? value / idealGainTotal : 0;
  },
};
