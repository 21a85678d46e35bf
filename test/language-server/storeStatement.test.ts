// `store postgres "…"` over real LSP (issue 21 item 2): a connection URL with a password in a study file is a
// warning on the password with a quick fix that removes it; a misspelt store kind an error with its did-you-mean
// fix; hover documents the statement.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { CodeAction, Diagnostic, Hover } from 'vscode-languageserver';
import { scratchDir } from '../helpers.ts';
import { startLanguageServer } from './languageServerProcess.ts';

function brief(d: Diagnostic): string {
  return `${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character} ${d.code} ${d.severity}`;
}

const study = `study "wqt" {
  queries "q.jsonl" { id: qid  text: query }
  corpus  "c.jsonl" { id: did  body: text }
  scale ordinal { 0 "No" key "0"  1 "Yes" key "1" }
}
`;

test('the language server flags a URL with a password in a study file, and a misspelt store kind', async () => {
  const root = scratchDir();
  writeFileSync(join(root, 'q.jsonl'), '{"qid": "q1", "query": "a"}\n');
  writeFileSync(join(root, 'c.jsonl'), '{"did": "d1", "text": "b"}\n');
  const server = await startLanguageServer({ workspaceFolder: root });
  try {
    const uri = pathToFileURL(join(root, 'wqt.assess')).href;
    const text = `store postgres "postgres://alice:hunter2@db.example/wqt"\n${study}`;
    server.open(uri, 'assess', 1, text);
    const { diagnostics } = await server.nextDiagnostics(uri);
    // Severity 2: a warning.
    assert.deepEqual(diagnostics.map(brief), ['0:32-0:40 store-password 2']);
    assert.match(String(diagnostics[0]!.message), /^expected no password in a study file/);
    assert.doesNotMatch(String(diagnostics[0]!.message), /hunter2/, 'the message does not repeat the password');
    const actions = await server.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: diagnostics[0]!.range,
      context: { diagnostics },
    });
    const fix = actions.find((a) => a.diagnostics?.[0]?.code === 'store-password');
    assert.deepEqual(fix?.edit?.changes?.[uri], [{ range: diagnostics[0]!.range, newText: '' }]);

    const misspelt = `store postgre "team-wqt"\n${study}`;
    server.change(uri, 2, [{ text: misspelt }]);
    const second = await server.nextDiagnostics(uri);
    assert.deepEqual(second.diagnostics.map(brief), ['0:6-0:13 unknown-value 1']);
    assert.match(String(second.diagnostics[0]!.message), /did you mean `postgres`\?/);

    const hover = await server.request<Hover | null>('textDocument/hover', {
      textDocument: { uri },
      position: { line: 0, character: 2 },
    });
    assert.match(JSON.stringify(hover?.contents), /store \(sqlite \| postgres/);
  } finally {
    await server.kill();
  }
});
