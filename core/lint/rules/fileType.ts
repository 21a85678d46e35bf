import type { LintRule } from '../rule.ts';

export const fileType: LintRule = {
  id: 'file-type',
  severity: 'error',
  description:
    'The file is not of a type the linter knows (TREC qrels, TREC run, BEIR qrels TSV), or clearly not of the ' +
    'type it was told: more than half of the first 100 lines are wrong for it. Said once, instead of one error per ' +
    'line; nothing else is reported for the file.',
  fileTypes: [],
  scope: 'file',
};
