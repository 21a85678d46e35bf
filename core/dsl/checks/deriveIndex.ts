import { expressionNodes, statementsOf } from '../ast.ts';
import { eachBlock, type StudyCheck } from './check.ts';

export const deriveIndex: StudyCheck = {
  code: 'derive-index',
  severity: 'error',
  description:
    '`NAME[N]` in `derive` picks one condition: only `conditions` can be indexed, and positions start at 1 ' +
    '(the first condition, as the Label view numbers them).',
  check(context) {
    eachBlock(context, (block, report) => {
      for (const derive of statementsOf(block, 'derive')) {
        if (!derive.expression) continue;
        for (const node of expressionNodes(derive.expression)) {
          if (node.kind !== 'index') continue;
          if (node.target.text !== 'conditions') {
            report({
              range: node.target.range,
              message: `only \`conditions\` can be indexed, found \`${node.target.text}[…]\`: an aspect is one answer`,
            });
          } else if (Number.isFinite(node.index.value) && node.index.value < 1) {
            report({
              range: node.index.range,
              message: `expected a position of 1 or more (\`conditions[1]\` is the first condition), found ${node.index.value}`,
              fixes: [{ title: 'Index the first condition', edits: [{ range: node.index.range, newText: '1' }] }],
            });
          }
        }
      }
    });
  },
};
