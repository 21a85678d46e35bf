// A metric named twice in one gate (`accept when tau >= 0.8 and tau >= 0.9`): both conditions must hold, so one
// of them is redundant or the pair is a typo for another metric. A warning: a range (`ece > 0 and ece < 0.1`) is
// a possible intent.
import { statementsOf } from '../ast.ts';
import type { TextRange } from '../types.ts';
import { eachBlock, type StudyCheck } from './check.ts';

export const repeatedGateMetric: StudyCheck = {
  code: 'repeated-gate-metric',
  severity: 'warning',
  description: 'A metric named twice in one judge gate: both conditions must hold, so one is usually a typo.',
  check(context) {
    eachBlock(context, (block, report) => {
      for (const judge of statementsOf(block, 'judge')) {
        for (const option of judge.options) {
          const seen = new Map<string, TextRange>();
          for (const { metric } of option.conditions ?? []) {
            if (!metric) continue;
            const first = seen.get(metric.text);
            if (!first) {
              seen.set(metric.text, metric.range);
              continue;
            }
            report({
              range: metric.range,
              message: `\`${metric.text}\` is named twice in this gate: both conditions must hold (expected each metric once)`,
              related: { range: first, message: `first \`${metric.text}\`` },
            });
          }
        }
      }
    });
  },
};
