import { statementsOf } from '../ast.ts';
import { duplicateNamesCheck } from './duplicateNames.ts';

export const duplicateAspect = duplicateNamesCheck({
  code: 'duplicate-aspect',
  description: 'Two aspects with the same name: `derive` and the judge prompt could not tell which one is meant.',
  noun: 'aspect',
  collect: (block) => [
    statementsOf(block, 'aspect').flatMap((s) =>
      s.name ? [{ key: s.name.text, shown: `\`${s.name.text}\``, range: s.name.range }] : [],
    ),
  ],
});
