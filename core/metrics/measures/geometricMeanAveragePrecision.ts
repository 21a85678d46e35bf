import type { TrecMeasure } from '../trecMeasure.ts';
import { averagePrecision } from './averagePrecision.ts';

export const geometricMeanAveragePrecision: TrecMeasure = {
  name: 'gm_map',
  help:
    "Geometric Mean Average Precision: each query's average precision (as map), averaged geometrically over " +
    'queries, each value floored at 0.00001: rewards runs that are consistent over queries. Summary line only.',
  kind: 'float',
  compute: averagePrecision.compute,
  average: 'geometric',
  perQueryLines: false,
};
