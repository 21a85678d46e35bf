import { relevantInTop, type TrecMeasure } from '../trecMeasure.ts';

export const setAveragePrecision: TrecMeasure = {
  name: 'set_map',
  help: 'Set "average precision": set_P × set_recall of the whole retrieved set.',
  kind: 'float',
  compute(query, options) {
    const retrieved = query.ranking.length;
    if (retrieved === 0 || query.numRel === 0) return 0;
    const relRet = relevantInTop(query, retrieved, options.relevanceLevel);
    return (relRet * relRet) / (retrieved * query.numRel);
  },
};
