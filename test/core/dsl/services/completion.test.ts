import assert from 'node:assert/strict';
import { test } from 'node:test';
import { statementKeywords } from '../../../../core/dsl/keywords.ts';
import { parseStudyFile } from '../../../../core/dsl/parser.ts';
import { completionsAt, type DslCompletion } from '../../../../core/dsl/services/completion.ts';
import { offsetOf, sketch, studyWith } from '../dslTestHelpers.ts';

const labels = (items: DslCompletion[]) => items.map((c) => c.label);

function complete(text: string, offset: number, context = {}): DslCompletion[] {
  return completionsAt(parseStudyFile(text), offset, context);
}

test('at the start of a study statement: study keywords, not review ones', () => {
  const items = complete(sketch, offsetOf(sketch, '  aspect topical', 2));
  assert.deepEqual(labels(items), [...statementKeywords.study]);
  for (const only of ['items', 'tables', 'taxonomy', 'rubric', 'verdicts']) assert.ok(!labels(items).includes(only));
  assert.ok(items.every((c) => c.kind === 'keyword'));
});

test('at the start of a review statement: review keywords, not study ones', () => {
  const items = complete(sketch, offsetOf(sketch, '  verdicts accept', 2));
  assert.deepEqual(labels(items), [...statementKeywords.review]);
  for (const only of ['pool', 'scale', 'derive']) assert.ok(!labels(items).includes(only));
  for (const both of ['queries', 'corpus', 'tables']) assert.ok(labels(items).includes(both), both);
});

test('a partly typed keyword: the same list, replacing the word', () => {
  const text = studyWith('guid');
  const at = offsetOf(text, 'guid', 4);
  const items = complete(text, at);
  assert.ok(labels(items).includes('guidelines'));
  assert.deepEqual(items[0]!.range, { start: at - 4, end: at });
});

test('at the top level: study, review and the file statement store', () => {
  assert.deepEqual(labels(complete('', 0)), ['study', 'review', 'store']);
  assert.deepEqual(labels(complete(sketch, offsetOf(sketch, 'review "instructions"'))), ['study', 'review', 'store']);
});

test('after a keyword, only what may follow it', () => {
  const at = (text: string, needle: string, delta: number) => labels(complete(text, offsetOf(text, needle, delta)));
  assert.deepEqual(at(studyWith('scale '), 'scale \n', 6), ['ordinal', 'nominal', 'binary']);
  assert.deepEqual(at(studyWith('agreement '), 'agreement \n', 10), ['krippendorff', 'cohen', 'fleiss', 'percent']);
  assert.deepEqual(at(studyWith('export qrels "x" from '), 'from \n', 5), [
    'adjudicated',
    'majority',
    'all',
    'judge',
    'mean',
    'human-else-llm',
  ]);
  assert.deepEqual(at(studyWith('pool "r.trec" '), '" \n', 2), ['depth']);
  assert.deepEqual(at(sketch, 'temperature 0', 0), [
    'endpoint',
    'prompt',
    'temperature',
    'votes',
    'max_tokens',
    'seed',
    'mode',
    'budget',
    'accept',
  ]);
  assert.deepEqual(at(sketch, 'markdown', 0), ['markdown', 'html', 'text', 'json']);
  // After a complete agreement statistic: a level, `target`, or the next statement.
  const afterMetric = at(studyWith('agreement krippendorff '), 'krippendorff \n', 13);
  assert.deepEqual(afterMetric.slice(0, 7), [
    'nominal',
    'ordinal',
    'interval',
    'ratio',
    'linear',
    'quadratic',
    'target',
  ]);
  assert.ok(afterMetric.includes('title'));
});

