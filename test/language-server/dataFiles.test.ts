// Data files in a workspace with a study file, over real LSP: the study's queries, corpus and scale reach the qrels
// lint (unknown ids, labels off the scale), hover shows a query's text and instruction and a document's title,
// completion offers the study's ids, and code actions fix what has one obvious fix.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import type { CodeAction, CompletionList, Diagnostic, Hover } from 'vscode-languageserver';
import { scratchDir } from '../helpers.ts';
import { startLanguageServer } from './languageServerProcess.ts';

function studyWorkspace(): string {
  const root = scratchDir();
  mkdirSync(join(root, 'data'));
  writeFileSync(
    join(root, 'wqt.assess'),
    `study "wqt-dev" {
  queries "data/queries.jsonl" { id: qid  text: query  instruction: instruction }
  corpus  "data/tables.jsonl"  { id: table_id  body: table  title: caption }
  scale ordinal {
    0 "Off-topic" key "0"
    1 "Violates"  key "1"
    2 "Complies"  key "2"
  }
}
`,
  );
  writeFileSync(
    join(root, 'data', 'queries.jsonl'),
    '{"qid": "q1", "query": "olympic medal tables", "instruction": "only tables after 2000"}\n' +
      '{"qid": "q2", "query": "river lengths", "instruction": "in kilometres"}\n',
  );
  writeFileSync(
    join(root, 'data', 'tables.jsonl'),
    '{"table_id": "t1", "caption": "Medals 2004", "table": "| country | gold |\\n| GB | 9 |"}\n' +
      '{"table_id": "t2", "caption": "Rivers", "table": "| river | km |"}\n' +
      '{"table_id": "t3", "caption": "Medals 1996", "table": "| country | gold |"}\n',
  );
  return root;
}

function brief(d: Diagnostic): string {
  return `${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character} ${d.code}`;
}

test('a qrels file under a study is checked against its queries, corpus and scale; hover and completion use them', async () => {
  const root = studyWorkspace();
  const server = await startLanguageServer({ workspaceFolder: root });
  try {
    const uri = pathToFileURL(join(root, 'qrels.txt')).href;
    const text = 'q1 0 t1 2\nq1 0 t9 1\nq7 0 t2 0\nq2 0 t2 3\n';
    server.open(uri, 'qrels', 1, text);
    // The first lint may come before the indexes are loaded; the server lints again when they are.
    const published = await server.diagnosticsWhere(uri, (p) =>
      p.diagnostics.some((d) => d.code === 'unknown-document'),
    );
    assert.deepEqual(published.diagnostics.map(brief), [
      '1:5-1:7 unknown-document',
      '2:0-2:2 no-relevant-document',
      '2:0-2:2 unknown-query',
      '3:8-3:9 label-outside-scale',
    ]);
    assert.equal(published.diagnostics[3]!.message, "label '3' is not on the scale of study 'wqt-dev' (0, 1, 2)");

    const hoverQuery = await server.request<Hover>('textDocument/hover', {
      textDocument: { uri },
      position: { line: 0, character: 1 },
    });
    assert.deepEqual(hoverQuery.range, { start: { line: 0, character: 0 }, end: { line: 0, character: 2 } });
    const query = (hoverQuery.contents as { value: string }).value;
    assert.match(query, /Query q1/);
    assert.match(query, /olympic medal tables/);
    assert.match(query, /\*Instruction:\* only tables after 2000/);

    const hoverDocument = await server.request<Hover>('textDocument/hover', {
      textDocument: { uri },
      position: { line: 0, character: 6 },
    });
    const table = (hoverDocument.contents as { value: string }).value;
    assert.match(table, /Document t1\*\* — Medals 2004/);
    assert.match(table, /\\\| country \\\| gold \\\|/, 'document text is escaped Markdown, not rendered');

    // Completion of docids after "q2 0 t".
    server.change(uri, 2, [
      { range: { start: { line: 4, character: 0 }, end: { line: 4, character: 0 } }, text: 'q2 0 t' },
    ]);
    const completions = await server.request<CompletionList>('textDocument/completion', {
      textDocument: { uri },
      position: { line: 4, character: 6 },
    });
    assert.deepEqual(
      completions.items.map((c) => c.label),
      ['t1', 't2', 't3'],
    );
    assert.equal(completions.isIncomplete, false);
    const queries = await server.request<CompletionList>('textDocument/completion', {
      textDocument: { uri },
      position: { line: 4, character: 1 },
    });
    assert.deepEqual(
      queries.items.map((c) => c.label),
      ['q1', 'q2'],
    );
  } finally {
    await server.kill();
  }
});

