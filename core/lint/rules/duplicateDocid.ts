import { repeatedPairRule } from '../repeatedPairRule.ts';

export const duplicateDocid = repeatedPairRule({
  id: 'duplicate-docid',
  description:
    'The same document twice in one query\'s ranking. trec_eval aborts on it ("duplicate docs"). Reported on ' +
    'the second occurrence, pointing at the first.',
  fileTypes: ['run'],
  verb: 'ranked',
  noun: 'ranking',
  consequence: () => 'trec_eval aborts on it',
});
