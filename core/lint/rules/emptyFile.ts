import type { LintRule } from '../rule.ts';

export const emptyFile: LintRule = {
  id: 'empty-file',
  severity: 'warning',
  description: 'The file has no judgment or ranking lines at all (it is empty, or holds only blank or comment lines).',
  fileTypes: [],
  scope: 'file',
};