test('judge options mode, budget and accept: their values, the currency, metrics and comparisons', () => {
  const at = (line: string) => {
    const text = studyWith(`judge "m" { ${line}`, '}');
    return complete(text, offsetOf(text, line, line.length));
  };
  const mode = at('mode ');
  assert.deepEqual(labels(mode), ['online', 'batch']);
  assert.ok(mode.every((c) => c.kind === 'value'));
  assert.deepEqual(labels(at('budget 25 ')), ['USD']);
  assert.deepEqual(labels(at('budget ')), []);
  assert.deepEqual(labels(at('accept ')), ['when']);
  const metrics = ['tau', 'tau_ap', 'kappa', 'accuracy', 'ece'];
  assert.deepEqual(labels(at('accept when ')), metrics);
  assert.deepEqual(labels(at('accept when tau ')), ['>=', '>', '<=', '<']);
  assert.deepEqual(labels(at('accept when tau >= 0.9 and ')), metrics);
  // After a whole condition: `and`, or another option of the judge block (entries may share a line).
  const afterCondition = labels(at('accept when tau >= 0.9 '));
  assert.equal(afterCondition[0], 'and');
  assert.ok(afterCondition.includes('votes') && afterCondition.includes('budget'));
  // A partly typed metric is replaced.
  const partial = studyWith('judge "m" { accept when kap }');
  const items = complete(partial, offsetOf(partial, 'kap', 3));
  assert.deepEqual(labels(items), metrics);
  assert.deepEqual(items[0]!.range, { start: offsetOf(partial, 'kap'), end: offsetOf(partial, 'kap', 3) });
});

test('in a mapping: the roles of that source; after `role:` the fields of its data file', () => {
  const roles = complete(sketch, offsetOf(sketch, 'id: table_id'));
  assert.deepEqual(labels(roles), ['id', 'body', 'title', 'format', 'parent', 'database', 'keys']);
  const fieldsOf = (source: string) => (source === 'corpus' ? ['table_id', 'table', 'caption', 'page title'] : ['qid']);
  const fields = complete(sketch, offsetOf(sketch, 'table_id', 3), { fieldsOf });
  assert.deepEqual(labels(fields), ['table_id', 'table', 'caption', 'page title']);
  assert.ok(fields.every((c) => c.kind === 'field'));
  assert.equal(fields[3]!.insertText, '"page title"', 'a field that is not a bare name is inserted quoted');
  const at = offsetOf(sketch, 'table_id');
  assert.deepEqual(fields[0]!.range, { start: at, end: at + 'table_id'.length });
});

test('inside a path string: the host paths for the typed prefix, replacing the string content', () => {
  const text = studyWith('guidelines "docs/gu');
  const at = text.indexOf('"docs/gu') + 8;
  const seen: string[] = [];
  const items = complete(text, at, {
    paths: (prefix: string) => {
      seen.push(prefix);
      return ['docs/guide.md', 'docs/guidelines.md'];
    },
  });
  assert.deepEqual(seen, ['docs/gu']);
  assert.deepEqual(labels(items), ['docs/guide.md', 'docs/guidelines.md']);
  assert.ok(items.every((c) => c.kind === 'path'));
  assert.deepEqual(items[0]!.range, { start: text.indexOf('"docs/gu') + 1, end: text.indexOf('"docs/gu') + 8 });
  // Not in a string that is not a path.
  assert.deepEqual(complete(sketch, offsetOf(sketch, '"WQT dev', 3), { paths: () => ['x'] }), []);
});

test('in a derive expression: declared aspects, conditions, all/any/count and the scale values', () => {
  const items = complete(sketch, offsetOf(sketch, 'topical ? 1'));
  assert.deepEqual(labels(items), ['topical', 'conditions', 'all', 'any', 'count', '0', '1', '2']);
  assert.equal(items.find((c) => c.label === 'topical')!.detail, "Is the table on the query's topic?");
  assert.equal(items.find((c) => c.label === '2')!.kind, 'value');
});

test('no completion inside a comment', () => {
  assert.deepEqual(complete(sketch, offsetOf(sketch, '# optional', 4)), []);
});

test('a statement ends at its line: its clauses are offered on its line (or after a `\\`), not on the next', () => {
  const sameLine = studyWith('pool "r.trec" ');
  const onLine = labels(complete(sameLine, offsetOf(sameLine, 'pool "r.trec" ', 14)));
  assert.ok(onLine.includes('depth'), onLine.join(' '));
  const nextLine = studyWith('pool "r.trec" depth 5', 'agreement cohen', '');
  const atStart = labels(complete(nextLine, offsetOf(nextLine, 'agreement cohen\n', 16) + 2));
  assert.ok(!atStart.includes('target'), atStart.join(' '));
  assert.deepEqual(atStart, [...statementKeywords.study]);
  const continued = studyWith('agreement cohen \\', '  ');
  const afterBackslash = labels(complete(continued, offsetOf(continued, 'cohen \\\n', 8) + 4));
  assert.ok(afterBackslash.includes('target'), afterBackslash.join(' '));
});
