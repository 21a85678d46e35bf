import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { parseStudyFile, resolveStudies, type StudyModel } from '../../../core/dsl/index.ts';
import { defaultCriticRubric } from '../../../core/judge/defaultPrompts.ts';
import {
  judgeOutputSchema,
  labelFromConditions,
  type ParsedJudgeOutput,
  parseJudgeOutput,
} from '../../../core/judge/judgeOutput.ts';

const scale = { scale: [0, 1, 2] };

test('label schema: strict, rationale then an integer label from the scale', () => {
  assert.deepEqual(judgeOutputSchema('label', { scale: [2, 0, 1] }), {
    name: 'judge_label',
    schema: {
      type: 'object',
      properties: {
        rationale: { type: 'string', description: 'Your reasoning, written before the verdict.' },
        label: { type: 'integer', enum: [0, 1, 2], description: 'The grade on the scale.' },
      },
      required: ['rationale', 'label'],
      additionalProperties: false,
    },
    strict: true,
  });
});

test('conditions schema: exactly N booleans after the rationale', () => {
  const { name, schema } = judgeOutputSchema('conditions', { conditions: 3 });
  assert.equal(name, 'judge_conditions');
  const properties = schema.properties as Record<string, Record<string, unknown>>;
  assert.deepEqual(Object.keys(properties), ['rationale', 'conditions']);
  assert.deepEqual(
    { ...properties.conditions, description: undefined },
    { type: 'array', items: { type: 'boolean' }, minItems: 3, maxItems: 3, description: undefined },
  );
  assert.deepEqual(schema.required, ['rationale', 'conditions']);
  assert.equal(schema.additionalProperties, false);
});

test('rubric schema: one required level per dimension, nothing else', () => {
  const { name, schema } = judgeOutputSchema('rubric', { rubric: defaultCriticRubric });
  assert.equal(name, 'judge_rubric');
  const scores = (schema.properties as Record<string, Record<string, unknown>>).scores!;
  const level = { type: 'string', enum: ['excellent', 'acceptable', 'poor'] };
  assert.deepEqual(scores.properties, Object.fromEntries(defaultCriticRubric.dimensions.map((d) => [d, level])));
  assert.deepEqual(scores.required, defaultCriticRubric.dimensions);
  assert.equal(scores.additionalProperties, false);
  assert.deepEqual(Object.keys(schema.properties as object), ['rationale', 'scores']);
});

test('schema names are valid OpenAI response_format names', () => {
  const shape = { scale: [0, 1], conditions: 1, rubric: defaultCriticRubric };
  for (const kind of ['label', 'conditions', 'rubric'] as const)
    assert.match(judgeOutputSchema(kind, shape).name, /^[a-zA-Z0-9_-]{1,64}$/);
});

