import type { LintRule } from '../rule.ts';

export const unsupportedFormat: LintRule = {
  id: 'unsupported-format',
  severity: 'warning',
  description:
    'A recognised format that is not a qrels or run file, such as a statAP/MQ prels file (qid docid rel stratum ' +
    'probability): named once and not linted, instead of one column-count error per line.',
  fileTypes: [],
  scope: 'file',
};
