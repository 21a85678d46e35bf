// core/lint's results turned into LSP diagnostics: positions (1-based code points → 0-based UTF-16), a byte order
// mark, a lone '\r' (a line break for LSP, not for core/lint), and the cap on what one document publishes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DiagnosticSeverity } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { lintText } from '../../core/lint/lintText.ts';
import { LintPositions, maxPublishedDiagnostics, toLspDiagnostics } from '../../language-server/diagnostics.ts';

function diagnosticsOf(text: string) {
  const document = TextDocument.create('file:///work/a.qrels', 'qrels', 1, text);
  return toLspDiagnostics(document, lintText(text, undefined, document.uri));
}

function spans(text: string): string[] {
  return diagnosticsOf(text).map(
    (d) => `${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character} ${d.code}`,
  );
}

test('columns count UTF-16 code units: a character outside the BMP is two', () => {
  assert.deepEqual(spans('q1 0 d1 1\n😀😀 0 d1 x\n'), ['1:10-1:11 non-integer-label']);
  assert.deepEqual(spans('q1 0 d1 1\nqé 0 d1 x\n'), ['1:8-1:9 non-integer-label']);
});

test("a byte order mark kept in the text is one code unit before core/lint's column 1", () => {
  assert.deepEqual(spans('\uFEFFq1 0 d1 x\n'), ['0:1-0:1 bom', '0:9-0:10 non-integer-label']);
});

test("a lone '\\r' breaks the line for LSP: later lines move down one", () => {
  // core/lint sees 3 lines, the second with an extra column ('2'); LSP sees 4.
  assert.deepEqual(spans('q1 0 d0 1\nq1 0\rd1 1 2\nq1 0 d2 x\n'), [
    '2:5-2:6 column-count',
    '3:8-3:9 non-integer-label',
  ]);
});

test('a column past the end of its line stops at the end (the CRLF hint before the line break)', () => {
  assert.deepEqual(spans('q1 0 d1 1\r\n'), ['0:9-0:9 crlf']);
  const document = TextDocument.create('file:///a', 'qrels', 1, 'ab\ncd');
  const positions = new LintPositions(document);
  assert.deepEqual(positions.position(1, 99), { line: 0, character: 2 });
  assert.deepEqual(positions.position(2, 3), { line: 1, character: 2 });
  assert.deepEqual(positions.position(7, 1), { line: 1, character: 2 });
});

test(`at most ${maxPublishedDiagnostics} diagnostics, errors first, and one that says how many more there are`, () => {
  // A trailing-whitespace hint on line 1, then 1,501 duplicate judgments.
  const text = `q1 0 d1 1 \n${'q1 0 d1 1\n'.repeat(1501)}`;
  assert.equal(lintText(text).diagnostics.length, 1502);
  const diagnostics = diagnosticsOf(text);
  assert.equal(diagnostics.length, maxPublishedDiagnostics + 1);
  const shown = diagnostics.slice(0, maxPublishedDiagnostics);
  assert.ok(shown.every((d) => d.code === 'duplicate-pair' && d.severity === DiagnosticSeverity.Error));
  assert.deepEqual(
    shown.map((d) => d.range.start.line),
    shown.map((_, i) => i + 1),
  );
  const summary = diagnostics.at(-1)!;
  assert.deepEqual(summary.range, { start: { line: 1001, character: 5 }, end: { line: 1001, character: 5 } });
  assert.equal(summary.severity, DiagnosticSeverity.Information);
  assert.equal(summary.source, 'qrels-studio');
  assert.equal(summary.code, undefined);
  assert.equal(
    summary.message,
    "502 more problems (501 errors) not shown: the editor gets the first 1000, errors first; 'qrels-studio lint' lists every one",
  );
});
