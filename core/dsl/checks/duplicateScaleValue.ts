import { statementsOf } from '../ast.ts';
import { duplicateNamesCheck } from './duplicateNames.ts';

export const duplicateScaleValue = duplicateNamesCheck({
  code: 'duplicate-scale-value',
  description:
    'Two scale entries with the same value: labels are stored as values, so the two could not be told apart.',
  noun: 'scale value',
  collect: (block) =>
    statementsOf(block, 'scale').map((scale) =>
      scale.entries
        .filter((e) => Number.isFinite(e.value.value))
        .map((e) => ({ key: String(e.value.value), shown: e.value.text, range: e.value.range })),
    ),
});
