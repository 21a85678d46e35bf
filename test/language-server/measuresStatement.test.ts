// A study's `measures` statement over real LSP (dist/server.cjs): every name checked as typed — an unknown one with
// did-you-mean (and the quick fix that replaces it), a bad parameter with the rule, a diversity measure refused with
// the reason — and measure names completed after `measures`, quoted where they must be.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { CodeAction, CompletionItem, Diagnostic } from 'vscode-languageserver';
import { scratchDir } from '../helpers.ts';
import { startLanguageServer } from './languageServerProcess.ts';

const study = (measures: string) => `study "s" {
  queries "q.jsonl" { id: qid  text: query }
  corpus "c.jsonl" { id: did  body: text }
  pool "bm25.trec" depth 10
  scale ordinal {
    0 "No" key "0"
    1 "Yes" key "1"
  }
  annotators alice
  measures ${measures}
}
`;

function brief(d: Diagnostic): string {
  return `${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character} ${d.code}`;
}

test('measures over LSP: positioned diagnostics with did-you-mean and a quick fix, and completion', async () => {
  const root = scratchDir();
  writeFileSync(join(root, 'q.jsonl'), '{"qid": "q1", "query": "medal tables"}\n');
  writeFileSync(join(root, 'c.jsonl'), '{"did": "d1", "text": "a table"}\n');
  writeFileSync(join(root, 'bm25.trec'), 'q1 Q0 d1 1 2.5 bm25\n');
  const server = await startLanguageServer({ workspaceFolder: root });
  try {
    const uri = pathToFileURL(join(root, 's.assess')).href;
    server.open(uri, 'assess', 1, study('map recip_rnk "ndcg_cut.10" "err@x" "rbp@0.8" "alpha_ndcg@20"'));
    const { diagnostics } = await server.nextDiagnostics(uri);
    assert.deepEqual(diagnostics.map(brief), [
      '9:15-9:24 unknown-measure',
      '9:39-9:46 unknown-measure',
      '9:57-9:72 unknown-measure',
    ]);
    assert.match(String(diagnostics[0]!.message), /unknown measure 'recip_rnk'.*did you mean `recip_rank`\?$/);
    assert.match(String(diagnostics[1]!.message), /expected a depth \(an integer ≥ 1\) after @, found 'x'/);
    assert.match(String(diagnostics[2]!.message), /diversity measure .*needs diversity qrels/);
    const actions = await server.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: diagnostics[0]!.range,
      context: { diagnostics: [diagnostics[0]!] },
    });
    const fixes = actions.map((a) => [a.title, ...(a.edit?.changes?.[uri] ?? []).map((e) => e.newText)]);
    assert.deepEqual(fixes, [['Replace `recip_rnk` with `recip_rank`', 'recip_rank']]);

    server.change(uri, 2, [{ text: study('map ') }]);
    await server.nextDiagnostics(uri);
    const items = await server.request<CompletionItem[]>('textDocument/completion', {
      textDocument: { uri },
      position: { line: 9, character: 15 },
    });
    const byLabel = new Map(items.map((c) => [c.label, c]));
    for (const name of ['recip_rank', 'ndcg_cut.10', 'err@20', 'rbp@0.8']) assert.ok(byLabel.has(name), name);
    assert.equal(byLabel.get('err@20')!.insertText, '"err@20"');
  } finally {
    await server.kill();
  }
});
