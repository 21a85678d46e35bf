// trec_eval's success (m_success.c, by Stephen Tomlinson): 1 if a relevant document is among the first k, else 0.
import { relevantInTop, type TrecMeasure } from '../trecMeasure.ts';

export const success: TrecMeasure = {
  name: 'success',
  help:
    'Success at cutoffs: 1 if at least one relevant document is in the first k, else 0 (averaged: the share of ' +
    'queries with a hit). Default cutoffs: -m success.1,5,10',
  kind: 'float',
  defaultCutoffs: [1, 5, 10],
  compute: (query, options, cutoffs) =>
    cutoffs.map((k) => (relevantInTop(query, k, options.relevanceLevel) > 0 ? 1 : 0)),
};
