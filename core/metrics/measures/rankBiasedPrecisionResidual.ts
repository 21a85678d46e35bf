import type { TrecMeasure } from '../trecMeasure.ts';
import { persistence } from './rankBiasedPrecision.ts';

export const rankBiasedPrecisionResidual: TrecMeasure = {
  name: 'rbp_resid',
  help:
    'The residual of rbp: how much it could still rise if every unjudged retrieved document had the largest gain, ' +
    'plus the weight past the end of the ranking — 0 when every retrieved document is judged (as trec_eval). ' +
    'Same persistence parameter as rbp (-m rbp_resid.p=0.8).',
  kind: 'float',
  takesPairs: true,
  zeroWithoutResults: 'unlessRenamed',
  compute(query, options) {
    const p = persistence(options);
    let unjudgedWeight = 0;
    let unjudged = 0;
    let weight = 1;
    for (const judgment of query.ranking) {
      if (judgment < 0) {
        unjudged++;
        unjudgedWeight += weight;
      }
      weight *= p;
    }
    return unjudged > 0 ? weight + (1 - p) * unjudgedWeight : 0;
  },
};
