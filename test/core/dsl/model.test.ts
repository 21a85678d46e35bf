import assert from 'node:assert/strict';
import { test } from 'node:test';
import { evaluateDerive, resolveStudies } from '../../../core/dsl/model.ts';
import { parseStudyFile } from '../../../core/dsl/parser.ts';
import { sketch } from './dslTestHelpers.ts';

test('the sketch as plain data for the task database', () => {
  const { studies, reviews } = resolveStudies(parseStudyFile(sketch), '/data/wqt/wqt-dev.assess');
  const at = (path: string) => ({ path, absolutePath: `/data/wqt/${path}` });
  assert.deepEqual(studies, [
    {
      kind: 'study',
      name: 'wqt-dev',
      title: 'WQT dev — does the table satisfy the instruction?',
      guidelines: at('guidelines.md'),
      annotators: ['alice', 'bob', 'carol'],
      overlap: 2,
      blind: true,
      judges: [
        {
          model: 'gpt-4.1-mini',
          endpoint: 'https://api.openai.com/v1',
          prompt: at('prompts/judge.md'),
          temperature: 0,
          votes: 3,
        },
      ],
      agreement: [{ metric: 'krippendorff', level: 'ordinal', target: 0.67 }],
      exports: [{ ...at('qrels/wqt-dev.qrels'), what: 'qrels', from: 'adjudicated', perDocument: false }],
      queries: { ...at('data/queries.jsonl'), fields: { id: 'qid', text: 'query', instruction: 'instruction' } },
      corpus: {
        ...at('data/tables.jsonl'),
        fields: { id: 'table_id', body: 'table', title: 'caption' },
        format: 'markdown',
      },
      pools: [
        { ...at('runs/bm25.trec'), depth: 20 },
        { ...at('runs/e5.trec'), depth: 20 },
      ],
      scale: {
        kind: 'ordinal',
        entries: [
          { value: 0, label: 'Off-topic', key: '0' },
          { value: 1, label: 'Violates', key: '1', description: 'On topic, breaks the instruction' },
          { value: 2, label: 'Complies', key: '2', description: 'On topic and meets every constraint' },
        ],
      },
      aspects: [{ name: 'topical', question: "Is the table on the query's topic?" }],
      conditionsFrom: 'instruction',
      derive: {
        kind: 'conditional',
        test: { kind: 'call', fn: 'all', args: [{ kind: 'name', name: 'conditions' }] },
        whenTrue: { kind: 'number', value: 2 },
        whenFalse: {
          kind: 'conditional',
          test: { kind: 'name', name: 'topical' },
          whenTrue: { kind: 'number', value: 1 },
          whenFalse: { kind: 'number', value: 0 },
        },
      },
      imports: [],
    },
  ]);
  assert.deepEqual(reviews, [
    {
      kind: 'review',
      name: 'instructions',
      annotators: [],
      blind: false,
      judges: [],
      agreement: [],
      exports: [],
      items: {
        ...at('gen/instructions.jsonl'),
        fields: { id: 'iid', text: 'instruction', parent: 'qid', type: 'type', model: 'generator' },
      },
      taxonomy: [
        { code: 'C1', label: 'Semantic boundary' },
        { code: 'C2', label: 'Exclusive topic' },
        { code: 'S1', label: 'Attribute-centric' },
        { code: 'S2', label: 'Entity-centric' },
        { code: 'S3', label: 'Granularity-centric' },
      ],
      rubric: {
        levels: ['excellent', 'acceptable', 'poor'],
        dimensions: [
          { name: 'semantic_expansion' },
          { name: 'semantic_consistency' },
          { name: 'query_dependency' },
          { name: 'constraint_abstraction' },
          { name: 'category_focus' },
          { name: 'internal_consistency' },
        ],
      },
      verdicts: ['accept', 'edit', 'reject'],
    },
  ]);
});

test('without a study path, file references carry only the path as written', () => {
  const { studies } = resolveStudies(parseStudyFile(sketch));
  assert.deepEqual(studies[0]!.guidelines, { path: 'guidelines.md' });
});

test('the sketch derive: every condition → 2, else on topic → 1, else 0', () => {
  const derive = resolveStudies(parseStudyFile(sketch)).studies[0]!.derive!;
  assert.equal(evaluateDerive(derive, { aspects: { topical: true }, conditions: [true, true] }), 2);
  assert.equal(evaluateDerive(derive, { aspects: { topical: true }, conditions: [true, false] }), 1);
  assert.equal(evaluateDerive(derive, { aspects: { topical: false }, conditions: [false] }), 0);
});

