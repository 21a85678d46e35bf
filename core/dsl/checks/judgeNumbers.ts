// The numeric judge options and their ranges, as data: one check reports them all with the option's own bounds.
import { type JudgeOptionName, statementsOf } from '../ast.ts';
import { eachBlock, type StudyCheck } from './check.ts';

const bounds: Partial<Record<JudgeOptionName, { min: number; max?: number; why: string }>> = {
  temperature: { min: 0, max: 2, why: 'the sampling temperature OpenAI-compatible APIs accept' },
  votes: { min: 1, why: 'samples per item' },
  max_tokens: { min: 1, why: 'tokens per answer' },
};

export const judgeNumbers: StudyCheck = {
  code: 'judge-option-range',
  severity: 'error',
  description: 'Judge options in range: `temperature` 0 to 2, `votes` at least 1, `max_tokens` at least 1.',
  check(context) {
    eachBlock(context, (block, report) => {
      for (const judge of statementsOf(block, 'judge')) {
        for (const option of judge.options) {
          const bound = bounds[option.name];
          const value = option.value;
          if (!bound || !value || typeof value.value !== 'number' || !Number.isFinite(value.value)) continue;
          if (value.value >= bound.min && (bound.max === undefined || value.value <= bound.max)) continue;
          const range = bound.max === undefined ? `at least ${bound.min}` : `from ${bound.min} to ${bound.max}`;
          report({
            range: value.range,
            message: `expected \`${option.name}\` ${range} (${bound.why}), found ${'text' in value ? value.text : value.value}`,
          });
        }
      }
    });
  },
};
