import { relevantInTop, standardCutoffs, type TrecMeasure } from '../trecMeasure.ts';

export const precision: TrecMeasure = {
  name: 'P',
  help:
    'Precision at cutoffs: relevant documents in the first k, divided by k (missing ranks count as non-relevant). ' +
    'Default cutoffs: -m P.5,10,15,20,30,100,200,500,1000',
  kind: 'float',
  defaultCutoffs: standardCutoffs,
  compute: (query, options, cutoffs) => cutoffs.map((k) => relevantInTop(query, k, options.relevanceLevel) / k),
};
