import type { TrecMeasure } from '../trecMeasure.ts';
import { bpref } from './bpref.ts';

export const geometricMeanBpref: TrecMeasure = {
  name: 'gm_bpref',
  help:
    'Binary preference (as bpref) averaged geometrically over queries, each value floored at 0.00001. Summary ' +
    'line only.',
  kind: 'float',
  compute: bpref.compute,
  average: 'geometric',
  perQueryLines: false,
};