test('code actions: remove an exact duplicate, add the final newline, normalise separators', async () => {
  const server = await startLanguageServer();
  try {
    const uri = 'file:///work/dup.qrels';
    const text = 'q1 0 d1 1\nq1\t0  d2 0\nq1 0 d1 1';
    server.open(uri, 'qrels', 1, text);
    const { diagnostics } = await server.nextDiagnostics(uri);
    assert.deepEqual(diagnostics.map(brief), ['2:5-2:7 duplicate-pair', '2:9-2:9 missing-final-newline']);
    const actions = await server.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: { start: { line: 1, character: 0 }, end: { line: 1, character: 0 } },
      context: { diagnostics },
    });
    const byTitle = new Map(actions.map((a) => [a.title, a.edit?.changes?.[uri]]));
    assert.deepEqual(byTitle.get('Remove line 3: an exact duplicate of line 1'), [
      { range: { start: { line: 2, character: 0 }, end: { line: 2, character: 9 } }, newText: '' },
    ]);
    assert.deepEqual(byTitle.get('Add a newline at the end of the file'), [
      { range: { start: { line: 2, character: 9 }, end: { line: 2, character: 9 } }, newText: '\n' },
    ]);
    assert.deepEqual(byTitle.get('Normalise separators: one space between fields, none at the ends'), [
      { range: { start: { line: 1, character: 0 }, end: { line: 1, character: 10 } }, newText: 'q1 0 d2 0' },
    ]);
  } finally {
    await server.kill();
  }
});

test('a file the editor does not hand over (over 50 MB) is linted from disk when the client names it', async () => {
  const root = scratchDir();
  const path = join(root, 'big.qrels');
  // Small here: the path is the same whatever the size. An astral character before a problem: UTF-16 columns.
  writeFileSync(path, 'q1 0 d1 1\n𝒬 0 d2 x\nq1 0 d1 0\n');
  const server = await startLanguageServer({ workspaceFolder: root });
  try {
    const uri = pathToFileURL(path).href;
    await server.connection.sendNotification('qrelsStudio/lintFileOnDisk', { uri });
    const { diagnostics } = await server.nextDiagnostics(uri);
    assert.deepEqual(diagnostics.map(brief), ['1:8-1:9 non-integer-label', '2:5-2:7 duplicate-pair']);
    // Saved again with the problems fixed: the client names it again.
    writeFileSync(path, 'q1 0 d1 1\n𝒬 0 d2 0\n');
    await server.connection.sendNotification('qrelsStudio/lintFileOnDisk', { uri });
    assert.deepEqual((await server.nextDiagnostics(uri)).diagnostics.map(brief), ['1:0-1:2 no-relevant-document']);
  } finally {
    await server.kill();
  }
});

test("a run of a study is checked against the study's qrels: queries it does not rank", async () => {
  const root = studyWorkspace();
  writeFileSync(
    join(root, 'wqt.assess'),
    `study "wqt-dev" {
  queries "data/queries.jsonl" { id: qid  text: query }
  corpus  "data/tables.jsonl"  { id: table_id  body: table }
  scale binary { 0 "No" key "0"  1 "Yes" key "1" }
  export qrels "judged.qrels" from adjudicated
}
`,
  );
  writeFileSync(join(root, 'judged.qrels'), 'q1 0 t1 1\nq2 0 t2 1\n');
  const server = await startLanguageServer({ workspaceFolder: root });
  try {
    const uri = pathToFileURL(join(root, 'bm25.run')).href;
    server.open(uri, 'trec-run', 1, 'q1 Q0 t1 1 2.5 bm25\nq1 Q0 t2 2 1.5 bm25\n');
    const published = await server.diagnosticsWhere(uri, (p) =>
      p.diagnostics.some((d) => d.code === 'query-missing-from-run'),
    );
    const missing = published.diagnostics.find((d) => d.code === 'query-missing-from-run')!;
    assert.equal(brief(missing), '0:0-0:2 query-missing-from-run');
    assert.equal(
      missing.message,
      "1 query of judged.qrels has no ranking in this run: 'q2'; trec_eval 10 stops with an error unless run with -c",
    );
  } finally {
    await server.kill();
  }
});

