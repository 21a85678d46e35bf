import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  PromptTemplateError,
  promptTemplate,
  promptVariableNames,
  renderPrompt,
  sha256,
  templateProblems,
  templateVariables,
} from '../../../core/judge/promptTemplate.ts';

const energyScale = [
  { value: 0, label: 'Not relevant' },
  { value: 1, label: 'Relevant', description: 'On topic, answers part of the query' },
  { value: 2, label: 'Highly relevant', description: 'Answers the query directly' },
];

test('the variable names are the six the renderer knows', () => {
  assert.deepEqual(promptVariableNames, ['query', 'instruction', 'document', 'title', 'conditions', 'scale']);
});

test('variables are listed with 1-based line and column, whitespace inside the braces allowed', () => {
  const text = 'Query: {{query}}\n\n## Passage\n  {{ title }} — {{document}}\n📊 {{scale}}';
  assert.deepEqual(templateVariables(text), [
    { name: 'query', line: 1, column: 8 },
    { name: 'title', line: 4, column: 3 },
    { name: 'document', line: 4, column: 17 },
    // The emoji is one character (two UTF-16 units): columns count characters, like the study file diagnostics.
    { name: 'scale', line: 5, column: 3 },
  ]);
});

test('unknown names are listed too (rendering rejects them), single braces are not variables', () => {
  const text = 'Answer {"label": 2} for {{querry}} and {{ }}';
  assert.deepEqual(
    templateVariables(text).map((v) => v.name),
    ['querry', ''],
  );
});

test('renders every variable: conditions numbered, scale highest first with descriptions', () => {
  const template = promptTemplate(
    'judge.md',
    'Q: {{query}}\nI: {{instruction}}\nT: {{title}}\nD: {{ document }}\nConditions:\n{{conditions}}\nScale:\n{{scale}}\n',
  );
  const rendered = renderPrompt(template, {
    query: 'solar panel efficiency by year',
    instruction: 'Only tables that report efficiency per year.',
    title: 'Photovoltaic records',
    document: '| Year | Efficiency |\n|---|---|\n| 2020 | 47.1 % |',
    conditions: ['reports efficiency', 'one row per year'],
    scale: energyScale,
  });
  assert.equal(
    rendered,
    [
      'Q: solar panel efficiency by year',
      'I: Only tables that report efficiency per year.',
      'T: Photovoltaic records',
      'D: | Year | Efficiency |',
      '|---|---|',
      '| 2020 | 47.1 % |',
      'Conditions:',
      '1. reports efficiency',
      '2. one row per year',
      'Scale:',
      '2 = Highly relevant: Answers the query directly',
      '1 = Relevant: On topic, answers part of the query',
      '0 = Not relevant',
      '',
    ].join('\n'),
  );
});

test('a variable without a value renders as an empty string', () => {
  const template = promptTemplate('judge.md', '[{{instruction}}][{{title}}][{{conditions}}][{{query}}]');
  assert.equal(renderPrompt(template, { query: 'wind', document: 'd', scale: energyScale }), '[][][][wind]');
});

test('values are inserted verbatim, never re-scanned for variables', () => {
  const template = promptTemplate('judge.md', '{{document}} / {{query}}');
  const document = 'A template page: write {{query}} and {{foo}} here. $& $1';
  assert.equal(renderPrompt(template, { query: 'templates', document, scale: energyScale }), `${document} / templates`);
});

test('an unknown variable is an error at its line and column that names the known ones', () => {
  const template = promptTemplate('judge.md', '# Judge\n\nThe query: {{querry}}\n');
  assert.throws(
    () => renderPrompt(template, { query: 'q', document: 'd', scale: energyScale }),
    (error: unknown) => {
      assert.ok(error instanceof PromptTemplateError);
      assert.equal(error.line, 3);
      assert.equal(error.column, 12);
      assert.equal(
        error.message,
        'unknown variable {{querry}}: expected one of query, instruction, document, title, conditions, scale (did you mean {{query}}?)',
      );
      return true;
    },
  );
});

test('an unknown variable far from every name gets no suggestion', () => {
  const [problem] = templateProblems('{{ passage_text }}');
  assert.equal(
    problem?.message,
    'unknown variable {{passage_text}}: expected one of query, instruction, document, title, conditions, scale',
  );
});

test('a {{ left unclosed on its line is an error, reported with every other problem in text order', () => {
  const text = 'Query: {{query}\nTitle: {{titel}}\nDoc: {{document}}';
  assert.deepEqual(
    templateProblems(text).map((p) => `${p.line}:${p.column} ${p.message}`),
    [
      '1:8 unclosed {{: expected a variable such as {{query}} closed by }} on the same line',
      '2:8 unknown variable {{titel}}: expected one of query, instruction, document, title, conditions, scale (did you mean {{title}}?)',
    ],
  );
  assert.throws(
    () => renderPrompt(promptTemplate('t.md', text), { query: 'q', document: 'd', scale: [] }),
    /unclosed \{\{/,
  );
});

test('a sound template has no problems', () => {
  assert.deepEqual(templateProblems('{{query}} {{ scale }}\nJSON: {"rationale": "…", "label": 1}'), []);
});

test('hashes: sha256 hex of the text, stable, and changed by a single character', () => {
  assert.equal(sha256('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  assert.equal(sha256(''), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  const a = promptTemplate('judge.md', 'Grade {{document}} for {{query}}.');
  assert.equal(a.hash, sha256(a.text));
  assert.equal(promptTemplate('other-name.md', a.text).hash, a.hash);
  assert.notEqual(promptTemplate('judge.md', 'Grade {{document}} for {{query}}!').hash, a.hash);
});
