import type { TrecMeasure } from '../trecMeasure.ts';

export const numQ: TrecMeasure = {
  name: 'num_q',
  help: 'Number of queries evaluated (with -c: every query of the qrels).',
  kind: 'numQ',
  compute: () => 1,
};
