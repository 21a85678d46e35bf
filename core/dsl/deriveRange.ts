// The values a `derive` expression can produce, by interval arithmetic: the language server checks them against
// the scale. The number of a query's conditions is not in the study (it comes from each query's data), so
// `count(conditions)` ranges from 0 to an unknown n: its maximum is unbounded (Infinity) unless a `?:` caps it.
import type { Expression } from './ast.ts';

export interface ValueRange {
  /** -Infinity / Infinity when the study does not bound it. */
  min: number;
  max: number;
}

const yesNo: ValueRange = { min: 0, max: 1 };

/** Whether `node` gives a yes/no (1 or 0) by its form: comparisons, `!`, `&&`, `||`, `all`, `any`, `conditions[i]`. */
export function isYesNoForm(node: Expression, gradedAspects: ReadonlyMap<string, readonly number[]>): boolean {
  switch (node.kind) {
    case 'not':
    case 'index':
      return true;
    case 'name':
      return !gradedAspects.has(node.name);
    case 'call':
      return node.callee.text !== 'count';
    case 'binary':
      return !['+', '-', '*'].includes(node.operator);
    default:
      return false;
  }
}

/** Sub-expressions larger than this are not narrowed (a `?:` test compares something short, such as a count). */
const maxKeyNodes = 64;

/**
 * A key equal for two expressions written alike (ranges aside): `?:` narrows the one its test compares. Undefined
 * for an expression of more than `maxKeyNodes` nodes (a chain of 10,000 `+` is neither recursed into nor keyed).
 */
function keyOf(node: Expression): string | undefined {
  let budget = maxKeyNodes;
  const key = (n: Expression): string | undefined => {
    if (--budget < 0) return undefined;
    switch (n.kind) {
      case 'number':
        return String(n.value);
      case 'name':
        return n.name;
      case 'index':
        return `${n.target.text}[${n.index.value}]`;
      case 'call': {
        const args = n.args.map(key);
        return args.includes(undefined) ? undefined : `${n.callee.text}(${args.join(',')})`;
      }
      case 'not': {
        const operand = key(n.operand);
        return operand === undefined ? undefined : `!(${operand})`;
      }
      case 'binary': {
        const left = key(n.left);
        const right = left === undefined ? undefined : key(n.right);
        return right === undefined ? undefined : `(${left}${n.operator}${right})`;
      }
      case 'conditional': {
        const parts = [n.test, n.whenTrue, n.whenFalse].map(key);
        return parts.includes(undefined) ? undefined : `(${parts[0]}?${parts[1]}:${parts[2]})`;
      }
    }
  };
  return key(node);
}

/** NaN (∞ − ∞, 0 · ∞) becomes the widest bound. */
function bounds(values: number[]): ValueRange {
  const clean = (v: number, fallback: number) => (Number.isNaN(v) ? fallback : v);
  return {
    min: Math.min(...values.map((v) => clean(v, Number.NEGATIVE_INFINITY))),
    max: Math.max(...values.map((v) => clean(v, Number.POSITIVE_INFINITY))),
  };
}

function product(a: number, b: number): number {
  // 0 · ∞ is 0 here: a factor that is 0 gives 0 whatever the other is.
  return a === 0 || b === 0 ? 0 : a * b;
}

/**
 * Narrowing by a `?:` test `X op K` (K a number): in the branch where the test holds X is within the bound, in the
 * other beyond it; so `count(conditions) > 3 ? 3 : count(conditions)` is known to stay within 0..3.
 */
function narrowings(test: Expression, holds: boolean): Map<string, ValueRange> {
  const out = new Map<string, ValueRange>();
  if (test.kind === 'not') return narrowings(test.operand, !holds);
  if (test.kind !== 'binary') return out;
  if (holds && test.operator === '&&') {
    for (const [k, v] of [...narrowings(test.left, true), ...narrowings(test.right, true)]) out.set(k, v);
    return out;
  }
  if (!holds && test.operator === '||') {
    for (const [k, v] of [...narrowings(test.left, false), ...narrowings(test.right, false)]) out.set(k, v);
    return out;
  }
  const flipped: Record<string, string> = { '<': '>', '<=': '>=', '>': '<', '>=': '<=', '==': '==', '!=': '!=' };
  let subject: Expression;
  let bound: number;
  let operator: string;
  if (test.right.kind === 'number') {
    subject = test.left;
    bound = test.right.value;
    operator = test.operator;
  } else if (test.left.kind === 'number') {
    subject = test.right;
    bound = test.left.value;
    operator = flipped[test.operator] ?? '';
  } else {
    return out;
  }
  const negated: Record<string, string> = { '<': '>=', '<=': '>', '>': '<=', '>=': '<', '==': '!=', '!=': '==' };
  const op = holds ? operator : (negated[operator] ?? '');
  // Integers only (the language has no division), so `> k` is `>= k + 1`.
  const range: Record<string, ValueRange> = {
    '<': { min: Number.NEGATIVE_INFINITY, max: bound - 1 },
    '<=': { min: Number.NEGATIVE_INFINITY, max: bound },
    '>': { min: bound + 1, max: Number.POSITIVE_INFINITY },
    '>=': { min: bound, max: Number.POSITIVE_INFINITY },
    '==': { min: bound, max: bound },
  };
  const narrowed = range[op];
  const key = keyOf(subject);
  if (narrowed && key !== undefined) out.set(key, narrowed);
  return out;
}

