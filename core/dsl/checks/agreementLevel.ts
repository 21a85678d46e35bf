import { statementsOf } from '../ast.ts';
import { levelsOfMetric } from '../keywords.ts';
import { eachBlock, listWords, type StudyCheck } from './check.ts';

export const agreementLevel: StudyCheck = {
  code: 'agreement-level',
  severity: 'error',
  description:
    "Each statistic takes its own levels: Krippendorff's α nominal/ordinal/interval/ratio, Cohen's κ " +
    'nominal (unweighted)/linear/quadratic; Fleiss and percent agreement are nominal only.',
  check(context) {
    eachBlock(context, (block, report) => {
      for (const agreement of statementsOf(block, 'agreement')) {
        const { metric, level } = agreement;
        if (!metric || !level) continue;
        const valid = levelsOfMetric[metric.text] ?? [];
        if (valid.includes(level.text)) continue;
        report({
          range: level.range,
          message: `\`${metric.text}\` does not take \`${level.text}\`: expected ${listWords(valid).replace(/ and /, ' or ')}`,
        });
      }
    });
  },
};
