// Study files (*.assess) over real LSP: every problem at once with exact ranges (syntax, semantic and cross-file),
// quick fixes, hover documentation, completion of keywords and of field names read from the data file,
// go-to-definition on paths and names, document symbols, formatting and semantic tokens.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import type {
  CodeAction,
  CompletionItem,
  Diagnostic,
  DocumentSymbol,
  Hover,
  Location,
  SemanticTokens,
  TextEdit,
} from 'vscode-languageserver';
import { scratchDir } from '../helpers.ts';
import { type LanguageServerProcess, startLanguageServer } from './languageServerProcess.ts';

function brief(d: Diagnostic): string {
  return `${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character} ${d.code}`;
}

function workspace(): string {
  const root = scratchDir();
  mkdirSync(join(root, 'data'));
  mkdirSync(join(root, 'runs'));
  writeFileSync(
    join(root, 'data', 'queries.jsonl'),
    '{"qid": "q1", "query": "medal tables", "instruction": "after 2000"}\n',
  );
  writeFileSync(join(root, 'data', 'tables.jsonl'), '{"table_id": "t1", "table": "| a |", "caption": "A"}\n');
  writeFileSync(join(root, 'runs', 'bm25.trec'), 'q1 Q0 t1 1 2.5 bm25\n');
  writeFileSync(join(root, 'guidelines.md'), '# Guidelines\n');
  return root;
}

const valid = `study "wqt-dev" {
  guidelines "guidelines.md"
  queries "data/queries.jsonl" { id: qid  text: query  instruction: instruction }
  corpus  "data/tables.jsonl"  { id: table_id  body: table  title: caption }
  pool "runs/bm25.trec" depth 20
  scale ordinal {
    0 "Off-topic" key "0"
    1 "Violates"  key "1"
    2 "Complies"  key "2"
  }
  aspect topical "Is the table on the query's topic?"
  derive label = topical ? 2 : 0
  annotators alice bob
}
`;

async function withStudy(run: (server: LanguageServerProcess, root: string, uri: string) => Promise<void>) {
  const root = workspace();
  const server = await startLanguageServer({ workspaceFolder: root });
  try {
    await run(server, root, pathToFileURL(join(root, 'wqt.assess')).href);
  } finally {
    await server.kill();
  }
}

test('a study file with several problems gets all of them at once, each at its exact range, with fixes', async () => {
  await withStudy(async (server, _root, uri) => {
    const text = valid
      .replace('guidelines "guidelines.md"', 'guidlines "guidelines.md"')
      .replace('instruction: instruction', 'instruction: instrucion')
      .replace('key "1"', 'key "j"')
      .replace('topical ? 2 : 0', 'relevant ? 2 : 0')
      .replace('"runs/bm25.trec"', '"runs/missing.trec"');
    server.open(uri, 'assess', 1, text);
    const { diagnostics } = await server.nextDiagnostics(uri);
    assert.deepEqual(diagnostics.map(brief), [
      '1:2-1:11 unknown-keyword',
      '2:68-2:78 unknown-field',
      '4:7-4:26 file-not-found',
      '7:22-7:25 navigation-key',
      '11:17-11:25 derive-undeclared-name',
    ]);
    assert.match(String(diagnostics[0]!.message), /guidelines/);
    const actions = await server.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: diagnostics[0]!.range,
      context: { diagnostics },
    });
    const titles = actions.map((a) => a.title);
    const typo = actions.find((a) => a.diagnostics?.[0]?.code === 'unknown-keyword');
    assert.deepEqual(
      typo?.edit?.changes?.[uri],
      [{ range: diagnostics[0]!.range, newText: 'guidelines' }],
      titles.join('\n'),
    );
    const field = actions.find((a) => a.diagnostics?.[0]?.code === 'unknown-field');
    assert.deepEqual(
      field?.edit?.changes?.[uri]?.map((e) => e.newText),
      ['instruction'],
    );
    assert.ok(
      actions.some((a) => a.diagnostics?.[0]?.code === 'navigation-key'),
      titles.join('\n'),
    );
  });
});

test('derive rules that count and add: a sum off the scale is an error, an uncapped count(conditions) a warning', async () => {
  await withStudy(async (server, _root, uri) => {
    // Two graded aspects (levels 0 1 2) sum to 0..4 on a 0..2 scale; count(conditions) is 0..n, n in the data.
    const text = valid
      .replace(
        'aspect topical "Is the table on the query\'s topic?"',
        'aspect a1 "Aspect 1?" levels 0 1 2\n  aspect a2 "Aspect 2?" levels 0 1 2\n  conditions from instruction',
      )
      .replace('derive label = topical ? 2 : 0', 'derive label = a1 > 0 ? a1 + a2 : count(conditions)');
    server.open(uri, 'assess', 1, text);
    const { diagnostics } = await server.nextDiagnostics(uri);
    assert.deepEqual(
      diagnostics.map((d) => `${brief(d)} ${d.severity}`),
      ['13:26-13:33 derive-value 1', '13:36-13:53 derive-unbounded 2'],
    );
    assert.match(String(diagnostics[0]!.message), /this can give 1 to 4, but 3 and 4 are not scale values/);
    assert.match(String(diagnostics[1]!.message), /a label above 2/);
  });
});

