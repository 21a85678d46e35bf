import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseStudyFile } from '../../../../core/dsl/parser.ts';
import { definitionAt } from '../../../../core/dsl/services/definition.ts';
import { offsetOf, sketch } from '../dslTestHelpers.ts';

const studyPath = '/data/wqt/wqt-dev.assess';

test('a path string leads to that file, resolved against the study file directory', () => {
  const parsed = parseStudyFile(sketch);
  assert.deepEqual(definitionAt(parsed, offsetOf(sketch, '"data/queries.jsonl"', 5), studyPath), {
    path: '/data/wqt/data/queries.jsonl',
  });
  assert.deepEqual(definitionAt(parsed, offsetOf(sketch, '"runs/e5.trec"', 1), studyPath), {
    path: '/data/wqt/runs/e5.trec',
  });
  assert.deepEqual(definitionAt(parsed, offsetOf(sketch, '"prompts/judge.md"', 1), studyPath), {
    path: '/data/wqt/prompts/judge.md',
  });
  assert.deepEqual(definitionAt(parsed, offsetOf(sketch, '"qrels/wqt-dev.qrels"', 1), studyPath), {
    path: '/data/wqt/qrels/wqt-dev.qrels',
  });
  // A string that is not a path: nothing.
  assert.equal(definitionAt(parsed, offsetOf(sketch, '"Off-topic"', 1), studyPath), undefined);
});

test('an absolute path stays as written', () => {
  const text = 'study "s" { guidelines "/shared/guide.md" }';
  assert.deepEqual(definitionAt(parseStudyFile(text), offsetOf(text, '/shared'), studyPath), {
    path: '/shared/guide.md',
  });
});

test('a name in derive leads to its declaration: aspect, conditions statement, scale entry', () => {
  const parsed = parseStudyFile(sketch);
  const aspect = definitionAt(parsed, offsetOf(sketch, 'topical ? 1', 1), studyPath);
  const declared = offsetOf(sketch, 'topical "Is');
  assert.deepEqual(aspect, { range: { start: declared, end: declared + 'topical'.length } });
  const conditions = definitionAt(parsed, offsetOf(sketch, 'conditions) ?', 1), studyPath);
  const statement = offsetOf(sketch, 'conditions from');
  assert.deepEqual(conditions, { range: { start: statement, end: statement + 'conditions from instruction'.length } });
  const value = definitionAt(parsed, offsetOf(sketch, '? 2 :', 2), studyPath);
  const entry = offsetOf(sketch, '2 "Complies"');
  assert.deepEqual(value, {
    range: { start: entry, end: offsetOf(sketch, '"On topic and meets every constraint"') + 37 },
  });
});

test('`conditions[2]` leads to the conditions statement, a graded aspect to its declaration; the 2 is no scale value', () => {
  const text =
    'study "s" {\n  scale ordinal { 0 "a" key "0" 1 "b" key "1" 2 "c" key "2" }\n  aspect cov "Covered?" levels 0 1 2\n' +
    '  conditions from instruction\n  derive label = conditions[2] ? cov : 0\n}\n';
  const parsed = parseStudyFile(text);
  const statement = offsetOf(text, 'conditions from');
  assert.deepEqual(definitionAt(parsed, offsetOf(text, 'conditions[2]', 3), studyPath), {
    range: { start: statement, end: statement + 'conditions from instruction'.length },
  });
  const aspect = offsetOf(text, 'cov "Covered');
  assert.deepEqual(definitionAt(parsed, offsetOf(text, 'cov : 0', 1), studyPath), {
    range: { start: aspect, end: aspect + 3 },
  });
  assert.equal(definitionAt(parsed, offsetOf(text, '2] ?'), studyPath), undefined);
});

test('nothing on keywords, undeclared names or outside derive', () => {
  const parsed = parseStudyFile(sketch);
  assert.equal(definitionAt(parsed, offsetOf(sketch, 'derive'), studyPath), undefined);
  assert.equal(definitionAt(parsed, offsetOf(sketch, 'alice'), studyPath), undefined);
  const text = 'study "s" { derive label = nope ? 1 : 0 }';
  assert.equal(definitionAt(parseStudyFile(text), offsetOf(text, 'nope'), studyPath), undefined);
});
