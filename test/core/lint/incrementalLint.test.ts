import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { type DocumentLines, IncrementalLint } from '../../../core/lint/incrementalLint.ts';
import { lintText } from '../../../core/lint/lintText.ts';
import type { LintFileType } from '../../../core/lint/types.ts';

/** A document as the editor holds it: lines split on '\n' (the text has no '\r' unless a test adds one). */
function documentOf(text: string): DocumentLines {
  const lines = text.split('\n');
  return { lineCount: lines.length, line: (i) => lines[i]!, text: () => text };
}

/** Replaces lines [from, from + removeCount) of `text` with `added`; returns the new text and the change. */
function edit(text: string, from: number, removeCount: number, added: string[]) {
  const lines = text.split('\n');
  const removed = lines.splice(from, removeCount, ...added);
  return { text: lines.join('\n'), change: { from, removed, added } };
}

const qrelsLine = fc.oneof(
  {
    weight: 20,
    arbitrary: fc
      .tuple(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 30 }), fc.integer({ min: -1, max: 3 }))
      .map(([q, d, r]) => `q${q} 0 d${d} ${r}`),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '# comment',
      '',
      '  ',
      'q1 0 d1',
      'q2 0 d3 x',
      'q3 0 d4 1 ',
      'q1\t0\td2\t1',
      'q9 0 d1 1 extra',
      'é 0 dö 2',
    ),
  },
);
const runLine = fc.oneof(
  {
    weight: 20,
    arbitrary: fc
      .tuple(
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 0, max: 40 }),
      )
      .map(([q, d, rank, score]) => `q${q} Q0 d${d} ${rank} ${score / 4} tag`),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '# c',
      '',
      'q1 Q0 d1 1 2.5 other',
      'q1 Q0 d2 x 2 tag',
      'q2 Q0 d3 1 nan? tag',
      'q1 Q0 d1',
    ),
  },
);

function property(type: LintFileType, line: fc.Arbitrary<string>, declared?: LintFileType) {
  const lines = fc.array(line, { minLength: 0, maxLength: 260 });
  const anEdit = fc.tuple(fc.nat(), fc.integer({ min: 0, max: 3 }), fc.array(line, { maxLength: 3 }));
  return fc.property(
    lines,
    fc.boolean(),
    fc.array(anEdit, { minLength: 1, maxLength: 6 }),
    (start, finalNewline, edits) => {
      let text = start.join('\n') + (finalNewline ? '\n' : '');
      const engine = new IncrementalLint('<text>', declared);
      assert.deepEqual(engine.lint(documentOf(text)).diagnostics, expected(text, declared));
      for (const [at, removeCount, added] of edits) {
        const lineCount = text.split('\n').length;
        const from = at % lineCount;
        const next = edit(text, from, Math.min(removeCount, lineCount - from), added);
        if (next.change.removed.length === 0 && added.length === 0) continue;
        text = next.text;
        engine.applyChange(next.change);
        assert.deepEqual(engine.lint(documentOf(text)).diagnostics, expected(text, declared), `${type} after edits`);
      }
    },
  );
}

/** What linting the whole text finds (with the declared type when the content cannot tell, as the editor does). */
function expected(text: string, declared?: LintFileType) {
  const detected = lintText(text, undefined, '<text>');
  if (declared !== undefined && detected.type === 'unknown') return lintText(text, declared, '<text>').diagnostics;
  return detected.diagnostics;
}

test('after any sequence of edits, the incremental lint of qrels equals a lint of the whole text', () => {
  fc.assert(property('qrels', qrelsLine, 'qrels'), { seed: 20261122, numRuns: 1000 });
});

test('after any sequence of edits, the incremental lint of a run equals a lint of the whole text', () => {
  fc.assert(property('run', runLine), { seed: 20261122, numRuns: 1000 });
});

test('a one-line edit deep in a large qrels file re-lints one query and skips the file-wide pass', () => {
  let text = '';
  for (let q = 0; q < 200; q++) for (let d = 0; d < 50; d++) text += `q${q} 0 d${d} ${d % 3}\n`;
  const engine = new IncrementalLint('big.qrels', 'qrels');
  assert.deepEqual(engine.lint(documentOf(text)).diagnostics, []);
  // Line 5,001 (q100's first judgment) judges d7 again: a duplicate within q100.
  const next = edit(text, 5000, 1, ['q100 0 d7 1']);
  engine.applyChange(next.change);
  const result = engine.lint(documentOf(next.text));
  assert.deepEqual(engine.lastStats, { whole: false, filePass: false, groupsLinted: 1, linesLinted: 50 });
  assert.deepEqual(
    result.diagnostics.map((d) => `${d.line}:${d.column} ${d.rule}`),
    ['5008:8 duplicate-pair'], // the second occurrence: d7 on q100's 8th line
  );
  assert.deepEqual(result.diagnostics, lintText(next.text, undefined, 'big.qrels').diagnostics);
});

test('inserting a comment line runs the file-wide pass; a carriage return makes every lint whole', () => {
  let text = '';
  for (let q = 0; q < 20; q++) for (let d = 0; d < 20; d++) text += `q${q} 0 d${d} 1\n`;
  const engine = new IncrementalLint('f.qrels', 'qrels');
  engine.lint(documentOf(text));
  let next = edit(text, 300, 0, ['# a note']);
  engine.applyChange(next.change);
  engine.lint(documentOf(next.text));
  assert.equal(engine.lastStats.filePass, true);
  assert.equal(engine.lastStats.whole, false);
  next = edit(next.text, 310, 1, ['q15 0 d9 1\r']);
  engine.applyChange(next.change);
  assert.deepEqual(
    engine.lint(documentOf(next.text)).diagnostics,
    lintText(next.text, undefined, 'f.qrels').diagnostics,
  );
  assert.equal(engine.lastStats.whole, true);
});

test('qids with lone surrogates group as lintText reads them (both become U+FFFD)', () => {
  const text = '\ud800 0 d1 1\n\ud801 0 d2 1\nq1 0 d3 1\n';
  const engine = new IncrementalLint('<text>', 'qrels');
  engine.lint(documentOf(text));
  const next = edit(text, 2, 1, ['\ud802 0 d1 1']);
  engine.applyChange(next.change);
  const result = engine.lint(documentOf(next.text));
  assert.deepEqual(result.diagnostics, lintText(next.text, undefined, '<text>').diagnostics);
  assert.ok(result.diagnostics.some((d) => d.rule === 'duplicate-pair'));
});
