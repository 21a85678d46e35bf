import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { parseStudyFile, resolveStudies, type StudyModel } from '../../../core/dsl/index.ts';
import {
  type DefaultPromptName,
  declaredCorpusKind,
  defaultCriticRubric,
  defaultPromptFor,
  defaultPrompts,
  defaultPromptTemplate,
} from '../../../core/judge/defaultPrompts.ts';
import { judgeOutputSchema } from '../../../core/judge/judgeOutput.ts';
import { renderPrompt, templateProblems, templateVariables } from '../../../core/judge/promptTemplate.ts';

const names = Object.keys(defaultPrompts) as DefaultPromptName[];

function studyFrom(text: string): StudyModel {
  const parsed = parseStudyFile(text);
  assert.deepEqual(
    parsed.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message),
    [],
    'the study text parses',
  );
  const [study] = resolveStudies(parsed).studies;
  assert.ok(study, 'the text has a study');
  return study;
}

const demoStudy = (path: string) => studyFrom(readFileSync(new URL(`../../../demo/${path}`, import.meta.url), 'utf8'));

test('the defaults, each with its output kind', () => {
  assert.deepEqual(Object.fromEntries(names.map((name) => [name, defaultPrompts[name].output])), {
    'graded-relevance': 'label',
    'instruction-relevance': 'label',
    'table-relevance': 'label',
    conditions: 'conditions',
    'instruction-following': 'label',
    'instruction-critic': 'rubric',
  });
});

test('every default renders: no unknown variable, no unclosed braces', () => {
  for (const name of names) assert.deepEqual(templateProblems(defaultPrompts[name].text), [], name);
});

test('each default uses the variables its task needs', () => {
  const used = (name: DefaultPromptName) => new Set(templateVariables(defaultPrompts[name].text).map((v) => v.name));
  assert.deepEqual(used('graded-relevance'), new Set(['query', 'title', 'document', 'scale']));
  assert.deepEqual(used('instruction-relevance'), new Set(['query', 'instruction', 'title', 'document', 'scale']));
  assert.deepEqual(used('table-relevance'), new Set(['query', 'title', 'document', 'scale']));
  assert.deepEqual(used('conditions'), new Set(['query', 'instruction', 'conditions', 'title', 'document']));
  assert.deepEqual(used('instruction-following'), new Set(['query', 'instruction', 'title', 'document', 'scale']));
  assert.deepEqual(used('instruction-critic'), new Set(['query', 'instruction']));
});

test('each default asks for the keys its schema requires, rationale first and verdict last', () => {
  const shapes = { scale: [0, 1, 2], conditions: 2, rubric: defaultCriticRubric };
  for (const name of names) {
    const { text, output } = defaultPrompts[name];
    const { schema } = judgeOutputSchema(output, shapes);
    const required = schema.required as string[];
    assert.equal(required[0], 'rationale', name);
    const answerFormat = text.split('\n').findLast((line) => line.startsWith('{"rationale": '));
    assert.ok(answerFormat, `${name} ends with an answer format`);
    const positions = required.map((key) => answerFormat.indexOf(`"${key}": `));
    assert.deepEqual(
      positions.map((p) => p >= 0),
      [true, true],
      `${name} shows ${required.join(', ')}`,
    );
    assert.ok(positions[0]! < positions[1]!, `${name} asks for the rationale before the verdict`);
  }
});

test('the critic names every rubric dimension and level it is scored on', () => {
  const { text } = defaultPrompts['instruction-critic'];
  for (const dimension of defaultCriticRubric.dimensions) {
    assert.ok(text.includes(`- ${dimension}:`), `${dimension} is described`);
    assert.ok(text.includes(`"${dimension}": "<level>"`), `${dimension} is in the answer format`);
  }
  for (const level of defaultCriticRubric.levels) assert.ok(text.toLowerCase().includes(level), level);
});

