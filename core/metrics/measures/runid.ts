import type { TrecMeasure } from '../trecMeasure.ts';

export const runid: TrecMeasure = {
  name: 'runid',
  help: 'Runid given by the run file (the tag of its last line).',
  kind: 'runid',
  compute: () => 0,
};
