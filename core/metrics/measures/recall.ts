import { relevantInTop, standardCutoffs, type TrecMeasure } from '../trecMeasure.ts';

export const recall: TrecMeasure = {
  name: 'recall',
  help:
    'Recall at cutoffs: relevant documents in the first k, divided by R (0 when the query has no relevant ' +
    'document). Default cutoffs: -m recall.5,10,15,20,30,100,200,500,1000',
  kind: 'float',
  defaultCutoffs: standardCutoffs,
  compute: (query, options, cutoffs) =>
    cutoffs.map((k) => (query.numRel === 0 ? 0 : relevantInTop(query, k, options.relevanceLevel) / query.numRel)),
};