test("a study's queries file is linted as records with the study's field mapping", async () => {
  const root = studyWorkspace();
  const server = await startLanguageServer({ workspaceFolder: root });
  try {
    const uri = pathToFileURL(join(root, 'data', 'queries.jsonl')).href;
    // Line 2 lacks the mapped `instruction` field; line 3 repeats q1; line 4 is broken JSON.
    const text =
      '{"qid": "q1", "query": "a", "instruction": "b"}\n{"qid": "q2", "query": "c"}\n' +
      '{"qid": "q1", "query": "d", "instruction": "e"}\n{"qid": "q3" "query": "f"}\n';
    server.open(uri, 'jsonl', 1, text);
    const published = await server.diagnosticsWhere(uri, (p) => p.diagnostics.length > 0);
    assert.deepEqual(published.diagnostics.map(brief), [
      '1:0-1:27 missing-field',
      '2:8-2:12 duplicate-id',
      '3:13-3:20 invalid-json',
    ]);
    assert.match(String(published.diagnostics[0]!.message), /instruction/);
  } finally {
    await server.kill();
  }
});

test('whole-file fixes are resolved when picked; requests for other kinds get none; edits past the end are clamped', async () => {
  const server = await startLanguageServer({ resolveCodeActionEdits: true });
  try {
    const uri = 'file:///work/spaced.qrels';
    server.open(uri, 'qrels', 1, 'q1\t0  d1 1 \nq1 0 d2 0\n');
    const { diagnostics } = await server.nextDiagnostics(uri);
    const actions = await server.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      context: { diagnostics },
    });
    const normalise = actions.find((a) => a.title.startsWith('Normalise separators'))!;
    assert.equal(normalise.edit, undefined, 'a whole-file rewrite is not computed until it is picked');
    const resolved = await server.request<CodeAction>('codeAction/resolve', normalise);
    assert.deepEqual(resolved.edit?.changes?.[uri], [
      { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 11 } }, newText: 'q1 0 d1 1' },
    ]);
    const sourceOnly = await server.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      context: { diagnostics, only: ['source'] },
    });
    assert.deepEqual(sourceOnly, []);

    // A client may send a range past the last line: the text document clamps it, and so must the lint.
    server.change(uri, 2, [
      { range: { start: { line: 5, character: 0 }, end: { line: 5, character: 0 } }, text: 'q2 0 d3 1\n' },
    ]);
    const changed = await server.nextDiagnostics(uri);
    assert.deepEqual(
      changed.diagnostics.map(brief),
      ['0:10-0:11 trailing-whitespace'],
      'the appended line is linted where it really is',
    );
  } finally {
    await server.kill();
  }
});

test('from disk, with over 1,000 problems, the published ones (errors first) keep their exact positions', async () => {
  const root = scratchDir();
  const path = join(root, 'many.qrels');
  let text = '';
  for (let q = 0; q < 1200; q++) text += `q${q} 0 d1 0\n`; // 1,200 queries with no relevant document: hints
  text += 'q7 0 d1 1\n'; // line 1201: a duplicate judgment, an error
  writeFileSync(path, text);
  const server = await startLanguageServer({ workspaceFolder: root });
  try {
    const uri = pathToFileURL(path).href;
    await server.connection.sendNotification('qrelsStudio/lintFileOnDisk', { uri });
    const { diagnostics } = await server.nextDiagnostics(uri);
    assert.equal(diagnostics.length, 1001);
    assert.equal(brief(diagnostics[0]!), '1200:5-1200:7 duplicate-pair');
    assert.match(String(diagnostics[1000]!.message), /^200 more problems \(0 errors\) not shown/);
    // Closed in the editor: its diagnostics go.
    await server.connection.sendNotification('qrelsStudio/lintFileOnDisk', { uri, closed: true });
    assert.deepEqual((await server.nextDiagnostics(uri)).diagnostics, []);
  } finally {
    await server.kill();
  }
});
