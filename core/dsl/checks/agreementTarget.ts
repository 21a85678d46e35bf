import { statementsOf } from '../ast.ts';
import { eachBlock, type StudyCheck } from './check.ts';

export const agreementTarget: StudyCheck = {
  code: 'agreement-target',
  severity: 'error',
  description: 'An agreement target is a coefficient the team aims for: greater than 0, at most 1.',
  check(context) {
    eachBlock(context, (block, report) => {
      for (const agreement of statementsOf(block, 'agreement')) {
        const target = agreement.target;
        if (!target || !Number.isFinite(target.value) || (target.value > 0 && target.value <= 1)) continue;
        report({ range: target.range, message: `expected a target in (0, 1] after \`target\`, found ${target.text}` });
      }
    });
  },
};
