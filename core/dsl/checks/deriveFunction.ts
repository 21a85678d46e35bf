import { expressionNodes, statementsOf } from '../ast.ts';
import { closestWords } from '../editDistance.ts';
import { expressionFunctions } from '../keywords.ts';
import { eachBlock, type StudyCheck } from './check.ts';

export const deriveFunction: StudyCheck = {
  code: 'derive-unknown-function',
  severity: 'error',
  description: '`derive` knows three functions, `all(…)`, `any(…)` and `count(…)`.',
  check(context) {
    eachBlock(context, (block, report) => {
      for (const derive of statementsOf(block, 'derive')) {
        if (!derive.expression) continue;
        for (const node of expressionNodes(derive.expression)) {
          if (node.kind !== 'call') continue;
          const { callee } = node;
          if (expressionFunctions.includes(callee.text)) {
            if (node.args.length === 0)
              report({ range: node.range, message: `expected at least one argument to \`${callee.text}\`` });
            continue;
          }
          const close = closestWords(callee.text, expressionFunctions);
          report({
            range: callee.range,
            message: `unknown function \`${callee.text}\`: expected \`all\` or \`any\``,
            ...(close.length > 0 && {
              fixes: close.map((w) => ({
                title: `Replace \`${callee.text}\` with \`${w}\``,
                edits: [{ range: callee.range, newText: w }],
              })),
            }),
          });
        }
      }
    });
  },
};
