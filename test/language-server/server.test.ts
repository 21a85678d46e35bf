// The built language server (dist/server.cjs; `npm run build` or `npm run package` makes it) as editors use it: a
// real child process spoken to over LSP on stdio. Each test waits for the diagnostics published for its document
// and version, never for a fixed time.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { type Diagnostic, DiagnosticSeverity, type PublishDiagnosticsParams } from 'vscode-languageserver';
import { fixturesDir } from '../helpers.ts';
import { type LanguageServerProcess, startLanguageServer } from './languageServerProcess.ts';

const realQrelsDir = join(fixturesDir, 'qrels-real');

/** Starts a server for one test; kills it afterwards if the test did not shut it down. */
async function withServer(run: (server: LanguageServerProcess) => Promise<void>): Promise<void> {
  const server = await startLanguageServer();
  try {
    await run(server);
  } finally {
    await server.kill();
  }
}

/** "line:char-line:char", 0-based as LSP counts. */
function span(range: Diagnostic['range']): string {
  return `${range.start.line}:${range.start.character}-${range.end.line}:${range.end.character}`;
}

/** One diagnostic as a compact string: range, severity, code. */
function brief(d: Diagnostic): string {
  const severity = { 1: 'error', 2: 'warning', 3: 'info', 4: 'hint' }[d.severity ?? 1];
  return `${span(d.range)} ${severity} ${d.code}`;
}

function expectPublished(params: PublishDiagnosticsParams, uri: string, version: number | undefined): void {
  assert.equal(params.uri, uri);
  assert.equal(params.version, version);
  for (const d of params.diagnostics) assert.equal(d.source, 'qrels-studio', JSON.stringify(d));
}

test('a qrels document: problems with exact ranges on open, re-linted on change, cleared on close; shutdown and exit end the process', async () => {
  await withServer(async (server) => {
    assert.equal(server.initializeResult.serverInfo?.name, 'qrels-studio');
    assert.match(server.initializeResult.serverInfo?.version ?? '', /^\d+\.\d+\.\d+/);
    assert.deepEqual(server.initializeResult.capabilities.textDocumentSync, {
      openClose: true,
      change: 2,
      save: { includeText: false },
    });

    const uri = 'file:///work/judged.qrels';
    // Line 2 has a fractional label and a CRLF ending; line 3 judges d1 again for q1.
    const text = 'q1 0 d1 1\nq1 0 d2 1.5\r\nq1 0 d1 0\nq2 0 d3 1\n';
    server.open(uri, 'qrels', 1, text);
    const opened = await server.nextDiagnostics(uri);
    expectPublished(opened, uri, 1);
    assert.deepEqual(opened.diagnostics, [
      {
        range: { start: { line: 1, character: 8 }, end: { line: 1, character: 11 } },
        severity: DiagnosticSeverity.Error,
        source: 'qrels-studio',
        code: 'non-integer-label',
        message: "relevance label '1.5' is not an integer: trec_eval would read it as 1",
      },
      {
        // The '\r' is part of the line break in LSP: the hint sits at the end of the line's text.
        range: { start: { line: 1, character: 11 }, end: { line: 1, character: 11 } },
        severity: DiagnosticSeverity.Hint,
        source: 'qrels-studio',
        code: 'crlf',
        message: "Windows line endings (CRLF) on 1 line: tools that split on '\\n' keep the '\\r' in the last field",
      },
      {
        range: { start: { line: 2, character: 5 }, end: { line: 2, character: 7 } },
        severity: DiagnosticSeverity.Error,
        source: 'qrels-studio',
        code: 'duplicate-pair',
        message: "document 'd1' is judged again for query 'q1': first judged on line 1 (trec_eval aborts on it)",
        relatedInformation: [
          {
            location: { uri, range: { start: { line: 0, character: 5 }, end: { line: 0, character: 7 } } },
            message: "first judgment of 'd1' for query 'q1'",
          },
        ],
      },
    ]);

    // Fix the label (1.5 -> 2): that error goes, the CRLF hint moves with the shorter line, the duplicate stays.
    server.change(uri, 2, [
      { range: { start: { line: 1, character: 8 }, end: { line: 1, character: 11 } }, text: '2' },
    ]);
    const changed = await server.nextDiagnostics(uri);
    expectPublished(changed, uri, 2);
    assert.deepEqual(changed.diagnostics.map(brief), ['1:9-1:9 hint crlf', '2:5-2:7 error duplicate-pair']);

    server.close(uri);
    const closed = await server.nextDiagnostics(uri);
    assert.deepEqual(closed, { uri, diagnostics: [] });

    assert.equal(await server.shutdown(), 0);
    assert.deepEqual(server.untaken(uri), [], 'diagnostics published that the test did not expect');
  });
});

test('a run document: a docid ranked twice for one query points at its first ranking', async () => {
  await withServer(async (server) => {
    const uri = 'file:///work/bm25.run';
    server.open(uri, 'trec-run', 7, 'q1 Q0 d1 1 2.5 bm25\nq1 Q0 d2 2 1.5 bm25\nq1 Q0 d1 3 0.5 bm25\n');
    const published = await server.nextDiagnostics(uri);
    expectPublished(published, uri, 7);
    assert.deepEqual(published.diagnostics, [
      {
        range: { start: { line: 2, character: 6 }, end: { line: 2, character: 8 } },
        severity: DiagnosticSeverity.Error,
        source: 'qrels-studio',
        code: 'duplicate-docid',
        message: "document 'd1' is ranked again for query 'q1': first ranked on line 1 (trec_eval aborts on it)",
        relatedInformation: [
          {
            location: { uri, range: { start: { line: 0, character: 6 }, end: { line: 0, character: 8 } } },
            message: "first ranking of 'd1' for query 'q1'",
          },
        ],
      },
    ]);
  });
});

