import { type Expression, statementsOf } from '../ast.ts';
import { eachBlock, listWords, type StudyCheck } from './check.ts';

/** The sub-expressions whose value becomes the label: the root, and both branches of every `?:` on the way. */
function resultPositions(root: Expression): Expression[] {
  const out: Expression[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.kind === 'conditional') stack.push(node.whenFalse, node.whenTrue);
    else out.push(node);
  }
  return out;
}

export const deriveValues: StudyCheck = {
  code: 'derive-value',
  severity: 'error',
  description:
    'Every value `derive label = …` can produce must be a value of the scale (a yes/no result gives 1 or 0), ' +
    'and `label` is the only thing derive computes.',
  check(context) {
    eachBlock(context, (block, report) => {
      const scale = statementsOf(block, 'scale')[0];
      const values = scale ? scale.entries.map((e) => e.value.value).filter(Number.isFinite) : [];
      for (const derive of statementsOf(block, 'derive')) {
        if (derive.target && derive.target.text !== 'label') {
          report({
            range: derive.target.range,
            message: `expected \`label\` after \`derive\` (the only derived value), found \`${derive.target.text}\``,
            fixes: [{ title: 'Derive `label`', edits: [{ range: derive.target.range, newText: 'label' }] }],
          });
        }
        if (!derive.expression || !scale) continue;
        const shown = listWords(values.map(String), false);
        for (const node of resultPositions(derive.expression)) {
          if (node.kind === 'number') {
            if (!Number.isFinite(node.value) || values.includes(node.value)) continue;
            report({ range: node.range, message: `${node.value} is not a scale value: expected one of ${shown}` });
          } else {
            const missing = [1, 0].filter((v) => !values.includes(v));
            if (missing.length === 0) continue;
            report({
              range: node.range,
              message: `this yes/no result gives 1 or 0, but ${listWords(missing.map(String), false)} ${missing.length === 1 ? 'is' : 'are'} not a scale value (${shown}): expected \`? VALUE : VALUE\``,
            });
          }
        }
      }
    });
  },
};