test('derive operators: !, &&, ||, comparisons, any(), negative values', () => {
  const derive = (expression: string) =>
    resolveStudies(parseStudyFile(`study "s" { derive label = ${expression} }`)).studies[0]!.derive!;
  const answers = { aspects: { a: true, b: false }, conditions: [false, true] };
  assert.equal(evaluateDerive(derive('!b && (a || b) ? 3 : -2'), answers), 3);
  assert.equal(evaluateDerive(derive('any(conditions) && !all(conditions) ? 1 : 0'), answers), 1);
  assert.equal(evaluateDerive(derive('a == b ? 1 : a >= b ? 2 : 0'), answers), 2);
  assert.equal(evaluateDerive(derive('a != b && b < a && a <= 1 && b > -1 ? 5 : 0'), answers), 5);
});

/** The derive rule of a study with `lines` (aspects, conditions, derive), as plain data. */
function deriveOf(...lines: string[]) {
  const study = resolveStudies(parseStudyFile(`study "s" {\n${lines.map((l) => `  ${l}\n`).join('')}}\n`)).studies[0]!;
  return { derive: study.derive!, aspects: study.aspects };
}

test('MultiConIR: the label is the number of satisfied conditions', () => {
  const { derive } = deriveOf('conditions from instruction', 'derive label = count(conditions)');
  // 3 of 4 conditions met (the second is not): 1 + 0 + 1 + 1 = 3.
  assert.equal(evaluateDerive(derive, { aspects: {}, conditions: [true, false, true, true] }), 3);
  assert.equal(evaluateDerive(derive, { aspects: {}, conditions: [false, false, false, false] }), 0);
  // A query with 10 conditions, all met: 10 (the rule itself does not cap; the language server warns).
  assert.equal(evaluateDerive(derive, { aspects: {}, conditions: Array(10).fill(true) }), 10);
  assert.equal(evaluateDerive(derive, { aspects: {}, conditions: [] }), 0);
});

test('DORIS-MAE / CRUMB: graded aspects summed, 1 per aspect mostly met + 2 per aspect fully met', () => {
  const { derive, aspects } = deriveOf(
    'aspect a1 "Aspect 1" levels 0 1 2',
    'aspect a2 "Aspect 2" levels 0 1 2',
    'aspect a3 "Aspect 3" levels 0 1 2',
    'aspect a4 "Aspect 4" levels 0 1 2',
    'derive label = a1 + a2 + a3 + a4',
  );
  assert.deepEqual(aspects[0], { name: 'a1', question: 'Aspect 1', levels: [0, 1, 2] });
  // Levels [2, 1, 0, 2]: one aspect mostly met (1·1) and two fully met (2·2): 1 + 4 = 5.
  assert.equal(evaluateDerive(derive, { aspects: { a1: 2, a2: 1, a3: 0, a4: 2 }, conditions: [] }), 5);
  // [1, 1, 1, 0]: three mostly met, none fully: 3.
  assert.equal(evaluateDerive(derive, { aspects: { a1: 1, a2: 1, a3: 1, a4: 0 }, conditions: [] }), 3);
  // Unanswered aspects count 0: only a2 = 2 → 2.
  assert.equal(evaluateDerive(derive, { aspects: { a2: 2 }, conditions: [] }), 2);
});

test('count of named yes/no values, indexing a condition, *, - and precedence', () => {
  const { derive: counted } = deriveOf('aspect a "A"', 'aspect b "B"', 'derive label = count(a, b, 1 > 2)');
  // a yes, b no, 1 > 2 no: 1.
  assert.equal(evaluateDerive(counted, { aspects: { a: true, b: false }, conditions: [] }), 1);
  const answers = { aspects: { a: true }, conditions: [false, true, true] };
  const rule = (expression: string) => deriveOf('aspect a "A"', `derive label = ${expression}`).derive;
  // conditions[2] is the second (1-based): true → 1; conditions[1] false → 0; conditions[9] past the last → 0.
  assert.equal(evaluateDerive(rule('conditions[2]'), answers), 1);
  assert.equal(evaluateDerive(rule('conditions[1]'), answers), 0);
  assert.equal(evaluateDerive(rule('conditions[9]'), answers), 0);
  // * before +, + before comparisons: 1 + 2 * 3 = 7; 7 >= 7 → 1.
  assert.equal(evaluateDerive(rule('1 + 2 * 3'), answers), 7);
  assert.equal(evaluateDerive(rule('1 + 2 * 3 >= 7'), answers), 1);
  // Left-associative -: 5 - 2 - 1 = 2 (not 4); `a -1` is a - 1 = 0 (a number may start with `-`).
  assert.equal(evaluateDerive(rule('5 - 2 - 1'), answers), 2);
  assert.equal(evaluateDerive(rule('a -1'), answers), 0);
  // count(conditions) == 2 (two of three met) → 3 * a = 3.
  assert.equal(evaluateDerive(rule('count(conditions) == 2 ? 3 * a : 0'), answers), 3);
});