/** A sub-expression whose value becomes the label (the root, or a `?:` branch on the way), with its range there. */
export interface DeriveResult {
  node: Expression;
  range: ValueRange;
}

type Known = ReadonlyMap<string, ValueRange>;

/**
 * The least and greatest value `expression` can give, and the same for each of its result positions (the
 * branches of its `?:`s, narrowed by their tests). `gradedAspects`: each graded aspect's levels (a yes/no aspect,
 * or an undeclared name, gives 0..1). Iterative: a chain of 10,000 `+` is 10,000 deep.
 */
export function deriveRange(
  expression: Expression,
  gradedAspects: ReadonlyMap<string, readonly number[]>,
): { range: ValueRange; results: DeriveResult[] } {
  const ranges = new Map<Expression, ValueRange>();
  const results: DeriveResult[] = [];
  const resultNodes = new Set<Expression>([expression]);
  // Post-order: a node's range is computed once its operands' are, each under the `?:` tests above it.
  const stack: { node: Expression; known: Known; ready: boolean }[] = [
    { node: expression, known: new Map(), ready: false },
  ];
  while (stack.length > 0) {
    const top = stack.pop()!;
    const { node, known } = top;
    if (!top.ready) {
      stack.push({ node, known, ready: true });
      const operands: [Expression, Known][] = [];
      switch (node.kind) {
        case 'call':
          for (const arg of node.args) operands.push([arg, known]);
          break;
        case 'not':
          operands.push([node.operand, known]);
          break;
        case 'binary':
          operands.push([node.left, known], [node.right, known]);
          break;
        case 'conditional':
          operands.push([node.test, known]);
          operands.push([node.whenTrue, new Map([...known, ...narrowings(node.test, true)])]);
          operands.push([node.whenFalse, new Map([...known, ...narrowings(node.test, false)])]);
          if (resultNodes.has(node)) {
            resultNodes.add(node.whenTrue);
            resultNodes.add(node.whenFalse);
          }
          break;
      }
      for (const [operand, operandKnown] of operands.reverse())
        stack.push({ node: operand, known: operandKnown, ready: false });
      continue;
    }
    const own = rangeOf(node, (operand) => ranges.get(operand) ?? yesNo, gradedAspects);
    const key = known.size > 0 ? keyOf(node) : undefined;
    const narrowed = key === undefined ? undefined : known.get(key);
    let range = own;
    if (narrowed) {
      const min = Math.max(own.min, narrowed.min);
      const max = Math.min(own.max, narrowed.max);
      // An empty intersection: that branch cannot be taken for this value; keep the expression's own range.
      if (min <= max) range = { min, max };
    }
    ranges.set(node, range);
    if (resultNodes.has(node) && node.kind !== 'conditional') results.push({ node, range });
  }
  return { range: ranges.get(expression) ?? yesNo, results };
}

/** The range of `node` from its operands' ranges (`of`). */
function rangeOf(
  node: Expression,
  of: (operand: Expression) => ValueRange,
  gradedAspects: ReadonlyMap<string, readonly number[]>,
): ValueRange {
  switch (node.kind) {
    case 'number':
      return { min: node.value, max: node.value };
    case 'name': {
      const levels = gradedAspects.get(node.name);
      return levels && levels.length > 0 ? bounds([...levels]) : yesNo;
    }
    case 'call': {
      if (node.callee.text !== 'count') return yesNo;
      let min = 0;
      let max = 0;
      for (const arg of node.args) {
        if (arg.kind === 'name' && arg.name === 'conditions') {
          max = Number.POSITIVE_INFINITY;
          continue;
        }
        const r = of(arg);
        if (r.min > 0 || r.max < 0) min += 1;
        if (r.min !== 0 || r.max !== 0) max += 1;
      }
      return { min, max };
    }
    case 'binary': {
      if (!['+', '-', '*'].includes(node.operator)) return yesNo;
      const a = of(node.left);
      const b = of(node.right);
      if (node.operator === '+') return bounds([a.min + b.min, a.max + b.max]);
      if (node.operator === '-') return bounds([a.min - b.max, a.max - b.min]);
      return bounds([product(a.min, b.min), product(a.min, b.max), product(a.max, b.min), product(a.max, b.max)]);
    }
    case 'conditional': {
      const whenTrue = of(node.whenTrue);
      const whenFalse = of(node.whenFalse);
      return { min: Math.min(whenTrue.min, whenFalse.min), max: Math.max(whenTrue.max, whenFalse.max) };
    }
    default:
      return yesNo;
  }
}
