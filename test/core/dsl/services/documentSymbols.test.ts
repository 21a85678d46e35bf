import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseStudyFile } from '../../../../core/dsl/parser.ts';
import { type DslSymbol, documentSymbols } from '../../../../core/dsl/services/documentSymbols.ts';
import { sketch } from '../dslTestHelpers.ts';

function outline(symbols: DslSymbol[], depth = 0): string[] {
  return symbols.flatMap((s) => [`${'  '.repeat(depth)}${s.kind} ${s.name}`, ...outline(s.children, depth + 1)]);
}

function within(symbols: DslSymbol[]): void {
  for (const s of symbols) {
    assert.ok(s.selectionRange.start >= s.range.start && s.selectionRange.end <= s.range.end, s.name);
    for (const child of s.children)
      assert.ok(child.range.start >= s.range.start && child.range.end <= s.range.end, child.name);
    within(s.children);
  }
}

test('the outline of the sketch', () => {
  const symbols = documentSymbols(parseStudyFile(sketch));
  assert.deepEqual(outline(symbols), [
    'study wqt-dev',
    '  setting title',
    '  setting guidelines',
    '  source queries',
    '  source corpus',
    '  pool runs/bm25.trec',
    '  pool runs/e5.trec',
    '  scale scale',
    '    value 0 Off-topic',
    '    value 1 Violates',
    '    value 2 Complies',
    '  aspect topical',
    '  conditions conditions',
    '  derive derive label',
    '  annotators annotators',
    '  setting overlap',
    '  setting blind',
    '  judge gpt-4.1-mini',
    '  agreement agreement krippendorff',
    '  export qrels/wqt-dev.qrels',
    'review instructions',
    '  source items',
    '  taxonomy taxonomy',
    '    code C1',
    '    code C2',
    '    code S1',
    '    code S2',
    '    code S3',
    '  rubric rubric',
    '    dimension semantic_expansion',
    '    dimension semantic_consistency',
    '    dimension query_dependency',
    '    dimension constraint_abstraction',
    '    dimension category_focus',
    '    dimension internal_consistency',
    '  verdicts verdicts',
  ]);
  within(symbols);
  assert.equal(symbols[0]!.children.find((s) => s.kind === 'aspect')!.detail, "Is the table on the query's topic?");
});

test('a broken file still gives the outline of what parsed', () => {
  const symbols = documentSymbols(parseStudyFile('study "s" {\n  aspect a "A?"\n  titel "x"\n  aspect b "B?"\n'));
  assert.deepEqual(outline(symbols), ['study s', '  aspect a', '  aspect b']);
  within(symbols);
});
