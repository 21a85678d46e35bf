// The annotator's identity: the setting trimmed, the OS user name when it is empty, and names a person cannot have.
import assert from 'node:assert/strict';
import { userInfo } from 'node:os';
import { test } from 'node:test';
import {
  annotatorNameProblem,
  effectiveAnnotatorName,
  osUserName,
} from '../../../extension/studies/annotatorIdentity.ts';

test('the setting, trimmed; empty, blank or not text → the OS user name', () => {
  assert.equal(effectiveAnnotatorName('  alice '), 'alice');
  const fallback = () => 'os-user';
  for (const configured of ['', '   ', undefined, null, 42]) {
    assert.equal(effectiveAnnotatorName(configured, fallback), 'os-user', String(configured));
  }
  assert.equal(osUserName(), userInfo().username);
  assert.equal(effectiveAnnotatorName(''), userInfo().username);
});

test("a person's id: not empty, not llm:…, no spaces, commas or quotes", () => {
  assert.equal(annotatorNameProblem('alice'), undefined);
  assert.equal(annotatorNameProblem(' dana.k '), undefined);
  assert.match(annotatorNameProblem('  ') ?? '', /expected a name/);
  assert.match(annotatorNameProblem('llm:gpt') ?? '', /LLM judges/);
  for (const name of ['alice smith', 'a,b', 'say "hi"'])
    assert.match(annotatorNameProblem(name) ?? '', /without spaces/, name);
});