test('hover, completion, definition, symbols, formatting and semantic tokens on a valid study', async () => {
  await withStudy(async (server, root, uri) => {
    server.open(uri, 'assess', 1, valid);
    const { diagnostics } = await server.nextDiagnostics(uri);
    assert.deepEqual(diagnostics, []);

    const hover = await server.request<Hover>('textDocument/hover', {
      textDocument: { uri },
      position: { line: 4, character: 3 },
    });
    assert.match((hover.contents as { value: string }).value, /pool/);
    assert.deepEqual(hover.range, { start: { line: 4, character: 2 }, end: { line: 4, character: 6 } });

    // Field names come from the data file: inside the queries mapping, after "id: ".
    const fields = await server.request<CompletionItem[]>('textDocument/completion', {
      textDocument: { uri },
      position: { line: 2, character: 37 },
    });
    for (const name of ['qid', 'query', 'instruction'])
      assert.ok(
        fields.some((c) => c.label === name),
        name,
      );

    const definition = await server.request<Location>('textDocument/definition', {
      textDocument: { uri },
      position: { line: 2, character: 14 },
    });
    assert.equal(definition.uri, pathToFileURL(join(root, 'data', 'queries.jsonl')).href);
    const name = await server.request<Location>('textDocument/definition', {
      textDocument: { uri },
      position: { line: 11, character: 19 },
    });
    assert.deepEqual(name.range.start, { line: 10, character: 9 });

    const symbols = await server.request<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument: { uri } });
    assert.equal(symbols[0]!.name, 'wqt-dev');
    assert.ok((symbols[0]!.children ?? []).length > 0);

    const messy = valid.replace('  pool "runs/bm25.trec" depth 20', 'pool    "runs/bm25.trec"   depth 20');
    server.change(uri, 2, [{ text: messy }]);
    await server.nextDiagnostics(uri);
    const edits = await server.request<TextEdit[]>('textDocument/formatting', {
      textDocument: { uri },
      options: { tabSize: 2, insertSpaces: true },
    });
    assert.equal(edits.length, 1);
    assert.match(edits[0]!.newText, /\n {2}pool "runs\/bm25.trec" depth 20\n/);

    const tokens = await server.request<SemanticTokens>('textDocument/semanticTokens/full', { textDocument: { uri } });
    assert.equal(tokens.data.length % 5, 0);
    assert.ok(tokens.data.length > 50);
    // The first token is `study`, a keyword (type index 0) at 0:0, five characters long.
    assert.deepEqual(tokens.data.slice(0, 5), [0, 0, 5, 0, 0]);
  });
});

/** The quick fixes the server offers for the diagnostic with `code`, as [title, the text each edit puts in]. */
async function quickFixes(server: LanguageServerProcess, uri: string, diagnostic: Diagnostic | undefined) {
  assert.ok(diagnostic);
  const actions = await server.request<CodeAction[]>('textDocument/codeAction', {
    textDocument: { uri },
    range: diagnostic.range,
    context: { diagnostics: [diagnostic] },
  });
  return actions.map((a) => [a.title, ...(a.edit?.changes?.[uri] ?? []).map((e) => e.newText)]);
}

test('a misspelt keyword on the line after a name list: did you mean, and a quick fix for it', async () => {
  await withStudy(async (server, _root, uri) => {
    const text = valid.replace('  annotators alice bob\n', '  annotators alice bob\n  carol\n  blnd\n');
    server.open(uri, 'assess', 1, text);
    const { diagnostics } = await server.nextDiagnostics(uri);
    assert.deepEqual(diagnostics.map(brief), ['13:2-13:7 unknown-keyword', '14:2-14:6 unknown-keyword']);
    // `carol` is no keyword at all: the statement above would have taken it, so the fix continues that line.
    assert.deepEqual(await quickFixes(server, uri, diagnostics[0]), [
      ['Continue the line above with `\\` (make `carol` part of the statement before)', ' \\'],
    ]);
    assert.match(String(diagnostics[1]!.message), /did you mean `blind`\?$/);
    assert.deepEqual(await quickFixes(server, uri, diagnostics[1]), [['Replace `blnd` with `blind`', 'blind']]);
  });
});

test('an unknown field far from every field of the data file: a quick fix with the nearest field', async () => {
  await withStudy(async (server, _root, uri) => {
    server.open(uri, 'assess', 1, valid.replace('text: query', 'text: question'));
    const { diagnostics } = await server.nextDiagnostics(uri);
    assert.deepEqual(diagnostics.map(brief), ['2:48-2:56 unknown-field']);
    assert.match(String(diagnostics[0]!.message), /its fields: qid, query, instruction\); the nearest: 'query'$/);
    assert.deepEqual(await quickFixes(server, uri, diagnostics[0]), [["Use field 'query'", 'query']]);
  });
});
