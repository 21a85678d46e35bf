// Issue 22's judge options over real LSP (dist/server.cjs as a child process): positioned diagnostics for a
// malformed mode, budget and gate with their did-you-mean fix, hover on each, completion of the values, metrics
// and comparisons, and semantic tokens for them.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { CodeAction, CompletionItem, Diagnostic, Hover, SemanticTokens } from 'vscode-languageserver';
import { scratchDir } from '../helpers.ts';
import { startLanguageServer } from './languageServerProcess.ts';

const study = (judgeLines: string[]) =>
  [
    'study "s" {',
    '  queries "q.jsonl" { id: qid  text: query }',
    '  corpus "c.jsonl" { id: did  body: text }',
    '  scale ordinal {',
    '    0 "No" key "0"',
    '    1 "Yes" key "1"',
    '  }',
    '  judge "gpt-4.1-mini" {',
    ...judgeLines.map((line) => `    ${line}`),
    '  }',
    '}',
    '',
  ].join('\n');

function brief(d: Diagnostic): string {
  return `${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character} ${d.code}`;
}

test('judge mode, budget and accept over LSP: diagnostics, fixes, hover, completion and semantic tokens', async () => {
  const root = scratchDir();
  writeFileSync(join(root, 'q.jsonl'), '{"qid": "q1", "query": "medal tables"}\n');
  writeFileSync(join(root, 'c.jsonl'), '{"did": "d1", "text": "a table"}\n');
  const uri = pathToFileURL(join(root, 'judged.assess')).href;
  const server = await startLanguageServer({ workspaceFolder: root });
  try {
    // Lines 8–11 (0-based): the four options, each broken once.
    server.open(
      uri,
      'assess',
      1,
      study(['mode bath', 'budget 25 EUR', 'accept when tau >= 1.5 and kapa >= 0.6', 'accept when ece <= 0.1']),
    );
    const { diagnostics } = await server.nextDiagnostics(uri);
    assert.deepEqual(diagnostics.map(brief), [
      '8:9-8:13 unknown-value',
      '9:14-9:17 unknown-value',
      '10:23-10:26 judge-gate-range',
      '10:31-10:35 unknown-value',
      '11:4-11:10 repeated-judge-option',
    ]);
    const byCode = (range: string) => diagnostics.find((d) => brief(d).startsWith(range))!;
    assert.equal(
      byCode('8:9').message,
      'expected the mode (online or batch) after `mode`, found `bath`; did you mean `batch`?',
    );
    assert.equal(byCode('9:14').message, 'expected the currency (USD) after `budget 25`, found `EUR`');
    assert.equal(byCode('10:23').message, 'expected a value from -1 to 1 for `tau`, found 1.5');
    const actions = await server.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: byCode('10:31').range,
      context: { diagnostics: [byCode('10:31')] },
    });
    assert.deepEqual(
      actions.map((a) => [a.title, ...(a.edit?.changes?.[uri] ?? []).map((e) => e.newText)]),
      [['Replace `kapa` with `kappa`', 'kappa']],
    );

    const valid = study(['mode batch  budget 25 USD', 'accept when tau >= 0.9 and kappa >= 0.6', '']);
    server.change(uri, 2, [{ text: valid }]);
    assert.deepEqual((await server.nextDiagnostics(uri)).diagnostics, []);

    const hover = async (line: number, character: number) =>
      (
        (await server.request<Hover>('textDocument/hover', { textDocument: { uri }, position: { line, character } }))
          .contents as { value: string }
      ).value;
    assert.match(await hover(8, 18), /refuses to start beyond the budget/);
    assert.match(await hover(8, 10), /Batch API/);
    assert.match(await hover(9, 5), /quality gate/);
    assert.match(await hover(9, 17), /Kendall/);
    assert.match(await hover(9, 20), /at least the value/);

    const complete = async (line: number, character: number) =>
      (
        await server.request<CompletionItem[]>('textDocument/completion', {
          textDocument: { uri },
          position: { line, character },
        })
      ).map((c) => c.label);
    // Line 10 is the empty entry line: every judge option, the three new ones included.
    const options = await complete(10, 4);
    for (const option of ['mode', 'budget', 'accept', 'votes']) assert.ok(options.includes(option), option);
    const typed = study(['mode ', 'budget 25 ', 'accept when ', 'accept when tau ']);
    server.change(uri, 3, [{ text: typed }]);
    await server.nextDiagnostics(uri);
    assert.deepEqual(await complete(8, 9), ['online', 'batch']);
    assert.deepEqual(await complete(9, 14), ['USD']);
    assert.deepEqual(await complete(10, 16), ['tau', 'tau_ap', 'kappa', 'accuracy', 'ece']);
    assert.deepEqual(await complete(11, 20), ['>=', '>', '<=', '<']);

    server.change(uri, 4, [{ text: valid }]);
    await server.nextDiagnostics(uri);
    const legend = server.initializeResult.capabilities.semanticTokensProvider!.legend.tokenTypes;
    const { data } = await server.request<SemanticTokens>('textDocument/semanticTokens/full', {
      textDocument: { uri },
    });
    const lines = valid.split('\n');
    const shown: string[] = [];
    let line = 0;
    let character = 0;
    for (let i = 0; i < data.length; i += 5) {
      line += data[i]!;
      character = data[i] === 0 ? character + data[i + 1]! : data[i + 1]!;
      if (line === 8 || line === 9)
        shown.push(`${lines[line]!.slice(character, character + data[i + 2]!)}:${legend[data[i + 3]!]}`);
    }
    assert.deepEqual(shown, [
      'mode:keyword',
      'batch:enumMember',
      'budget:keyword',
      '25:number',
      'USD:enumMember',
      'accept:keyword',
      'when:keyword',
      'tau:enumMember',
      '>=:operator',
      '0.9:number',
      'and:keyword',
      'kappa:enumMember',
      '>=:operator',
      '0.6:number',
    ]);
  } finally {
    await server.kill();
  }
});
