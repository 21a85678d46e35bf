// The `store` statement in the outline over real LSP (issue 21): textDocument/documentSymbol lists it first, with
// its kind and name as the detail, its name as the selection.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { type DocumentSymbol, SymbolKind } from 'vscode-languageserver';
import { scratchDir } from '../helpers.ts';
import { startLanguageServer } from './languageServerProcess.ts';

test('the outline of a study file holds its store statement', async () => {
  const root = scratchDir();
  const server = await startLanguageServer({ workspaceFolder: root });
  try {
    const uri = pathToFileURL(join(root, 'wqt.assess')).href;
    server.open(uri, 'assess', 1, 'store postgres "team-wqt"\nstudy "wqt" {\n  overlap 2\n}\n');
    await server.nextDiagnostics(uri);
    const symbols = await server.request<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument: { uri } });
    assert.deepEqual(
      symbols.map((s) => [s.name, s.detail, s.kind]),
      [
        ['store', 'postgres "team-wqt"', SymbolKind.Package],
        ['wqt', 'study', SymbolKind.Module],
      ],
    );
    assert.deepEqual(symbols[0]!.range, { start: { line: 0, character: 0 }, end: { line: 0, character: 25 } });
    assert.deepEqual(symbols[0]!.selectionRange, {
      start: { line: 0, character: 15 },
      end: { line: 0, character: 25 },
    });
  } finally {
    await server.kill();
  }
});
