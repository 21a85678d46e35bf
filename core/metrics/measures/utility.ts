import { relevantInTop, type TrecMeasure } from '../trecMeasure.ts';

export const utility: TrecMeasure = {
  name: 'utility',
  help:
    'Set utility: p1·(relevant retrieved) + p2·(non-relevant retrieved) + p3·(relevant not retrieved) + ' +
    'p4·(non-relevant not retrieved), the last counted from -N (the number of documents in the collection). ' +
    'Default -m utility.1,-1,0,0. Averaged over queries.',
  kind: 'float',
  defaultNumbers: [1, -1, 0, 0],
  zeroWithoutResults: 'unlessRenamed',
  compute(query, options, coefficients) {
    const [relevantRetrieved, nonRelevantRetrieved, relevantMissed, nonRelevantMissed] = coefficients;
    const retrieved = query.ranking.length;
    const relRet = relevantInTop(query, retrieved, options.relevanceLevel);
    const collection = options.numDocsInCollection ?? 0;
    return (
      relevantRetrieved! * relRet +
      nonRelevantRetrieved! * (retrieved - relRet) +
      relevantMissed! * (query.numRel - relRet) +
      nonRelevantMissed! * (collection + relRet - retrieved - query.numRel)
    );
  },
};