test('rendered with realistic values, the material is in the prompt and no braces are left', () => {
  const scale = [
    { value: 0, label: 'Off-topic' },
    { value: 1, label: 'Violates', description: 'On topic, breaks the instruction' },
    { value: 2, label: 'Complies', description: 'On topic and meets every condition' },
  ];
  const values = {
    query: 'renewable electricity generation in European countries',
    instruction: 'Only tables that report generation per country and per year, excluding hydropower.',
    title: 'Net electricity generation from wind and solar, 2015–2022',
    document:
      '<table><tr><th rowspan="2">Country</th><th colspan="2">GWh</th></tr><tr><th>2015</th><th>2022</th></tr>' +
      '<tr><td>Spain</td><td>62 100</td><td>95 400</td></tr></table>',
    conditions: ['reports generation per country', 'reports generation per year', 'does not include hydropower'],
    scale,
  };
  for (const name of names) {
    const rendered = renderPrompt(defaultPromptTemplate(name), values);
    assert.doesNotMatch(rendered, /\{\{/, name);
    assert.ok(rendered.includes(values.query), `${name} shows the query`);
  }
  const following = renderPrompt(defaultPromptTemplate('instruction-following'), values);
  assert.ok(following.includes(values.document));
  assert.ok(following.includes('2 = Complies: On topic and meets every condition\n1 = Violates'));
  const conditions = renderPrompt(defaultPromptTemplate('conditions'), values);
  assert.ok(conditions.includes('1. reports generation per country\n2. reports generation per year\n3. does not'));
  assert.equal(defaultPromptTemplate('conditions').name, 'default:conditions');
});

test('defaultPromptFor: a plain relevance study (demo/relevance) gets the graded judge', () => {
  assert.equal(defaultPromptFor(demoStudy('relevance/solar.assess')), 'graded-relevance');
});

test('defaultPromptFor: a derive rule that also reads an aspect over tables (demo/tables) gets the three-way table judge', () => {
  // `all(conditions) ? 2 : topical ? 1 : 0`: the conditions judge answers no aspect, so it could never say 1. The
  // Markdown corpus leaves open what its documents are; stored, they are tables (core/store/corpusKind.ts).
  assert.equal(defaultPromptFor(demoStudy('tables/tables.assess'), 'tables'), 'instruction-following');
});

test('defaultPromptFor: a derive rule over conditions only gets the conditions judge', () => {
  assert.equal(
    defaultPromptFor(
      studyFrom(followTableStudy(threeWay, '  conditions from instruction\n  derive label = all(conditions) ? 2 : 0')),
    ),
    'conditions',
  );
});

const followTableStudy = (scale: string, extra = '') => `study "wqt" {
  queries "queries.jsonl" { id: qid  text: query  instruction: instruction }
  corpus  "tables.jsonl"  { id: table_id  body: table  title: caption  format: markdown }
  scale ordinal {
${scale}
  }
${extra}
  annotators alice bob
}
`;
const threeWay = `    0 "Off-topic"  key "0"
    1 "Violates"   key "1"  "On topic, breaks the instruction"
    2 "Complies"   key "2"  "On topic and meets every condition"`;

test('defaultPromptFor: tables with an instruction get the instruction-following table judge, on any scale', () => {
  assert.equal(defaultPromptFor(studyFrom(followTableStudy(threeWay)), 'tables'), 'instruction-following');
  // Conditions without a derive rule say nothing about how they become a label.
  assert.equal(
    defaultPromptFor(studyFrom(followTableStudy(threeWay, '  conditions from instruction')), 'tables'),
    'instruction-following',
  );
  const fourGrades = `    0 "Irrelevant" key "0"
    1 "Related"    key "1"
    2 "Relevant"   key "2"
    3 "Perfect"    key "3"`;
  assert.equal(defaultPromptFor(studyFrom(followTableStudy(fourGrades)), 'tables'), 'instruction-following');
});

// CRUMB's clinical trial task: patient histories, Markdown trial documents (chunks), an instruction, and TREC CT's
// three grades. An instruction and three grades made it a FollowTable study before; it is judged as a document.
const crumbClinical = `study "crumb-clinical" {
  queries "queries.jsonl" { id: qid  text: query  instruction: instruction }
  corpus  "chunks.jsonl"  { id: chunk_id  body: text  title: title  format: markdown  parent: doc_id }
  scale ordinal {
    0 "Not relevant" key "0"
    1 "Excluded"     key "1"  "The patient would be excluded from the trial"
    2 "Eligible"     key "2"  "The patient is eligible for the trial"
  }
  annotators alice
}
`;

test('defaultPromptFor: a CRUMB task with an instruction and three grades is judged as a document, not a table', () => {
  assert.equal(defaultPromptFor(studyFrom(crumbClinical)), 'instruction-relevance');
  assert.equal(defaultPromptFor(studyFrom(crumbClinical), 'documents'), 'instruction-relevance');
  // CRUMB's legal task: binary, no instruction mapped.
  const legal = crumbClinical
    .replace('  instruction: instruction', '')
    .replace(/scale ordinal \{[^}]*\}/, 'scale binary {\n    0 "No" key "0"\n    1 "Yes" key "1"\n  }');
  assert.equal(defaultPromptFor(studyFrom(legal)), 'graded-relevance');
});

test('defaultPromptFor: a corpus declared as tables (JSON rows, a database mapped) is judged as tables', () => {
  // TARGET: tables as JSON rows, no instruction.
  const target = `study "target-spider" {
  queries "queries.jsonl" { id: query_id  text: query }
  corpus  "corpus.jsonl"  { id: table_id  body: table  format: json }
  scale binary {
    0 "Not relevant" key "0"
    1 "Relevant"     key "1"
  }
  annotators alice
}
`;
  assert.equal(defaultPromptFor(studyFrom(target)), 'table-relevance');
  // What the documents are is the declaration's to say first: JSON rows are tables even if a sample said otherwise.
  assert.equal(defaultPromptFor(studyFrom(target), 'documents'), 'table-relevance');
  assert.equal(declaredCorpusKind(studyFrom(crumbClinical)), undefined);
  assert.equal(declaredCorpusKind(studyFrom(target)), 'tables');
});
