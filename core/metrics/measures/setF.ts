import { relevantInTop, type TrecMeasure } from '../trecMeasure.ts';

export const setF: TrecMeasure = {
  name: 'set_F',
  help:
    'F measure of the whole retrieved set: (β+1)·P·R / (β·P + R), β the weight of recall against precision ' +
    '(default -m set_F.1; van Rijsbergen). 0 when nothing relevant is retrieved.',
  kind: 'float',
  defaultNumbers: [1],
  compute(query, options, numbers) {
    const retrieved = query.ranking.length;
    const relRet = relevantInTop(query, retrieved, options.relevanceLevel);
    if (relRet === 0) return 0;
    const precision = relRet / retrieved;
    const recall = relRet / query.numRel;
    const beta = numbers[0] ?? 1;
    return ((beta + 1) * precision * recall) / (beta * precision + recall);
  },
};
