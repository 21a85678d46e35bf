// The numeric judge options and their ranges, as data: one check reports them all with the option's own bounds.
import { type JudgeOptionName, statementsOf } from '../ast.ts';
import { eachBlock, type StudyCheck } from './check.ts';

/** `above`: the value must be greater than `min` (a budget of 0 would refuse every run). */
const bounds: Partial<Record<JudgeOptionName, { min: number; max?: number; above?: true; why: string }>> = {
  temperature: { min: 0, max: 2, why: 'the sampling temperature OpenAI-compatible APIs accept' },
  votes: { min: 1, why: 'samples per item' },
  max_tokens: { min: 1, why: 'tokens per answer' },
  budget: { min: 0, above: true, why: 'the most the run may cost' },
};

export const judgeNumbers: StudyCheck = {
  code: 'judge-option-range',
  severity: 'error',
  description:
    'Judge options in range: `temperature` 0 to 2, `votes` at least 1, `max_tokens` at least 1, `budget` more than 0.',
  check(context) {
    eachBlock(context, (block, report) => {
      for (const judge of statementsOf(block, 'judge')) {
        for (const option of judge.options) {
          const bound = bounds[option.name];
          const value = option.value;
          if (!bound || !value || typeof value.value !== 'number' || !Number.isFinite(value.value)) continue;
          const aboveMin = bound.above ? value.value > bound.min : value.value >= bound.min;
          if (aboveMin && (bound.max === undefined || value.value <= bound.max)) continue;
          const range = bound.above
            ? `more than ${bound.min}`
            : bound.max === undefined
              ? `at least ${bound.min}`
              : `from ${bound.min} to ${bound.max}`;
          report({
            range: value.range,
            message: `expected \`${option.name}\` ${range} (${bound.why}), found ${'text' in value ? value.text : value.value}`,
          });
        }
      }
    });
  },
};
