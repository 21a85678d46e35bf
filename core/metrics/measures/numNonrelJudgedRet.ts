import type { TrecMeasure } from '../trecMeasure.ts';

export const numNonrelJudgedRet: TrecMeasure = {
  name: 'num_nonrel_judged_ret',
  help: 'Number of retrieved documents judged non-relevant (0 ≤ label < the relevance level). Summed over queries.',
  kind: 'count',
  compute(query, options) {
    let count = 0;
    for (const judgment of query.ranking) if (judgment >= 0 && judgment < options.relevanceLevel) count++;
    return count;
  },
};
