// The outline of a study file: where its record lives (`store`), studies and reviews, and inside them their data
// sources, pools, scale (with its values), aspects, judges, exports, taxonomy codes and rubric dimensions.
import type { BlockNode, StatementNode, StoreStatement } from '../ast.ts';
import type { ParsedStudyFile, TextRange } from '../types.ts';

export type DslSymbolKind =
  | 'study'
  | 'review'
  | 'source'
  | 'pool'
  | 'scale'
  | 'value'
  | 'aspect'
  | 'conditions'
  | 'derive'
  | 'annotators'
  | 'judge'
  | 'agreement'
  | 'export'
  | 'import'
  | 'taxonomy'
  | 'code'
  | 'rubric'
  | 'dimension'
  | 'verdicts'
  | 'measures'
  | 'setting'
  | 'store';

export interface DslSymbol {
  name: string;
  detail?: string;
  kind: DslSymbolKind;
  /** The whole construct. */
  range: TextRange;
  /** What to highlight when the symbol is picked (its name); inside `range`. */
  selectionRange: TextRange;
  children: DslSymbol[];
}

function leaf(
  name: string,
  kind: DslSymbolKind,
  range: TextRange,
  selectionRange: TextRange,
  detail?: string,
): DslSymbol {
  return { name, kind, range, selectionRange, children: [], ...(detail !== undefined && { detail }) };
}

function statementSymbol(statement: StatementNode): DslSymbol | undefined {
  const { range, keyword } = statement;
  switch (statement.kind) {
    case 'queries':
    case 'corpus':
    case 'items':
      return leaf(statement.kind, 'source', range, keyword, statement.path?.value);
    case 'pool':
      return leaf(
        statement.path?.value || 'pool',
        'pool',
        range,
        statement.path?.range ?? keyword,
        statement.depth && `depth ${statement.depth.text}`,
      );
    case 'scale':
      return {
        ...leaf('scale', 'scale', range, keyword, statement.scaleKind?.text),
        children: statement.entries.map((e) =>
          leaf(
            `${e.value.text} ${e.label?.value ?? ''}`.trim(),
            'value',
            e.range,
            e.value.range,
            e.key && `key ${e.key.value}`,
          ),
        ),
      };
    case 'aspect':
      return (
        statement.name && leaf(statement.name.text, 'aspect', range, statement.name.range, statement.question?.value)
      );
    case 'conditions':
      return leaf('conditions', 'conditions', range, keyword, statement.field && `from ${statement.field.text}`);
    case 'derive':
      return leaf(`derive ${statement.target?.text ?? ''}`.trim(), 'derive', range, keyword);
    case 'annotators':
      return leaf('annotators', 'annotators', range, keyword, statement.names.map((n) => n.text).join(' '));
    case 'verdicts':
      return leaf('verdicts', 'verdicts', range, keyword, statement.names.map((n) => n.text).join(' '));
    case 'measures':
      return leaf('measures', 'measures', range, keyword, statement.names.map((n) => n.text).join(' '));
    case 'judge':
      return leaf(statement.model?.value || 'judge', 'judge', range, statement.model?.range ?? keyword, 'judge');
    case 'agreement':
      return leaf(
        `agreement ${statement.metric?.text ?? ''}`.trim(),
        'agreement',
        range,
        keyword,
        statement.level?.text,
      );
    case 'export':
      return leaf(
        statement.path?.value || 'export',
        'export',
        range,
        statement.path?.range ?? keyword,
        statement.what?.text,
      );
    case 'import':
      return leaf(
        statement.path?.value || 'import',
        'import',
        range,
        statement.path?.range ?? keyword,
        statement.what?.text,
      );
    case 'taxonomy':
      return {
        ...leaf('taxonomy', 'taxonomy', range, keyword),
        children: statement.entries.map((e) => leaf(e.code.text, 'code', e.range, e.code.range, e.label?.value)),
      };
    case 'rubric':
      return {
        ...leaf('rubric', 'rubric', range, keyword, statement.levels.map((l) => l.text).join(' ')),
        children: statement.dimensions.map((d) =>
          leaf(d.name.text, 'dimension', d.range, d.name.range, d.description?.value),
        ),
      };
    case 'title':
      return leaf('title', 'setting', range, keyword, statement.value?.value);
    case 'guidelines':
    case 'tables':
      return leaf(statement.kind, 'setting', range, keyword, statement.path?.value);
    case 'adjudicator':
      return leaf('adjudicator', 'setting', range, keyword, statement.name?.text);
    case 'overlap':
      return leaf('overlap', 'setting', range, keyword, statement.count?.text);
    case 'blind':
      return leaf('blind', 'setting', range, keyword);
  }
}

function blockSymbol(block: BlockNode): DslSymbol {
  return {
    name: block.name?.value || block.kind,
    detail: block.kind,
    kind: block.kind,
    range: block.range,
    selectionRange: block.name?.range ?? block.keyword,
    children: block.statements.flatMap((s) => statementSymbol(s) ?? []),
  };
}

/** `store postgres "team-wqt"`: `store`, detailed `postgres "team-wqt"` (or `sqlite`), its name selected. */
function storeSymbol(statement: StoreStatement): DslSymbol {
  const where = [statement.storeKind?.text, statement.name && JSON.stringify(statement.name.value)];
  const detail = where.filter((part) => part !== undefined && part !== '').join(' ');
  return leaf(
    'store',
    'store',
    statement.range,
    statement.name?.range ?? statement.storeKind?.range ?? statement.keyword,
    detail === '' ? undefined : detail,
  );
}

export function documentSymbols(parsed: ParsedStudyFile): DslSymbol[] {
  const { stores = [], blocks } = parsed.ast;
  return [...stores.map(storeSymbol), ...blocks.map(blockSymbol)].sort((a, b) => a.range.start - b.range.start);
}
