// `import qrels "…" as NAME kind person|crowd|gold|llm` (issue 19 item 4): the model carries the kind, the language
// server completes and explains it, and an unknown kind is an error with a did-you-mean.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolveStudies } from '../../../core/dsl/model.ts';
import { parseStudyFile } from '../../../core/dsl/parser.ts';
import { completionsAt } from '../../../core/dsl/services/completion.ts';
import { hoverAt } from '../../../core/dsl/services/hover.ts';
import { offsetOf, studyWith } from './dslTestHelpers.ts';

test('the kind of an imported qrels file reaches the model; none declared leaves it to the store', () => {
  const text = studyWith('import qrels "gold.qrels" as gold kind gold', 'import qrels "crowd.qrels" as crowd');
  const parsed = parseStudyFile(text);
  assert.deepEqual(parsed.diagnostics, []);
  const [study] = resolveStudies(parsed).studies;
  assert.deepEqual(
    study!.imports.map((i) => [i.as, i.kind]),
    [
      ['gold', 'gold'],
      ['crowd', undefined],
    ],
  );
});

test('after `kind`: the four kinds complete, hover explains them; a misspelt one is an error that suggests the word', () => {
  const text = studyWith('import qrels "gpt.qrels" as gpt52 kind llm');
  const at = offsetOf(text, 'kind llm', 5);
  const labels = completionsAt(parseStudyFile(text), at, {}).map((c) => c.label);
  assert.deepEqual(labels, ['person', 'crowd', 'gold', 'llm']);
  const hover = hoverAt(parseStudyFile(text), at + 1);
  assert.match(hover?.markdown ?? '', /\*\*llm\*\*.*--include-llm/s);
  const typo = parseStudyFile(studyWith('import qrels "gpt.qrels" as gpt52 kind glod'));
  assert.equal(typo.diagnostics.length, 1);
  assert.match(typo.diagnostics[0]!.message, /found `glod`; did you mean `gold`\?/);
});
