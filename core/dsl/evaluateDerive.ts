// A study's `derive` rule evaluated for one pair. Pure and import-free at runtime: the extension host, the CLI and
// the Label webview (which proposes the derived label as the assessor ticks aspects and conditions) share it.
import type { DeriveExpression } from './model.ts';

/**
 * The label a derive expression gives for one pair: `aspects` are the yes/no answers, `conditions` the
 * per-condition checkboxes. Yes/no values count as 1/0 where a number is needed. Undeclared names count as no
 * (the checks have reported them).
 */
export function evaluateDerive(
  expression: DeriveExpression,
  answers: { aspects: Readonly<Record<string, boolean>>; conditions: readonly boolean[] },
): number {
  const value = (node: DeriveExpression): number => {
    switch (node.kind) {
      case 'number':
        return node.value;
      case 'name':
        return answers.aspects[node.name] ? 1 : 0;
      case 'call': {
        const values = node.args.flatMap((arg) =>
          arg.kind === 'name' && arg.name === 'conditions' ? answers.conditions.map((c) => (c ? 1 : 0)) : [value(arg)],
        );
        return (node.fn === 'all' ? values.every((v) => v !== 0) : values.some((v) => v !== 0)) ? 1 : 0;
      }
      case 'not':
        return value(node.operand) === 0 ? 1 : 0;
      case 'binary': {
        const left = value(node.left);
        if (node.operator === '&&') return left !== 0 && value(node.right) !== 0 ? 1 : 0;
        if (node.operator === '||') return left !== 0 || value(node.right) !== 0 ? 1 : 0;
        const right = value(node.right);
        const comparisons: Record<string, boolean> = {
          '==': left === right,
          '!=': left !== right,
          '<': left < right,
          '<=': left <= right,
          '>': left > right,
          '>=': left >= right,
        };
        return comparisons[node.operator] ? 1 : 0;
      }
      case 'conditional':
        return value(node.test) !== 0 ? value(node.whenTrue) : value(node.whenFalse);
    }
  };
  return value(expression);
}
