import { statementsOf } from '../ast.ts';
import { eachBlock, type StudyCheck } from './check.ts';

export const aspectLevels: StudyCheck = {
  code: 'aspect-levels',
  severity: 'error',
  description:
    "A graded aspect's `levels` are at least two integers in ascending order (each distinct): the Label view " +
    'cycles through them in that order and `derive` counts the level.',
  check(context) {
    eachBlock(context, (block, report) => {
      for (const aspect of statementsOf(block, 'aspect')) {
        const levels = (aspect.levels ?? []).filter((l) => Number.isFinite(l.value));
        if (!aspect.levelsKeyword || levels.length === 0) continue;
        if (levels.length === 1) {
          report({
            range: levels[0]!.range,
            message: `expected at least two levels (such as \`levels 0 1 2\`), found one: a one-level aspect has no answer to give`,
          });
          continue;
        }
        for (let i = 1; i < levels.length; i++) {
          const level = levels[i]!;
          const previous = levels[i - 1]!;
          if (level.value > previous.value) continue;
          report({
            range: level.range,
            message:
              level.value === previous.value
                ? `level ${level.value} is listed twice: expected each level once`
                : `expected the levels in ascending order: ${level.value} comes after ${previous.value}`,
          });
        }
      }
    });
  },
};