test('a schema without the shape it needs is a clear error', () => {
  assert.throws(() => judgeOutputSchema('label', {}), /A label output needs the scale/);
  assert.throws(() => judgeOutputSchema('conditions', { conditions: 0 }), /needs the number of the query's conditions/);
  assert.throws(() => judgeOutputSchema('rubric', { scale: [0, 1] }), /A rubric output needs the rubric/);
});

// Answers as models write them: schema-following, chatty, fenced, thinking aloud, or plain prose.
const labelAnswers: { name: string; answer: string; expected: ParsedJudgeOutput }[] = [
  {
    name: 'clean JSON',
    answer:
      '{"rationale": "The passage explains how photovoltaic cells convert sunlight, which is exactly what the query asks.", "label": 2}',
    expected: {
      ok: true,
      label: 2,
      rationale: 'The passage explains how photovoltaic cells convert sunlight, which is exactly what the query asks.',
      via: 'json',
    },
  },
  {
    name: 'pretty-printed JSON with surrounding whitespace',
    answer: '\n\n{\n  "rationale": "Mentions solar farms only in passing.",\n  "label": 1\n}\n',
    expected: { ok: true, label: 1, rationale: 'Mentions solar farms only in passing.', via: 'json' },
  },
  {
    name: 'JSON in a ```json fence after a preamble',
    answer:
      'Here is my assessment of the passage:\n\n```json\n{\n  "rationale": "The passage is about offshore wind, not solar.",\n  "label": 0\n}\n```\n',
    expected: { ok: true, label: 0, rationale: 'The passage is about offshore wind, not solar.', via: 'json' },
  },
  {
    name: 'JSON in an untagged fence',
    answer: 'Assessment:\n```\n{"rationale": "Answers the question about inverter losses.", "label": 2}\n```',
    expected: { ok: true, label: 2, rationale: 'Answers the question about inverter losses.', via: 'json' },
  },
  {
    name: 'JSON inside chatty prose, braces inside its strings',
    answer:
      'Sure! After reading the table carefully, here is my judgment: {"rationale": "The header {Year, Output (GWh)} matches the per-year requirement.", "label": 2} Let me know if you need anything else!',
    expected: {
      ok: true,
      label: 2,
      rationale: 'The header {Year, Output (GWh)} matches the per-year requirement.',
      via: 'json',
    },
  },
  {
    name: 'the answer nested in a wrapper object',
    answer: '{"assessment": {"reasoning": "Only the title is on topic.", "label": 0}}',
    expected: { ok: true, label: 0, rationale: 'Only the title is on topic.', via: 'json' },
  },
  {
    name: 'label as a numeric string, "grade" as the key',
    answer: '{"explanation": "Partially answers the cost question.", "grade": "1"}',
    expected: { ok: true, label: 1, rationale: 'Partially answers the cost question.', via: 'json' },
  },
  {
    name: 'a reasoning model: the drafts in <think> are not the answer',
    answer:
      '<think>The query asks about efficiency. Label: 0? No wait, the second paragraph gives 22 %. {"label": 1} maybe.</think>\n{"rationale": "The second paragraph states module efficiency directly.", "label": 2}',
    expected: { ok: true, label: 2, rationale: 'The second paragraph states module efficiency directly.', via: 'json' },
  },
  {
    name: 'fallback: "Label: 2" after prose',
    answer: 'The passage directly answers the question about panel degradation rates.\n\nLabel: 2',
    expected: { ok: true, label: 2, via: 'fallback' },
  },
  {
    name: 'fallback: "grade = 1" mid-sentence',
    answer: 'Weighing everything, grade = 1, since the passage is on topic but never gives a number.',
    expected: { ok: true, label: 1, via: 'fallback' },
  },
  {
    name: 'fallback: a bold "Final answer"',
    answer:
      '### Analysis\n- Topic: solar thermal storage\n- Passage: molten salt in CSP plants, but about costs only\n\n**Final answer: 0**',
    expected: { ok: true, label: 0, via: 'fallback' },
  },
  {
    name: 'fallback: the last statement wins',
    answer:
      'At first glance I would say Label: 2, since the title matches. However, on closer reading the passage is about Spain, not Germany, and only the methodology carries over. Revised label: 1',
    expected: { ok: true, label: 1, via: 'fallback' },
  },
  {
    name: 'fallback: "a grade of 1"',
    answer: 'It touches on the topic without answering it, so I would give it a grade of 1.',
    expected: { ok: true, label: 1, via: 'fallback' },
  },
  {
    name: 'fallback: a bare integer on the last line',
    answer: 'The passage covers grid storage, which is related but not what was asked.\n\n1\n',
    expected: { ok: true, label: 1, via: 'fallback' },
  },
  {
    name: 'fallback: a JSON-ish answer too broken to parse still states its label',
    answer: "{'rationale': 'Answers it fully', 'label': 2,}",
    expected: { ok: true, label: 2, via: 'fallback' },
  },
];

for (const { name, answer, expected } of labelAnswers)
  test(`label answer read: ${name}`, () => assert.deepEqual(parseJudgeOutput(answer, 'label', scale), expected));

const failedLabels: { name: string; answer: string; error: string }[] = [
  {
    name: 'a JSON label off the scale',
    answer: '{"rationale": "Perfect match.", "label": 3}',
    error: 'Expected a label on the scale (0, 1, 2), found 3.',
  },
  {
    name: 'a JSON label that is not a number',
    answer: '{"rationale": "Strong match.", "label": "highly relevant"}',
    error: 'Expected a label on the scale (0, 1, 2), found "highly relevant".',
  },
  {
    name: 'a JSON label of null',
    answer: '{"rationale": "Cannot tell from the excerpt.", "label": null}',
    error: 'Expected a label on the scale (0, 1, 2), found null.',
  },
  {
    name: 'a stated label off the scale',
    answer: 'This is an excellent passage. Relevance score: 3',
    error: 'Expected a label on the scale (0, 1, 2), found 3.',
  },
  {
    name: 'a fractional grade is not rounded',
    answer: 'Somewhere between partially and highly relevant. Score: 1.5',
    error: 'Expected a label on the scale (0, 1, 2), found 1.5.',
  },
  {
    name: 'garbage',
    answer: 'asdf qwerty lorem',
    error:
      'Expected a JSON object with a "label" (one of 0, 1, 2) or a statement such as "Label: 2", found none in "asdf qwerty lorem".',
  },
  {
    name: 'a refusal',
    answer: 'I cannot determine the relevance of this passage without more context about the user.',
    error:
      'Expected a JSON object with a "label" (one of 0, 1, 2) or a statement such as "Label: 2", found none in "I cannot determine the relevance of this passage without more context about the user.".',
  },
  {
    name: 'numbers that explain the scale are no verdict',
    answer: 'On this scale label 0 means not relevant and label 2 means highly relevant; this one is in between.',
    error:
      'Expected a JSON object with a "label" (one of 0, 1, 2) or a statement such as "Label: 2", found none in "On this scale label 0 means not relevant and label 2 means highly relevant; this one is in between.".',
  },
  {
    name: 'JSON cut off by max_tokens before the label',
    answer: '{"rationale": "The passage discusses the efficiency of perovskite cells, and',
    error:
      'Expected a JSON object with a "label" (one of 0, 1, 2) or a statement such as "Label: 2", found none in "{"rationale": "The passage discusses the efficiency of perovskite cells, and".',
  },
  {
    name: 'an empty answer',
    answer: '  \n',
    error:
      'Expected a JSON object with a "label" (one of 0, 1, 2) or a statement such as "Label: 2", found an empty answer.',
  },
];

for (const { name, answer, error } of failedLabels)
  test(`label answer refused: ${name}`, () =>
    assert.deepEqual(parseJudgeOutput(answer, 'label', scale), { ok: false, error }));

test('a long unreadable answer is quoted shortened in the error', () => {
  const result = parseJudgeOutput(`${'The passage is long. '.repeat(20)}`, 'label', scale);
  assert.equal(result.ok, false);
  assert.ok(!result.ok && result.error.endsWith('…".'), !result.ok ? result.error : '');
  assert.ok(!result.ok && result.error.length < 260);
});

test('negative scale values are read (TREC spam grade -2)', () => {
  assert.deepEqual(parseJudgeOutput('Grade: -2', 'label', { scale: [-2, 0, 1, 2] }), {
    ok: true,
    label: -2,
    via: 'fallback',
  });
});

const three = { conditions: 3 };

test('conditions: clean JSON in order', () => {
  const answer =
    '{"rationale": "1: the table has a Country column. 2: years 2015–2022 are columns. 3: a Hydro row is present.", "conditions": [true, true, false]}';
  assert.deepEqual(parseJudgeOutput(answer, 'conditions', three), {
    ok: true,
    conditions: [true, true, false],
    rationale: '1: the table has a Country column. 2: years 2015–2022 are columns. 3: a Hydro row is present.',
    via: 'json',
  });
});

test('conditions: yes/no words and per-condition objects are read', () => {
  assert.deepEqual(
    parseJudgeOutput('```json\n{"rationale": "r", "conditions": ["yes", "No", "true"]}\n```', 'conditions', three),
    { ok: true, conditions: [true, false, true], rationale: 'r', via: 'json' },
  );
  const restated =
    '{"conditions": [{"condition": 1, "satisfied": false}, {"condition": 2, "satisfied": true}, {"condition": 3, "satisfied": true}]}';
  assert.deepEqual(parseJudgeOutput(restated, 'conditions', three), {
    ok: true,
    conditions: [false, true, true],
    via: 'json',
  });
});

test('conditions: a wrong number of them is an error, never padded or cut', () => {
  assert.deepEqual(parseJudgeOutput('{"rationale": "r", "conditions": [true, false]}', 'conditions', three), {
    ok: false,
    error: 'Expected 3 conditions, found 2: [true,false].',
  });
  assert.deepEqual(
    parseJudgeOutput('{"rationale": "r", "conditions": [true, false, true, true]}', 'conditions', three),
    { ok: false, error: 'Expected 3 conditions, found 4: [true,false,true,true].' },
  );
});

test('conditions: an undecided entry or a non-list is an error', () => {
  assert.deepEqual(parseJudgeOutput('{"conditions": [true, "partially", false]}', 'conditions', three), {
    ok: false,
    error: 'Expected condition 2 to be true or false, found "partially".',
  });
  assert.deepEqual(parseJudgeOutput('{"conditions": "all satisfied"}', 'conditions', three), {
    ok: false,
    error: 'Expected "conditions" to be a list of 3 true/false values, found "all satisfied".',
  });
});

test('conditions: prose has no fallback', () => {
  const result = parseJudgeOutput('1. Satisfied\n2. Not satisfied\n3. Satisfied', 'conditions', three);
  assert.equal(result.ok, false);
  assert.match(!result.ok ? result.error : '', /^Expected a JSON object with "conditions", a list of 3 true\/false/);
});

test('rubric: levels matched ignoring case, recorded as the rubric spells them', () => {
  const answer = `I reviewed the instruction against each dimension.

\`\`\`json
{
  "rationale": "Restricting to per-year tables is a real, general constraint; it repeats none of the query.",
  "scores": {
    "semantic_expansion": "Excellent",
    "semantic_consistency": "excellent",
    "query_dependency": "Acceptable",
    "constraint_abstraction": "excellent",
    "category_focus": "POOR",
    "internal_consistency": "excellent"
  }
}
\`\`\``;
  const result = parseJudgeOutput(answer, 'rubric', { rubric: defaultCriticRubric });
  assert.deepEqual(result, {
    ok: true,
    scores: {
      semantic_expansion: 'excellent',
      semantic_consistency: 'excellent',
      query_dependency: 'acceptable',
      constraint_abstraction: 'excellent',
      category_focus: 'poor',
      internal_consistency: 'excellent',
    },
    rationale: 'Restricting to per-year tables is a real, general constraint; it repeats none of the query.',
    via: 'json',
  });
});

test('rubric: an unknown level or a missing dimension is an error', () => {
  const scores = Object.fromEntries(defaultCriticRubric.dimensions.map((d) => [d, 'excellent']));
  const shape = { rubric: defaultCriticRubric };
  assert.deepEqual(
    parseJudgeOutput(JSON.stringify({ scores: { ...scores, query_dependency: 'good' } }), 'rubric', shape),
    { ok: false, error: 'Expected one of excellent, acceptable, poor for "query_dependency", found "good".' },
  );
  const { category_focus: _dropped, ...missing } = scores;
  const result = parseJudgeOutput(JSON.stringify({ scores: missing }), 'rubric', shape);
  assert.match(!result.ok ? result.error : '', /^Expected a level for "category_focus", found none in \{/);
});

function studyFrom(text: string): StudyModel {
  const [study] = resolveStudies(parseStudyFile(text)).studies;
  assert.ok(study);
  return study;
}

test('conditions → label through the derive rule of demo/tables (aspects unanswered count as no)', () => {
  const study = studyFrom(readFileSync(new URL('../../../demo/tables/tables.assess', import.meta.url), 'utf8'));
  // derive label = all(conditions) ? 2 : topical ? 1 : 0 — the judge answers no `topical`, so a miss is 0.
  assert.equal(labelFromConditions(study, [true, true, true]), 2);
  assert.equal(labelFromConditions(study, [true, false, true]), 0);
});

test('conditions → label through a counting derive rule', () => {
  const study = studyFrom(`study "multicon" {
  queries "queries.jsonl" { id: qid  text: query  conditions: conditions }
  corpus  "docs.jsonl"    { id: docid  body: text }
  scale ordinal { 0 "None" key "0"  1 "Some" key "1"  2 "All" key "2" }
  conditions from conditions
  derive label = all(conditions) ? 2 : any(conditions) ? 1 : 0
  annotators alice
}`);
  assert.equal(labelFromConditions(study, [false, true, false]), 1);
  assert.equal(labelFromConditions(study, [false, false, false]), 0);
  assert.equal(labelFromConditions(study, [true, true, true]), 2);
});

test('conditions → label without a derive rule: all satisfied is the top of the scale, else the bottom', () => {
  const study = studyFrom(`study "plain" {
  queries "queries.jsonl" { id: qid  text: query  conditions: conditions }
  corpus  "docs.jsonl"    { id: docid  body: text }
  scale ordinal { 1 "Partly" key "1"  3 "Fully" key "3"  0 "Not at all" key "0" }
  conditions from conditions
  annotators alice
}`);
  assert.equal(study.derive, undefined);
  assert.equal(labelFromConditions(study, [true, true]), 3);
  assert.equal(labelFromConditions(study, [true, false]), 0);
});

test('conditions → label with neither a derive rule nor a scale is an error that says so', () => {
  const study = studyFrom(`study "bare" {
  queries "queries.jsonl" { id: qid  text: query  conditions: conditions }
  conditions from conditions
}`);
  assert.throws(
    () => labelFromConditions(study, [true]),
    /Study "bare" has neither a derive rule nor a scale, so judged conditions cannot become a label\./,
  );
});
