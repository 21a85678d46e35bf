import assert from 'node:assert/strict';
import { test } from 'node:test';
import { statementOf } from '../../../core/dsl/ast.ts';
import { gradedAspects } from '../../../core/dsl/checks/deriveValues.ts';
import { deriveRange } from '../../../core/dsl/deriveRange.ts';
import { parseStudyFile } from '../../../core/dsl/parser.ts';
import { problems } from './dslTestHelpers.ts';

/** A study with a 0..`top` scale, four graded aspects a1..a4 (levels 0 1 2), yes/no `t`, conditions and `rule`. */
function study(top: number, rule: string): string {
  const scale = Array.from({ length: top + 1 }, (_, v) => `    ${v} "L${v}" key "${v}"`).join('\n');
  return [
    'study "s" {',
    '  queries "q.jsonl" { id: qid  text: query }',
    '  corpus "c.jsonl" { id: did  body: text }',
    `  scale ordinal {\n${scale}\n  }`,
    ...[1, 2, 3, 4].map((i) => `  aspect a${i} "Aspect ${i}" levels 0 1 2`),
    '  aspect t "On topic?"',
    '  conditions from instruction',
    `  derive label = ${rule}`,
    '}',
    '',
  ].join('\n');
}

function rangeOf(text: string) {
  const block = parseStudyFile(text).ast.blocks[0]!;
  return deriveRange(statementOf(block, 'derive')!.expression!, gradedAspects(block)).range;
}

const derive = (text: string) => problems(text).filter((d) => d.code.startsWith('derive'));

test('interval arithmetic: sums of graded aspects, products, differences, count', () => {
  // Four aspects of levels 0..2 summed: 0 to 4·2 = 8.
  assert.deepEqual(rangeOf(study(8, 'a1 + a2 + a3 + a4')), { min: 0, max: 8 });
  // a1 − a2: 0 − 2 = −2 to 2 − 0 = 2; 2·a1 − t: 0 − 1 = −1 to 4 − 0 = 4.
  assert.deepEqual(rangeOf(study(8, 'a1 - a2')), { min: -2, max: 2 });
  assert.deepEqual(rangeOf(study(8, '2 * a1 - t')), { min: -1, max: 4 });
  // count of three named answers: 0 to 3; count(conditions): 0 to n, n unknown → unbounded above.
  assert.deepEqual(rangeOf(study(8, 'count(a1, t, a2)')), { min: 0, max: 3 });
  assert.deepEqual(rangeOf(study(8, 'count(conditions)')), { min: 0, max: Number.POSITIVE_INFINITY });
  // Capped by ?:: the false branch knows count <= 3, so 0 to 3.
  assert.deepEqual(rangeOf(study(8, 'count(conditions) > 3 ? 3 : count(conditions)')), { min: 0, max: 3 });
  assert.deepEqual(rangeOf(study(8, 'count(conditions) <= 3 ? count(conditions) : 3')), { min: 0, max: 3 });
});

test('the DORIS-MAE rule fits a 0..8 scale and is an error on a 0..3 scale, positioned on the rule', () => {
  assert.deepEqual(derive(study(8, 'a1 + a2 + a3 + a4')), []);
  const text = study(3, 'a1 + a2 + a3 + a4');
  const [problem, ...rest] = derive(text);
  assert.deepEqual(rest, []);
  assert.equal(problem!.code, 'derive-value');
  assert.equal(problem!.severity, 'error');
  assert.equal(text.slice(problem!.range.start, problem!.range.end), 'a1 + a2 + a3 + a4');
  assert.match(problem!.message, /this can give 0 to 8, but 4, 5, 6, 7 and 8 are not scale values/);
  // A negative value is caught the same way: t - 1 is −1 to 0.
  assert.match(derive(study(3, 't - 1'))[0]!.message, /this can give -1 to 0, but -1 is not a scale value/);
});

test('MultiConIR: count(conditions) warns (n unknown) unless capped; a cap above the scale is an error', () => {
  const text = study(4, 'count(conditions)');
  const [problem, ...rest] = derive(text);
  assert.deepEqual(rest, []);
  assert.equal(problem!.code, 'derive-unbounded');
  assert.equal(problem!.severity, 'warning');
  assert.equal(text.slice(problem!.range.start, problem!.range.end), 'count(conditions)');
  assert.match(problem!.message, /this can give 0 or more .*a label above 4/);
  assert.deepEqual(derive(study(4, 'count(conditions) > 4 ? 4 : count(conditions)')), []);
  // Capped at 5 on a 0..4 scale: 5 is not a scale value (the literal), and the count branch can give 5 (> 5 fails
  // means <= 5: 0 to 5).
  assert.deepEqual(
    derive(study(4, 'count(conditions) > 5 ? 5 : count(conditions)')).map((d) => d.message.split(':')[0]),
    ['5 is not a scale value', 'this can give 0 to 5, but 5 is not a scale value (0, 1, 2, 3 and 4)'],
  );
});
