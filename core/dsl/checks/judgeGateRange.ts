// The values of a judge's quality gate (`accept when tau >= 0.9`): a correlation lies in [-1, 1], κ, accuracy and
// ECE in [0, 1] — a condition outside can never (or always) hold, so it is a typo, not a gate.
import { statementsOf } from '../ast.ts';
import { gateMetricRanges } from '../keywords.ts';
import { eachBlock, type StudyCheck } from './check.ts';

export const judgeGateRange: StudyCheck = {
  code: 'judge-gate-range',
  severity: 'error',
  description:
    'Judge gate values in range: `tau` and `tau_ap` from -1 to 1; `kappa`, `accuracy` and `ece` from 0 to 1.',
  check(context) {
    eachBlock(context, (block, report) => {
      for (const judge of statementsOf(block, 'judge')) {
        for (const option of judge.options) {
          for (const condition of option.conditions ?? []) {
            const { metric, value } = condition;
            const range = metric && gateMetricRanges[metric.text];
            if (!range || !value || !Number.isFinite(value.value)) continue;
            if (value.value >= range.min && value.value <= range.max) continue;
            report({
              range: value.range,
              message: `expected a value from ${range.min} to ${range.max} for \`${metric.text}\`, found ${value.text}`,
            });
          }
        }
      }
    });
  },
};
