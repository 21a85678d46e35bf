// The TextMate grammar (for editors without semantic tokens) knows every word of the study language: each word of
// core/dsl's keyword table is matched by one of its keyword, value or function patterns.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { keywordDocs } from '../../core/dsl/keywords.ts';
import { repoRoot } from '../helpers.ts';

interface Pattern {
  match?: string;
  name?: string;
}

const grammar = JSON.parse(readFileSync(join(repoRoot, 'media', 'syntaxes', 'assess.tmLanguage.json'), 'utf8')) as {
  patterns: Pattern[];
};

/** The scope the grammar gives `word` on its own (with a `(` after it, for functions). */
function scopeOf(word: string): string | undefined {
  for (const pattern of grammar.patterns) {
    if (pattern.match === undefined || pattern.name === undefined) continue;
    for (const text of [word, `${word}(`]) {
      const match = new RegExp(pattern.match).exec(text);
      if (match?.index === 0 && match[0] === word) return pattern.name;
    }
  }
  return undefined;
}

test('every keyword, value and function of the study language has a scope in the TextMate grammar', () => {
  const roles = new Set(['queries-role', 'corpus-role', 'items-role', 'expression-name']);
  const missing = keywordDocs
    .filter((doc) => !roles.has(doc.context))
    .filter((doc) => !/^(storage|keyword|constant|support)\./.test(scopeOf(doc.word) ?? ''))
    .map((doc) => `${doc.word} (${doc.context})`);
  assert.deepEqual(missing, []);
});

test('a mapping role is a property, an operator an operator, a comment a comment', () => {
  const role = grammar.patterns.find((p) => p.match?.includes('(:)'));
  assert.ok(role && new RegExp(role.match!).test('instruction: instruction'));
  assert.equal(scopeOf('&&'), 'keyword.operator.assess');
  assert.equal(scopeOf('# a note'), 'comment.line.number-sign.assess');
});
