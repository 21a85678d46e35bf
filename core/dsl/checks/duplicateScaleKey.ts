import { statementsOf } from '../ast.ts';
import { duplicateNamesCheck } from './duplicateNames.ts';

export const duplicateScaleKey = duplicateNamesCheck({
  code: 'duplicate-scale-key',
  description: 'Two scale entries with the same key: the key would pick only one of them in the labelling view.',
  noun: 'scale key',
  collect: (block) =>
    statementsOf(block, 'scale').map((scale) =>
      scale.entries.flatMap((e) =>
        e.key ? [{ key: e.key.value, shown: JSON.stringify(e.key.value), range: e.key.range }] : [],
      ),
    ),
});
