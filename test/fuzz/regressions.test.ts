// The minimal counterexamples of the bugs the fuzz suite found, one test each, kept so they stay fixed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseStudyFile } from '../../core/dsl/index.ts';
import { type DocumentLines, IncrementalLint, type LineChange } from '../../core/lint/incrementalLint.ts';
import { lintText } from '../../core/lint/lintText.ts';
import { lintRecordText } from '../../core/lint/records/lintRecordText.ts';
import { assertCostWithin } from '../costCheck.ts';

function documentOf(text: string): DocumentLines {
  const lines = text.split('\n');
  return { lineCount: lines.length, line: (i) => lines[i]!, text: () => text };
}

/** Lints `before`, applies one change, lints again: returns the incremental and the whole-text result. */
function lintAfterChange(before: string, change: LineChange) {
  const engine = new IncrementalLint('<text>');
  engine.lint(documentOf(before));
  const lines = before.split('\n');
  lines.splice(change.from, change.removed.length, ...change.added);
  const after = lines.join('\n');
  engine.applyChange(change);
  return { incremental: engine.lint(documentOf(after)), whole: lintText(after) };
}

test('extra-columns on a BEIR qrels row ending in a tab does not end before it starts', () => {
  const result = lintText('query-id\tcorpus-id\tscore\nq1\td1\t1\t\n');
  for (const d of result.diagnostics) {
    assert.ok(d.endLine > d.line || (d.endLine === d.line && d.endColumn >= d.column), JSON.stringify(d));
  }
});

test('inserting the BEIR header above headerless rows: the incremental lint finds what lintText finds', () => {
  const { incremental, whole } = lintAfterChange('q1\td1\t0\nq1\td2\t1\n', {
    from: 0,
    removed: [],
    added: ['query-id\tcorpus-id\tscore'],
  });
  assert.deepEqual(incremental, whole); // incremental: a no-relevant-document hint on q1 at 2:1-2:3
});

test('inserting a comment above a first line with a BOM: the incremental lint finds what lintText finds', () => {
  const { incremental, whole } = lintAfterChange('\ufeffq1 0 d1 0\nq1 0 d2 1\n', {
    from: 0,
    removed: [],
    added: ['# note'],
  });
  assert.deepEqual(incremental, whole); // whole: "\ufeffq1" is a query of its own, with no relevant document
});

test('a CRUMB run line nesting items 10,000 arrays deep is linted without a stack overflow', () => {
  const depth = 10_000;
  const text = `{"query":{"id":"1"},"items":${'['.repeat(depth)}${']'.repeat(depth)}}\n`;
  const result = lintRecordText(text);
  assert.equal(result.kind, 'crumb-run');
});

test('parsing a study file is linear in its number of unclosed blocks', () => {
  const study = (blocks: number) => `study "s" {\n  ${'judge "j" { prompt '.repeat(blocks)}`;
  // A block left open costs about what a closed one does; the bug made the cost of every unclosed block grow with
  // their number (1,064 ms for 8,000 blocks against 24 ms for 1,000).
  const open = study(32_000);
  const closed = `study "s" {\n  ${'judge "j" { prompt "p" } '.repeat(32_000)}\n}\n`;
  assert.equal(parseStudyFile(closed).diagnostics.length, 0);
  assertCostWithin(
    () => parseStudyFile(open),
    () => parseStudyFile(closed),
    8,
    {
      work: 'parsing 32,000 unclosed blocks',
      baseline: '32,000 closed ones',
    },
  );
  // And each unclosed block names the line it opens on (the innermost is reported where the file ends).
  const parsed = parseStudyFile('study "s" {\n  judge "a" {\n  judge "b" {\n');
  assert.deepEqual(
    parsed.diagnostics
      .filter((d) => d.code === 'unclosed-block')
      .map((d) => /opened at line (\d+)/.exec(d.message)?.[1]),
    ['2', '3', '1'],
  );
});
