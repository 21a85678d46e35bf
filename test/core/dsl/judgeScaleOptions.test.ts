// Issue 22's judge options — `mode online|batch`, `budget AMOUNT USD`, `accept when METRIC OP VALUE [and …]` —
// through the parser into the model, highlighting, hover and formatting. Their malformed forms are in
// brokenFiles.test.ts (one exact positioned diagnostic each).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolveStudies } from '../../../core/dsl/model.ts';
import { parseStudyFile } from '../../../core/dsl/parser.ts';
import { formatStudyText } from '../../../core/dsl/services/format.ts';
import { hoverAt } from '../../../core/dsl/services/hover.ts';
import { semanticTokens } from '../../../core/dsl/services/semanticTokens.ts';
import { diagnose, offsetOf, studyWith } from './dslTestHelpers.ts';

const judged = studyWith(
  'judge "gpt-4.1-mini" {',
  '  votes 3  mode batch',
  '  budget 25.5 USD',
  '  accept when tau >= 0.9 and tau_ap > -0.25 and kappa >= 0.6 and accuracy > 0.7 and ece < 0.1',
  '}',
  'judge "small" { mode online  accept when ece <= 0.05 }',
  'judge "plain"',
);

test('mode, budget and accept reach the judge model; a judge without them has none', () => {
  assert.deepEqual(diagnose(judged), []);
  const [study] = resolveStudies(parseStudyFile(judged)).studies;
  assert.deepEqual(study!.judges, [
    {
      model: 'gpt-4.1-mini',
      votes: 3,
      mode: 'batch',
      budget: { amount: 25.5, currency: 'USD' },
      accept: [
        { metric: 'tau', operator: '>=', value: 0.9 },
        { metric: 'tau_ap', operator: '>', value: -0.25 },
        { metric: 'kappa', operator: '>=', value: 0.6 },
        { metric: 'accuracy', operator: '>', value: 0.7 },
        { metric: 'ece', operator: '<', value: 0.1 },
      ],
    },
    { model: 'small', mode: 'online', accept: [{ metric: 'ece', operator: '<=', value: 0.05 }] },
    { model: 'plain' },
  ]);
});

test('the gate in the tree: each condition with its metric, comparison, value and range', () => {
  const text = studyWith('judge "m" { accept when kappa >= 0.6 and tau < 1 }');
  const judge = parseStudyFile(text).ast.blocks[0]!.statements.find((s) => s.kind === 'judge');
  assert.ok(judge?.kind === 'judge');
  const [accept] = judge.options;
  assert.equal(accept!.name, 'accept');
  const shown = accept!.conditions!.map((c) => [
    c.metric?.text,
    c.operator?.text,
    c.value?.value,
    text.slice(c.range.start, c.range.end),
  ]);
  assert.deepEqual(shown, [
    ['kappa', '>=', 0.6, 'kappa >= 0.6'],
    ['tau', '<', 1, 'tau < 1'],
  ]);
  assert.equal(text.slice(accept!.range.start, accept!.range.end), 'accept when kappa >= 0.6 and tau < 1');
});

test('highlighting: option names and `when`/`and` are keywords, values enum members, comparisons operators', () => {
  const text = studyWith('judge "m" { mode batch  budget 5 USD  accept when tau >= 0.9 and ece < 0.1 }');
  const start = offsetOf(text, 'mode');
  const end = text.indexOf(' }\n', start);
  const typed = semanticTokens(parseStudyFile(text))
    .filter((t) => t.start >= start && t.start < end)
    .map((t) => `${text.slice(t.start, t.start + t.length)}:${t.type}`);
  assert.deepEqual(typed, [
    'mode:keyword',
    'batch:enumMember',
    'budget:keyword',
    '5:number',
    'USD:enumMember',
    'accept:keyword',
    'when:keyword',
    'tau:enumMember',
    '>=:operator',
    '0.9:number',
    'and:keyword',
    'ece:enumMember',
    '<:operator',
    '0.1:number',
  ]);
});

test('hover: what a budget guarantees, what batch does, what each metric and comparison means', () => {
  const parsed = parseStudyFile(judged);
  const hover = (needle: string, delta = 0) => hoverAt(parsed, offsetOf(judged, needle, delta))?.markdown ?? '';
  assert.match(hover('budget'), /refuses to start beyond the budget/);
  assert.match(hover('budget'), /stops before spent plus in-flight cost would pass it/);
  assert.match(hover('USD'), /currency/);
  assert.match(hover('mode batch', 5), /Batch API/);
  assert.match(hover('mode online', 5), /one chat request per item and vote/i);
  assert.match(hover('accept'), /quality gate/);
  assert.match(hover('when'), /conditions that follow must all hold/);
  assert.match(hover('tau_ap'), /AP-correlation/);
  assert.match(hover('tau >='), /Kendall/);
  assert.match(hover('>= 0.9'), /at least the value/);
  assert.match(hover('< 0.1'), /less than the value/);
  assert.match(hover('ece'), /calibration/);
});

test('formatting keeps the options and the gate on their lines, comparisons spaced', () => {
  const messy = studyWith('judge "m" {', '      mode   batch', 'accept when tau>=0.9   and kappa >=0.6', '}');
  const formatted = formatStudyText(messy)!;
  assert.ok(formatted.includes('    mode batch\n'), formatted);
  assert.ok(formatted.includes('    accept when tau >= 0.9 and kappa >= 0.6\n'), formatted);
  assert.deepEqual(diagnose(formatted), []);
  assert.equal(formatStudyText(formatted), formatted);
});
