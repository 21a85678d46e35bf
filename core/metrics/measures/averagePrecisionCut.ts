// trec_eval's map_cut (m_map_cut.c): average precision counting only the relevant documents in the first k, still
// divided by all R relevant documents.
import { standardCutoffs, type TrecMeasure } from '../trecMeasure.ts';
import { precisionSums } from './averagePrecision.ts';

export const averagePrecisionCut: TrecMeasure = {
  name: 'map_cut',
  help:
    'Average precision at cutoffs: the precision at each relevant document within the first k, summed and divided ' +
    'by R (the relevant documents of the query). Default cutoffs: -m map_cut.5,10,15,20,30,100,200,500,1000',
  kind: 'float',
  defaultCutoffs: standardCutoffs,
  compute(query, options, cutoffs) {
    if (query.numRel === 0) return cutoffs.map(() => 0);
    // The running sum read as each cutoff is passed.
    const sums = precisionSums(query, options.relevanceLevel);
    const last = query.ranking.length;
    return cutoffs.map((k) => sums[k < last ? k : last]! / query.numRel);
  },
};
