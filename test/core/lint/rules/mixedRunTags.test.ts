import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findings, runLines, where } from '../lintTestHelpers.ts';

test('one warning per different tag, at its first line, pointing at the first tag', () => {
  const text = `${runLines('q1', 3, 'bm25')}${runLines('q2', 2, 'dense')}${runLines('q3', 2, 'bm25')}q4 Q0 d1 1 0.5 x\n`;
  const found = findings(text, 'mixed-run-tags');
  assert.deepEqual(found.map(where), ['4:16-4:21 warning mixed-run-tags', '8:16-8:17 warning mixed-run-tags']);
  assert.equal(
    found[0]!.message,
    "run tag 'dense' (2 lines) differs from 'bm25' of line 1 (5 lines): trec_eval evaluates the file as one run " +
      "and reports only the last line's tag",
  );
  assert.deepEqual(found[0]!.related, { line: 1, column: 16, message: "first run tag, 'bm25'" });
});

test('one tag throughout is fine', () => {
  assert.deepEqual(findings(`${runLines('q1', 3)}${runLines('q2', 3)}`, 'mixed-run-tags'), []);
});
