import { type Expression, expressionNodes, statementOf, statementsOf } from '../ast.ts';
import { closestWords } from '../editDistance.ts';
import { eachBlock, listWords, type StudyCheck } from './check.ts';

export const deriveNames: StudyCheck = {
  code: 'derive-undeclared-name',
  severity: 'error',
  description:
    '`derive` may only use declared aspects and `conditions` (which needs a `conditions from FIELD` statement), ' +
    'and `conditions` only inside `all(…)`, `any(…)` or `count(…)`, or indexed (`conditions[2]`).',
  check(context) {
    eachBlock(context, (block, report) => {
      const aspects = statementsOf(block, 'aspect').flatMap((a) => (a.name ? [a.name.text] : []));
      const declared = new Set(aspects);
      const hasConditions = statementOf(block, 'conditions') !== undefined;
      for (const derive of statementsOf(block, 'derive')) {
        if (!derive.expression) continue;
        const insideCall = new Set<Expression>();
        for (const node of expressionNodes(derive.expression)) {
          if (node.kind === 'call') for (const arg of node.args) insideCall.add(arg);
          if (node.kind === 'index' && node.target.text === 'conditions' && !hasConditions) {
            report({
              range: node.target.range,
              message: '`conditions` is not declared: expected a `conditions from FIELD` statement in this study',
            });
          }
          if (node.kind !== 'name') continue;
          if (node.name === 'conditions') {
            if (!hasConditions) {
              report({
                range: node.range,
                message: '`conditions` is not declared: expected a `conditions from FIELD` statement in this study',
              });
            } else if (!insideCall.has(node)) {
              report({
                range: node.range,
                message:
                  'expected `conditions` inside `all(conditions)`, `any(conditions)` or `count(conditions)`, or one condition (`conditions[1]`)',
              });
            }
            continue;
          }
          if (declared.has(node.name)) continue;
          const close = closestWords(node.name, [...aspects, ...(hasConditions ? ['conditions'] : [])]);
          report({
            range: node.range,
            message:
              `\`${node.name}\` is not declared: expected an aspect` +
              (aspects.length > 0 ? ` (${listWords(aspects)})` : ' (none declared)') +
              (hasConditions ? ' or `conditions`' : '') +
              (close.length > 0 ? `; did you mean ${close.map((w) => `\`${w}\``).join(' or ')}?` : ''),
            ...(close.length > 0 && {
              fixes: close.map((w) => ({
                title: `Replace \`${node.name}\` with \`${w}\``,
                edits: [{ range: node.range, newText: w }],
              })),
            }),
          });
        }
      }
    });
  },
};
