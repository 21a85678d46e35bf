// The syntax tree of a study file, as the parser builds it. Every node keeps the ranges of its parts so checks
// and editor services can point at the exact token. Parts a broken statement lacks are `undefined` (the parser
// has reported why), so checks look only at what is there.
import type { TextRange } from './types.ts';

export interface NameNode {
  text: string;
  range: TextRange;
}

export interface StringNode {
  /** The decoded value (escapes applied). */
  value: string;
  /** Includes the quotes. */
  range: TextRange;
}

export interface NumberNode {
  /** NaN when the token was malformed (already reported by the lexer). */
  value: number;
  text: string;
  integer: boolean;
  range: TextRange;
}

export interface StudyFileAst {
  blocks: BlockNode[];
  /** Top-level `store …` statements (one is valid; the checks report a second). */
  stores: StoreStatement[];
}

/**
 * `store postgres "team-wqt"` or `store sqlite` at the top level of a file: where every study of the file keeps its
 * record. `name` names the connection the user configures on their side (settings, libpq environment), never a
 * password.
 */
export interface StoreStatement {
  keyword: TextRange;
  /** `postgres` or `sqlite`; absent when missing or misspelt (the parser has reported it). */
  storeKind?: NameNode;
  name?: StringNode;
  range: TextRange;
}

export type BlockKind = 'study' | 'review';

export interface BlockNode {
  kind: BlockKind;
  keyword: TextRange;
  name?: StringNode;
  /** From the keyword to the closing `}` (or the last token of the block when it is not closed). */
  range: TextRange;
  open?: TextRange;
  close?: TextRange;
  statements: StatementNode[];
}

interface StatementBase {
  keyword: TextRange;
  /** From the keyword to the last token of the statement. */
  range: TextRange;
}

export type SourceKind = 'queries' | 'corpus' | 'items';

/** `role: field` in a `queries`, `corpus` or `items` mapping. The value is a field name, or for `format` a format. */
export interface FieldMapping {
  role: NameNode;
  value?: NameNode;
  range: TextRange;
}

export interface TitleStatement extends StatementBase {
  kind: 'title';
  value?: StringNode;
}

export interface GuidelinesStatement extends StatementBase {
  kind: 'guidelines';
  path?: StringNode;
}

/** A review's `tables "qrels"`: each item's labelled table set. */
export interface TablesStatement extends StatementBase {
  kind: 'tables';
  path?: StringNode;
}

export interface SourceStatement<K extends SourceKind = SourceKind> extends StatementBase {
  kind: K;
  path?: StringNode;
  /** `from hf-viewer`: the file format, when declared. */
  from?: NameNode;
  mappings: FieldMapping[];
  /** The `{ … }` of the mapping, when there is one. */
  mappingRange?: TextRange;
}

export interface PoolStatement extends StatementBase {
  kind: 'pool';
  path?: StringNode;
  depth?: NumberNode;
}

export interface ScaleEntry {
  value: NumberNode;
  label?: StringNode;
  key?: StringNode;
  description?: StringNode;
  /** `gain G`: the value's gain in nDCG (absent: the value itself, as trec_eval). */
  gain?: NumberNode;
  range: TextRange;
}

export interface ScaleStatement extends StatementBase {
  kind: 'scale';
  scaleKind?: NameNode;
  entries: ScaleEntry[];
}

export interface AspectStatement extends StatementBase {
  kind: 'aspect';
  name?: NameNode;
  question?: StringNode;
  /** `levels 0 1 2`: a graded aspect answered with one of these values; without it the aspect is yes/no. */
  levels?: NumberNode[];
  /** The range of the word `levels`, when present. */
  levelsKeyword?: TextRange;
}

export interface ConditionsStatement extends StatementBase {
  kind: 'conditions';
  field?: NameNode;
}

export interface DeriveStatement extends StatementBase {
  kind: 'derive';
  target?: NameNode;
  expression?: Expression;
}

/** `annotators`, `verdicts`, `measures`: a list of names. */
export interface NameListStatement<
  K extends 'annotators' | 'verdicts' | 'measures' = 'annotators' | 'verdicts' | 'measures',
> extends StatementBase {
  kind: K;
  names: NameNode[];
}

export interface AdjudicatorStatement extends StatementBase {
  kind: 'adjudicator';
  name?: NameNode;
}

export interface OverlapStatement extends StatementBase {
  kind: 'overlap';
  count?: NumberNode;
}

export interface BlindStatement extends StatementBase {
  kind: 'blind';
}

export type JudgeOptionName =
  | 'endpoint'
  | 'prompt'
  | 'temperature'
  | 'votes'
  | 'max_tokens'
  | 'seed'
  | 'mode'
  | 'budget'
  | 'accept';

/** One condition of `accept when tau >= 0.9 and kappa >= 0.6`; a part is absent where the text was malformed. */
export interface JudgeGateConditionNode {
  /** Absent when the word was not a known metric (reported). */
  metric?: NameNode;
  /** `>=`, `>`, `<=` or `<`. */
  operator?: NameNode;
  value?: NumberNode;
  range: TextRange;
}

