// Laws that hold for any input: parsing never throws, every range lies in the text and is non-empty, the
// services answer at every offset, semantic tokens are ordered, formatting keeps every token and is idempotent.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  checkStudyFile,
  completionsAt,
  definitionAt,
  documentSymbols,
  formatStudyText,
  hoverAt,
  parseStudyFile,
  resolveStudies,
  semanticTokens,
} from '../../../core/dsl/index.ts';
import { sketch } from './dslTestHelpers.ts';

const fragments = [
  'study',
  'review',
  ' ',
  '\n',
  '"',
  '"x"',
  '{',
  '}',
  '(',
  ')',
  ':',
  '=',
  '?',
  '!',
  '&&',
  '||',
  '==',
  '<',
  ',',
  '-',
  '-2',
  '0.5',
  '3',
  '1x',
  '#c\n',
  '\u0000',
  '😀',
  'é',
  '\\',
  'title',
  'scale',
  'ordinal',
  'key',
  'derive',
  'label',
  'all',
  'conditions',
  'judge',
  'pool',
  'depth',
  'queries',
  'id',
  'export',
  'from',
  'per',
  'document',
  'rubric',
  'levels',
  'taxonomy',
  'annotators',
  'agreement',
  'target',
  '\r\n',
  '\t',
  'a',
  '&',
  '|',
  "'",
  '\ud800',
];

function tokensOf(text: string): string {
  return parseStudyFile(text)
    .tokens.map((t) => (t.kind === 'comment' ? t.text.trimEnd() : t.text))
    .join(' ');
}

function checkLaws(text: string): void {
  const parsed = parseStudyFile(text);
  for (const d of [...parsed.diagnostics, ...checkStudyFile(parsed)]) {
    assert.notEqual(d.code, 'internal-error', d.message);
    assert.ok(d.range.start >= 0 && d.range.start <= d.range.end && d.range.end <= text.length, JSON.stringify(d));
    assert.ok(d.range.end > d.range.start || text.trim() === '', `empty range: ${JSON.stringify(d)}`);
    for (const fix of d.fixes ?? []) for (const edit of fix.edits) assert.ok(edit.range.end <= text.length);
  }
  let end = 0;
  for (const token of semanticTokens(parsed)) {
    assert.ok(token.start >= end && token.length > 0, 'semantic tokens ordered, not overlapping');
    end = token.start + token.length;
    assert.ok(!/[\n\r]/.test(text.slice(token.start, end)), 'semantic token spans a newline');
  }
  const step = Math.max(1, Math.floor(text.length / 25));
  for (let offset = 0; offset <= text.length; offset += step) {
    hoverAt(parsed, offset);
    completionsAt(parsed, offset, { fieldsOf: () => ['f'], paths: () => ['p'] });
    definitionAt(parsed, offset, '/data/study.assess');
  }
  documentSymbols(parsed);
  resolveStudies(parsed);
  const formatted = formatStudyText(text);
  assert.equal(formatted === undefined, parsed.diagnostics.length > 0);
  if (formatted !== undefined) {
    assert.equal(formatStudyText(formatted), formatted, 'formatting is idempotent');
    assert.equal(tokensOf(formatted), tokensOf(text), 'formatting keeps every token and comment');
  }
}

test('random token soup: laws hold', () => {
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...fragments), { maxLength: 60 }), fc.boolean(), (parts, spaced) => {
      checkLaws(parts.join(spaced ? ' ' : ''));
    }),
    { numRuns: 1500 },
  );
});

test('the sketch with a random cut and insertion: laws hold', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: sketch.length }),
      fc.integer({ min: 0, max: 40 }),
      fc.constantFrom(...fragments),
      (at, cut, inserted) => checkLaws(sketch.slice(0, at) + inserted + sketch.slice(at + cut)),
    ),
    { numRuns: 1500 },
  );
});

test('arbitrary Unicode strings: laws hold', () => {
  fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 200 }), checkLaws), { numRuns: 500 });
});
