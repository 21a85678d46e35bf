// A study's `derive` rule evaluated for one pair. Pure and import-free at runtime: the extension host, the CLI and
// the Label webview (which proposes the derived label as the assessor ticks aspects and conditions) share it.
import type { DeriveExpression } from './model.ts';

/** An aspect's answer: yes/no, or a graded aspect's level (`levels 0 1 2`). */
export type AspectAnswer = boolean | number;

/**
 * The label a derive expression gives for one pair: `aspects` are the aspects' answers (yes/no, or a graded
 * aspect's level), `conditions` the per-condition checkboxes. Yes/no values count as 1/0 where a number is needed,
 * and any number other than 0 counts as yes where a yes/no is needed. Undeclared names, unanswered aspects and
 * `conditions[i]` past a query's last condition count as no / 0 (the checks have reported what they can).
 */
export function evaluateDerive(
  expression: DeriveExpression,
  answers: { aspects: Readonly<Record<string, AspectAnswer>>; conditions: readonly boolean[] },
): number {
  const asNumber = (answer: AspectAnswer | undefined): number => (typeof answer === 'number' ? answer : answer ? 1 : 0);
  const value = (node: DeriveExpression): number => {
    switch (node.kind) {
      case 'number':
        return node.value;
      case 'name':
        return asNumber(answers.aspects[node.name]);
      case 'index':
        return answers.conditions[node.position - 1] ? 1 : 0;
      case 'call': {
        const values = node.args.flatMap((arg) =>
          arg.kind === 'name' && arg.name === 'conditions' ? answers.conditions.map((c) => (c ? 1 : 0)) : [value(arg)],
        );
        if (node.fn === 'count') return values.filter((v) => v !== 0).length;
        return (node.fn === 'all' ? values.every((v) => v !== 0) : values.some((v) => v !== 0)) ? 1 : 0;
      }
      case 'not':
        return value(node.operand) === 0 ? 1 : 0;
      case 'binary': {
        const left = value(node.left);
        if (node.operator === '&&') return left !== 0 && value(node.right) !== 0 ? 1 : 0;
        if (node.operator === '||') return left !== 0 || value(node.right) !== 0 ? 1 : 0;
        return apply(node.operator, left, value(node.right));
      }
      case 'conditional':
        return value(node.test) !== 0 ? value(node.whenTrue) : value(node.whenFalse);
    }
  };
  return value(expression);
}

/** A binary operator other than `&&`/`||` (which short-circuit) on two values; comparisons give 1 or 0. */
function apply(operator: string, left: number, right: number): number {
  switch (operator) {
    case '+':
      return left + right;
    case '-':
      return left - right;
    case '*':
      return left * right;
    case '==':
      return left === right ? 1 : 0;
    case '!=':
      return left !== right ? 1 : 0;
    case '<':
      return left < right ? 1 : 0;
    case '<=':
      return left <= right ? 1 : 0;
    case '>':
      return left > right ? 1 : 0;
    default:
      return left >= right ? 1 : 0;
  }
}
