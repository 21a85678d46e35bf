import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseStudyFile } from '../../../../core/dsl/parser.ts';
import { semanticTokens } from '../../../../core/dsl/services/semanticTokens.ts';
import { sketch } from '../dslTestHelpers.ts';

test('the sketch: tokens sorted, not overlapping, never spanning a newline', () => {
  const tokens = semanticTokens(parseStudyFile(sketch));
  let end = 0;
  for (const token of tokens) {
    assert.ok(token.start >= end, `token at ${token.start} overlaps the previous one`);
    assert.ok(token.length > 0);
    end = token.start + token.length;
    assert.ok(!sketch.slice(token.start, end).includes('\n'));
  }
});

test('each token has the type of what it is', () => {
  const text =
    'study "s" {  # c\n  scale ordinal { 0 "No" key "0" }\n  corpus "c" { id: did }\n  derive label = !a && b ? 1 : 0\n}';
  const typed = semanticTokens(parseStudyFile(text)).map((t) => `${text.slice(t.start, t.start + t.length)}:${t.type}`);
  assert.deepEqual(typed, [
    'study:keyword',
    '"s":string',
    '# c:comment',
    'scale:keyword',
    'ordinal:enumMember',
    '0:number',
    '"No":string',
    'key:keyword',
    '"0":string',
    'corpus:keyword',
    '"c":string',
    'id:property',
    'did:variable',
    'derive:keyword',
    'label:keyword',
    '=:operator',
    '!:operator',
    'a:variable',
    '&&:operator',
    'b:variable',
    '?:operator',
    '1:number',
    '::operator',
    '0:number',
  ]);
});

test('an unterminated string ends at its line: the next line is tokenised on its own', () => {
  const text = 'study "s" {\n  title "open\n  blind\n}';
  const tokens = semanticTokens(parseStudyFile(text));
  const title = tokens.find((t) => text.slice(t.start, t.start + t.length) === '"open')!;
  assert.equal(title.type, 'string');
  assert.ok(tokens.some((t) => text.slice(t.start, t.start + t.length) === 'blind' && t.type === 'keyword'));
});
