import assert from 'node:assert/strict';
import { test } from 'node:test';
import { keywordDocs } from '../../../../core/dsl/keywords.ts';
import { parseStudyFile } from '../../../../core/dsl/parser.ts';
import { hoverAt } from '../../../../core/dsl/services/hover.ts';
import { offsetOf, sketch } from '../dslTestHelpers.ts';

test('every entry of the keyword table has hover text where its example uses it', () => {
  for (const doc of keywordDocs) {
    const topLevel = doc.context === 'block' || doc.context === 'file-statement' || doc.context === 'store-kind';
    const text = topLevel ? doc.example : `${doc.blocks[0]} "x" {\n  ${doc.example}\n}\n`;
    const parsed = parseStudyFile(text);
    assert.deepEqual(parsed.diagnostics, [], `${doc.id}: its example does not parse`);
    const uses = parsed.tokens.filter((t) => t.text === doc.word);
    const hovers = uses.map((t) => hoverAt(parsed, t.start + 1));
    const hover = hovers.find((h) => h?.markdown.includes(doc.doc));
    assert.ok(hover, `${doc.id}: no hover with its documentation in ${JSON.stringify(text)}`);
    assert.ok(hover.markdown.startsWith(`**${doc.word}**`));
    assert.ok(hover.markdown.includes(doc.syntax));
  }
});

test('keyword table: ids unique, every entry documented with syntax and example', () => {
  const ids = keywordDocs.map((d) => d.id);
  assert.equal(new Set(ids).size, ids.length);
  for (const doc of keywordDocs) {
    assert.ok(doc.doc.length > 10 && doc.syntax.includes(doc.word), doc.id);
  }
});

test('the same word means different things in different places: judge, all, ordinal, from', () => {
  const parsed = parseStudyFile(sketch);
  assert.match(hoverAt(parsed, offsetOf(sketch, 'judge "gpt'))!.markdown, /LLM judge/);
  assert.match(hoverAt(parsed, offsetOf(sketch, 'all(conditions)'))!.markdown, /`derive` function/);
  assert.match(hoverAt(parsed, offsetOf(sketch, 'ordinal {'))!.markdown, /scale kind/);
  assert.match(hoverAt(parsed, offsetOf(sketch, 'ordinal  target'))!.markdown, /agreement level/);
  assert.match(hoverAt(parsed, offsetOf(sketch, 'from instruction'))!.markdown, /query field/);
  assert.match(hoverAt(parsed, offsetOf(sketch, 'from adjudicated'))!.markdown, /Which labels to export/);
});

test('an aspect shows its question, where declared and where used', () => {
  const parsed = parseStudyFile(sketch);
  const used = hoverAt(parsed, offsetOf(sketch, 'topical ? 1', 2))!;
  assert.equal(used.markdown, "**aspect** `topical`\n\nIs the table on the query's topic?");
  assert.deepEqual(used.range, { start: offsetOf(sketch, 'topical ? 1'), end: offsetOf(sketch, 'topical ? 1') + 7 });
  assert.equal(hoverAt(parsed, offsetOf(sketch, 'topical "Is'))!.markdown, used.markdown);
});

test('a scale value in derive shows its label, description and key', () => {
  const parsed = parseStudyFile(sketch);
  assert.equal(
    hoverAt(parsed, offsetOf(sketch, '? 2 :', 2))!.markdown,
    '**scale value 2** — Complies\n\nOn topic and meets every constraint\n\nKey: `2`',
  );
  assert.match(hoverAt(parsed, offsetOf(sketch, '0 "Off-topic"'))!.markdown, /Off-topic/);
});

test('no hover on plain strings, whitespace, or outside the text', () => {
  const parsed = parseStudyFile(sketch);
  assert.equal(hoverAt(parsed, offsetOf(sketch, '"WQT dev', 3)), undefined);
  assert.equal(hoverAt(parsed, offsetOf(sketch, '\n\n  scale') + 1), undefined);
  assert.equal(hoverAt(parsed, sketch.length + 10), undefined);
});
