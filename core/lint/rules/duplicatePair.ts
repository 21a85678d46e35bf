import { repeatedPairRule } from '../repeatedPairRule.ts';

export const duplicatePair = repeatedPairRule({
  id: 'duplicate-pair',
  description:
    'The same (query, document) pair judged twice. trec_eval aborts on it ("duplicate docs"); the BEIR loader ' +
    'silently keeps the last label. Reported on the second occurrence, pointing at the first.',
  fileTypes: ['qrels', 'beir-qrels'],
  verb: 'judged',
  noun: 'judgment',
  consequence: (fileType) =>
    fileType === 'beir-qrels' ? 'the BEIR loader keeps only the last' : 'trec_eval aborts on it',
});