test('columns are UTF-16 code units: a non-ASCII and an astral-plane character before a problem', async () => {
  await withServer(async (server) => {
    const uri = 'untitled:Untitled-1';
    // 'q😀é' is 3 characters but 4 UTF-16 code units; 'd😀1' 3 characters, 4 code units.
    const text = 'q😀é 0 d😀1 1\nq😀é 0 d😀2 x\nq😀é 0 d😀1 0\n';
    server.open(uri, 'qrels', 1, text);
    const published = await server.nextDiagnostics(uri);
    expectPublished(published, uri, 1);
    assert.deepEqual(published.diagnostics.map(brief), [
      '1:12-1:13 error non-integer-label',
      '2:7-2:11 error duplicate-pair',
    ]);
    const lines = text.split('\n');
    const [label, duplicate] = published.diagnostics;
    assert.equal(lines[1]!.slice(label!.range.start.character, label!.range.end.character), 'x');
    assert.equal(lines[2]!.slice(duplicate!.range.start.character, duplicate!.range.end.character), 'd😀1');
    const related = duplicate!.relatedInformation?.[0]?.location;
    assert.equal(related?.uri, uri);
    assert.equal(span(related!.range), '0:7-0:11');
  });
});

test('every real qrels file in test/fixtures/qrels-real/ opens with zero errors', async () => {
  const files = readdirSync(realQrelsDir).sort();
  assert.ok(files.length >= 10, `expected the real qrels files in ${realQrelsDir}`);
  await withServer(async (server) => {
    for (const name of files) {
      const uri = pathToFileURL(join(realQrelsDir, name)).href;
      // VS Code names every one of them `qrels` (filename pattern qrels.*); the content decides TREC or BEIR.
      server.open(uri, 'qrels', 1, readFileSync(join(realQrelsDir, name), 'utf8'));
    }
    for (const name of files) {
      const uri = pathToFileURL(join(realQrelsDir, name)).href;
      const published = await server.nextDiagnostics(uri);
      expectPublished(published, uri, 1);
      const errors = published.diagnostics.filter((d) => d.severity === DiagnosticSeverity.Error);
      assert.deepEqual(errors, [], `${name} has errors`);
    }
  });
});

test('a burst of changes is linted once, at its last version; saving lints at once', async () => {
  await withServer(async (server) => {
    const uri = 'file:///work/typing.qrels';
    server.open(uri, 'qrels', 1, 'q1 0 d1 1\n');
    assert.deepEqual((await server.nextDiagnostics(uri)).diagnostics, []);
    // Typing "q1 0 d1 1\n" again, one keystroke per version: only the state after the last one is linted.
    const typed = 'q1 0 d1 1\n';
    for (let i = 0; i < typed.length; i++) {
      const at = { line: 1, character: i };
      server.change(uri, i + 2, [{ range: { start: at, end: at }, text: typed[i]! }]);
    }
    const last = typed.length + 1;
    const linted = await server.nextDiagnostics(uri);
    expectPublished(linted, uri, last);
    assert.deepEqual(linted.diagnostics.map(brief), ['1:5-1:7 error duplicate-pair']);

    server.save(uri);
    const saved = await server.nextDiagnostics(uri);
    expectPublished(saved, uri, last);
    assert.deepEqual(saved.diagnostics.map(brief), ['1:5-1:7 error duplicate-pair']);
    assert.deepEqual(server.untaken(uri), [], 'a superseded version was linted');
  });
});

test('the content decides the type; the language id only where the content cannot tell', async () => {
  await withServer(async (server) => {
    // A BEIR qrels TSV opened as `qrels` is linted as BEIR (no column errors for its 3 columns).
    const beir = 'file:///work/qrels/test.tsv';
    server.open(beir, 'qrels', 1, 'query-id\tcorpus-id\tscore\nq1\td1\t1\nq1\td2\t0\n');
    // A run being typed, its one line still short of a column: the run rules, not "cannot tell what kind of file".
    const typing = 'file:///work/new.run';
    server.open(typing, 'trec-run', 1, 'q1 Q0 d1 1 0.5\n');
    // Another language: linted only when the content is a data file.
    const plainQrels = 'file:///work/judgments.txt';
    server.open(plainQrels, 'plaintext', 1, 'q1 0 d1 1\nq1 0 d1 2\n');
    const prose = 'file:///work/notes.txt';
    server.open(prose, 'plaintext', 1, 'Dear reader,\nthis is prose.\n');
    const marker = 'file:///work/marker.qrels';
    server.open(marker, 'qrels', 1, 'q1 0 d1 1\n');

    assert.deepEqual((await server.nextDiagnostics(beir)).diagnostics, []);
    assert.deepEqual((await server.nextDiagnostics(typing)).diagnostics.map(brief), ['0:0-0:14 error column-count']);
    assert.deepEqual((await server.nextDiagnostics(plainQrels)).diagnostics.map(brief), [
      '1:5-1:7 error duplicate-pair',
    ]);
    // Documents opened together are linted in the order they were opened: once the last one is published, the
    // prose document has been looked at, and nothing was published for it.
    await server.nextDiagnostics(marker);
    assert.deepEqual(server.untaken(prose), []);

    // The plain text document stops being qrels: its diagnostics are cleared.
    server.change(plainQrels, 2, [{ text: 'no longer judgments\n' }]);
    assert.deepEqual(await server.nextDiagnostics(plainQrels), { uri: plainQrels, diagnostics: [] });
  });
});

test('the server exits when its client goes away without shutting it down', async () => {
  await withServer(async (server) => {
    server.child.stdin.end();
    // LSP: exit without a shutdown request first is exit code 1.
    assert.equal(await server.exited, 1);
  });
});
