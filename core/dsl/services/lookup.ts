// Finding things at an offset: the token under the cursor, the block it is in, and what a name or number in it
// refers to. Hover, go-to-definition and completion all start here.
import {
  type AspectStatement,
  type BlockNode,
  type ConditionsStatement,
  type Expression,
  expressionNodes,
  type ScaleEntry,
  type StudyFileAst,
  statementOf,
  statementsOf,
} from '../ast.ts';
import type { Token } from '../lexer.ts';

/** The token containing `offset` (start ≤ offset < end), else the one ending exactly there (cursor after a word). */
export function tokenAt(tokens: readonly Token[], offset: number): Token | undefined {
  let low = 0;
  let high = tokens.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const token = tokens[mid]!;
    if (offset < token.start) high = mid - 1;
    else if (offset >= token.end) low = mid + 1;
    else return token;
  }
  const before = tokens[high];
  return before && before.end === offset ? before : undefined;
}

/** The block that `offset` falls in (the last block starting before it). */
export function blockAt(ast: StudyFileAst, offset: number): BlockNode | undefined {
  let found: BlockNode | undefined;
  for (const block of ast.blocks) if (block.keyword.start <= offset) found = block;
  return found;
}

export type Meaning =
  | { kind: 'aspect'; aspect: AspectStatement }
  | { kind: 'scale-value'; entry: ScaleEntry }
  | { kind: 'conditions'; statement: ConditionsStatement };

/**
 * The derive expression node (name, number, or `conditions[i]` at its name) at `offset`, if the offset is inside a
 * derive expression.
 */
export function deriveOperandAt(block: BlockNode, offset: number): Expression | undefined {
  for (const derive of statementsOf(block, 'derive')) {
    if (!derive.expression || offset < derive.expression.range.start || offset > derive.expression.range.end) continue;
    return expressionNodes(derive.expression).find((node) => {
      const range = node.kind === 'index' ? node.target.range : node.range;
      return (
        (node.kind === 'name' || node.kind === 'number' || node.kind === 'index') &&
        offset >= range.start &&
        offset <= range.end
      );
    });
  }
  return undefined;
}

/** What a name or number token means in its block: a declared aspect, a scale value, the conditions. */
export function meaningOf(block: BlockNode, token: Token): Meaning | undefined {
  if (token.kind === 'number') {
    const inDerive = deriveOperandAt(block, token.start)?.kind === 'number';
    const entries = statementsOf(block, 'scale').flatMap((s) => s.entries);
    const declared = entries.find((e) => e.value.range.start === token.start);
    if (declared) return { kind: 'scale-value', entry: declared };
    if (!inDerive) return undefined;
    const entry = entries.find((e) => e.value.value === token.number);
    return entry && { kind: 'scale-value', entry };
  }
  if (token.kind !== 'name') return undefined;
  const aspect = statementsOf(block, 'aspect').find((a) => a.name?.text === token.text);
  const isDeclaration = aspect?.name?.range.start === token.start;
  const operand = deriveOperandAt(block, token.start);
  if (aspect && (isDeclaration || operand?.kind === 'name')) return { kind: 'aspect', aspect };
  if (token.text === 'conditions' && (operand?.kind === 'name' || operand?.kind === 'index')) {
    const statement = statementOf(block, 'conditions');
    return statement && { kind: 'conditions', statement };
  }
  return undefined;
}
