// Rules that say skipsPlainLines are not called on plain lines (LineView.plain). Each kind of unusual line, among
// plain ones, must still reach them: one of each, and the same findings wherever it sits (before, among and after
// plain lines, past the sample the file type is decided from).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lintText } from '../../../core/lint/lintText.ts';
import { lintRules } from '../../../core/lint/registry.ts';

const plain = (query: number, count: number, from = 0): string =>
  Array.from({ length: count }, (_, i) => `${1000 + query} 0 msmarco_passage_00_${from + i} ${i % 3}\n`).join('');

/** The rule ids reported on each line. */
function rulesByLine(text: string): Map<number, string[]> {
  const found = new Map<number, string[]>();
  for (const d of lintText(text, 'qrels').diagnostics) found.set(d.line, [...(found.get(d.line) ?? []), d.rule]);
  return found;
}

const unusual: [string, string][] = [
  ['1001 0 msmarco_passage_00_0 1 \n', 'trailing-whitespace'],
  ['1001 0 msmarco_passage_00_900 1\r\n', 'crlf'],
  ['1001 0 msmarco_passage_00_0 1\n', 'duplicate-pair'],
  ['1001 0 msmarco_passage_00_901 x\n', 'non-integer-label'],
  ['1001 0 msmarco_passage_00_902\n', 'column-count'],
  ['1001 0 msmarco_passage_00_903 1 extra\n', 'column-count'],
  ['\n', 'column-count'],
];

test('an unusual line among plain ones is reported by the rules that skip plain lines, wherever it sits', () => {
  for (const [line, rule] of unusual) {
    for (const before of [3, 150, 5000]) {
      const text = plain(1, before) + line + plain(1, 20, 10_000) + plain(2, 50);
      const found = rulesByLine(text).get(before + 1) ?? [];
      assert.ok(found.includes(rule), `${JSON.stringify(line)} after ${before} plain lines: ${found.join(', ')}`);
      assert.equal(rulesByLine(text).size, 1, `${JSON.stringify(line)}: only that line is reported`);
    }
  }
});

test('comments: the second of two in a row and one on the last line, after plain lines', () => {
  const text = `${plain(1, 300)}# one\n# two\n# three\n${plain(2, 10)}# last`;
  const found = rulesByLine(text);
  assert.deepEqual(found.get(302), ['comment-placement']);
  assert.equal(found.get(303), undefined, 'the third comment is skipped again');
  assert.deepEqual(found.get(314)?.sort(), ['comment-placement', 'missing-final-newline']);
});

test('a last plain line without its newline is still reported', () => {
  const text = plain(1, 300).slice(0, -1);
  assert.deepEqual(
    lintText(text, 'qrels').diagnostics.map((d) => [d.line, d.column, d.rule]),
    [[300, 32, 'missing-final-newline']],
  );
});

test('the rules that count or compare every line do not skip plain lines', () => {
  const everyLine = ['no-relevant-document', 'mixed-run-tags', 'rank-score-disagreement', 'label-outside-scale'];
  for (const rule of lintRules) if (everyLine.includes(rule.id)) assert.notEqual(rule.skipsPlainLines, true, rule.id);
});
