// A study statement ends at its line: a line break can never silently change what a study means. For valid study
// files (the demo's, the DESIGN.md sketch, generated studies), a line break put between two tokens of a statement
// is an error, unless the statement visibly goes on (inside `( … )`, before its `{ … }`), or the break is one
// between statements or between `{ … }` entries (then the meaning is unchanged); the same break after a `\` is
// never an error and never changes the meaning. And the valid demo files keep the meaning they had.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { parseStudyFile, resolveStudies } from '../../core/dsl/index.ts';
import type { Token } from '../../core/dsl/lexer.ts';
import { repoRoot } from '../helpers.ts';
import { designSketch, generatedStudyFile } from './seeds.ts';

/** What a study file means: its tree and its resolved studies, without positions. */
function meaning(text: string): string {
  const parsed = parseStudyFile(text);
  const withoutRanges = (_key: string, value: unknown) =>
    typeof value === 'object' && value !== null && 'start' in value && 'end' in value && Object.keys(value).length === 2
      ? 'range'
      : value;
  return JSON.stringify([parsed.ast, resolveStudies(parsed)], withoutRanges);
}

function demoStudies(): { path: string; text: string }[] {
  const found: { path: string; text: string }[] = [];
  const visit = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (entry.name.endsWith('.assess')) found.push({ path, text: readFileSync(path, 'utf8') });
    }
  };
  visit(join(repoRoot, 'demo'));
  return found;
}

const validDemos = demoStudies().filter((demo) => parseStudyFile(demo.text).diagnostics.length === 0);

type Place = 'within-statement' | 'visible-continuation' | 'between';

/** Where a line break before token `index` falls (the tokens of a valid parse, comments and `\` included). */
function placeOf(tokens: readonly Token[], index: number): Place | undefined {
  const token = tokens[index]!;
  const previous = tokens[index - 1];
  if (!previous || previous.kind === 'comment' || previous.kind === 'continuation' || token.newlinesBefore > 0)
    return undefined;
  if (token.kind === 'comment' || token.kind === 'continuation') return undefined;
  let parens = 0;
  for (let i = 0; i < index; i++) {
    if (tokens[i]!.kind !== 'punct') continue;
    if (tokens[i]!.text === '(') parens++;
    else if (tokens[i]!.text === ')') parens--;
  }
  if (token.starts !== undefined || (token.kind === 'punct' && token.text === '}')) return 'between';
  if (parens > 0 || (token.kind === 'punct' && token.text === '{')) return 'visible-continuation';
  return 'within-statement';
}

function breakBefore(text: string, token: Token, withContinuation: boolean): string {
  return `${text.slice(0, token.start).trimEnd()}${withContinuation ? ' \\' : ''}\n  ${text.slice(token.start)}`;
}

const validStudy = fc
  .oneof(
    { weight: 1, arbitrary: fc.constant(designSketch) },
    { weight: 1, arbitrary: fc.constantFrom(...validDemos.map((demo) => demo.text)) },
    { weight: 4, arbitrary: generatedStudyFile },
  )
  .filter((text) => text.trim() !== '' && parseStudyFile(text).diagnostics.length === 0);

test('the demo has valid study files to check (the properties below start from them)', () => {
  assert.ok(validDemos.length >= 3, validDemos.map((demo) => demo.path).join(', '));
});

test('a line break inside a statement is an error; between statements, inside ( ) or before { it changes nothing', () => {
  let withinStatement = 0;
  fc.assert(
    fc.property(validStudy, fc.nat(), (text, pick) => {
      const { tokens } = parseStudyFile(text);
      const places = tokens.map((_, i) => i).filter((i) => placeOf(tokens, i) !== undefined);
      fc.pre(places.length > 0);
      const index = places[pick % places.length]!;
      const broken = breakBefore(text, tokens[index]!, false);
      const diagnostics = parseStudyFile(broken).diagnostics;
      if (placeOf(tokens, index) === 'within-statement') {
        withinStatement++;
        assert.ok(diagnostics.length > 0, `a line break silently accepted:\n${broken}`);
      } else {
        assert.deepEqual(diagnostics, [], broken);
        assert.equal(meaning(broken), meaning(text), `a line break changed the meaning:\n${broken}`);
      }
    }),
    { numRuns: 3000, seed: 18_05 },
  );
  assert.ok(withinStatement > 1000, `only ${withinStatement} breaks within statements were tried`);
});

test('a line break after a `\\` is never an error and never changes the meaning', () => {
  fc.assert(
    fc.property(validStudy, fc.nat(), (text, pick) => {
      const { tokens } = parseStudyFile(text);
      const places = tokens.map((_, i) => i).filter((i) => placeOf(tokens, i) !== undefined);
      fc.pre(places.length > 0);
      const continued = breakBefore(text, tokens[places[pick % places.length]!]!, true);
      assert.deepEqual(parseStudyFile(continued).diagnostics, [], continued);
      assert.equal(meaning(continued), meaning(text), `a continued line changed the meaning:\n${continued}`);
    }),
    { numRuns: 3000, seed: 18_06 },
  );
});

test('the valid demo files, split at every token: an error inside a statement, else the same meaning', () => {
  let splits = 0;
  for (const demo of validDemos) {
    const { tokens } = parseStudyFile(demo.text);
    for (let index = 0; index < tokens.length; index++) {
      const place = placeOf(tokens, index);
      if (place === undefined) continue;
      splits++;
      const broken = breakBefore(demo.text, tokens[index]!, false);
      const diagnostics = parseStudyFile(broken).diagnostics;
      if (place === 'within-statement') {
        assert.ok(diagnostics.length > 0, `${demo.path}: a line break silently accepted\n${broken}`);
      } else {
        assert.deepEqual(diagnostics, [], `${demo.path}\n${broken}`);
        assert.equal(meaning(broken), meaning(demo.text), `${demo.path}: meaning changed\n${broken}`);
      }
    }
  }
  assert.ok(splits > 300, `${splits} splits`);
});