export interface JudgeOption {
  name: JudgeOptionName;
  nameRange: TextRange;
  /** The string or number after the option (`budget 25 USD`: the amount). */
  value?: StringNode | NumberNode;
  /** `mode batch|online`: the mode. */
  mode?: NameNode;
  /** `budget 25 USD`: the currency. */
  currency?: NameNode;
  /** `accept when …`: the conditions, all of which must hold. */
  conditions?: JudgeGateConditionNode[];
  range: TextRange;
}

export interface JudgeStatement extends StatementBase {
  kind: 'judge';
  model?: StringNode;
  options: JudgeOption[];
}

export interface AgreementStatement extends StatementBase {
  kind: 'agreement';
  metric?: NameNode;
  level?: NameNode;
  target?: NumberNode;
}

export interface ExportStatement extends StatementBase {
  kind: 'export';
  what?: NameNode;
  path?: StringNode;
  source?: NameNode;
  /** `from mean > 1.5`: the threshold. */
  threshold?: NumberNode;
  /** The range of `per document`, when present. */
  perDocument?: TextRange;
  /** The range of `per chunk` (each document's label given to its chunks), when present. */
  perChunk?: TextRange;
  /** `by max|any`: how chunk labels make a document label (only with `per document`; absent: max). */
  rollup?: NameNode;
}

export interface ImportStatement extends StatementBase {
  kind: 'import';
  what?: NameNode;
  path?: StringNode;
  /** The annotator id the imported labels are recorded under (`as crowd`). */
  as?: NameNode;
  /** Who made them (`kind gold`). */
  labelKind?: NameNode;
}

export interface TaxonomyEntry {
  code: NameNode;
  label?: StringNode;
  range: TextRange;
}

export interface TaxonomyStatement extends StatementBase {
  kind: 'taxonomy';
  entries: TaxonomyEntry[];
}

export interface RubricDimension {
  name: NameNode;
  description?: StringNode;
  range: TextRange;
}

export interface RubricStatement extends StatementBase {
  kind: 'rubric';
  levels: NameNode[];
  dimensions: RubricDimension[];
}

export type StatementNode =
  | TitleStatement
  | GuidelinesStatement
  | TablesStatement
  | SourceStatement<'queries'>
  | SourceStatement<'corpus'>
  | SourceStatement<'items'>
  | PoolStatement
  | ScaleStatement
  | AspectStatement
  | ConditionsStatement
  | DeriveStatement
  | NameListStatement<'annotators'>
  | NameListStatement<'verdicts'>
  | NameListStatement<'measures'>
  | AdjudicatorStatement
  | OverlapStatement
  | BlindStatement
  | JudgeStatement
  | AgreementStatement
  | ExportStatement
  | ImportStatement
  | TaxonomyStatement
  | RubricStatement;

export type StatementKind = StatementNode['kind'];

export type BinaryOperator = '||' | '&&' | '==' | '!=' | '<' | '<=' | '>' | '>=' | '+' | '-' | '*';

export type Expression =
  | { kind: 'number'; value: number; range: TextRange }
  | { kind: 'name'; name: string; range: TextRange }
  | { kind: 'call'; callee: NameNode; args: Expression[]; range: TextRange }
  /** `conditions[2]`: one condition, 1-based as the Label view numbers them. */
  | { kind: 'index'; target: NameNode; index: NumberNode; range: TextRange }
  | { kind: 'not'; operand: Expression; range: TextRange }
  | { kind: 'binary'; operator: BinaryOperator; left: Expression; right: Expression; range: TextRange }
  | { kind: 'conditional'; test: Expression; whenTrue: Expression; whenFalse: Expression; range: TextRange };

/** Statements of `kind` in `block`, in order. */
export function statementsOf<K extends StatementKind>(
  block: BlockNode,
  kind: K,
): Extract<StatementNode, { kind: K }>[] {
  return block.statements.filter((s): s is Extract<StatementNode, { kind: K }> => s.kind === kind);
}

/** The first statement of `kind` in `block`. */
export function statementOf<K extends StatementKind>(
  block: BlockNode,
  kind: K,
): Extract<StatementNode, { kind: K }> | undefined {
  return block.statements.find((s): s is Extract<StatementNode, { kind: K }> => s.kind === kind);
}

/** The `queries`, `corpus` and `items` statements of `block`. */
export function sourceStatements(block: BlockNode): SourceStatement[] {
  return block.statements.filter(
    (s): s is SourceStatement => s.kind === 'queries' || s.kind === 'corpus' || s.kind === 'items',
  );
}

/** Every sub-expression of `expression`, itself first (iterative: expressions can be deep). */
export function expressionNodes(expression: Expression): Expression[] {
  const out: Expression[] = [];
  const stack: Expression[] = [expression];
  while (stack.length > 0) {
    const node = stack.pop()!;
    out.push(node);
    switch (node.kind) {
      case 'call':
        for (let i = node.args.length - 1; i >= 0; i--) stack.push(node.args[i]!);
        break;
      case 'not':
        stack.push(node.operand);
        break;
      case 'binary':
        stack.push(node.right, node.left);
        break;
      case 'conditional':
        stack.push(node.whenFalse, node.whenTrue, node.test);
        break;
    }
  }
  return out;
}
