// The language server's part of `npm run bench`: the real server process (dist/server.cjs --stdio) spoken to over
// LSP, as an editor would. It opens the 1M-line qrels file as a document and times didOpen → first
// publishDiagnostics, then one-line edits (didChange, incremental) → the next publishDiagnostics. Each is printed
// as a ratio to a plain parse of the same text in this process (split into lines, then into fields): what any
// tool reading the file at all must do.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import type { PublishDiagnosticsParams } from 'vscode-languageserver';

export interface LanguageServerBench {
  plainParseSeconds: number;
  openSeconds: number;
  editSeconds: number[];
  peakMiB: number;
}

/** Splits `text` into lines and each line into whitespace-separated fields, as the simplest reader would. */
function plainParse(text: string): number {
  let fields = 0;
  for (const line of text.split('\n')) fields += line.split(/\s+/).length;
  return fields;
}

export async function benchLanguageServer(
  root: string,
  qrelsFile: string,
  edits: number,
): Promise<LanguageServerBench> {
  const text = readFileSync(qrelsFile, 'utf8');
  const parses: number[] = [];
  for (let i = 0; i < 3; i++) {
    const start = performance.now();
    plainParse(text);
    parses.push((performance.now() - start) / 1000);
  }
  parses.sort((a, b) => a - b);

  const child = spawn(process.execPath, [join(root, 'dist', 'server.cjs'), '--stdio'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const connection = createMessageConnection(
    new StreamMessageReader(child.stdout),
    new StreamMessageWriter(child.stdin),
  );
  let waiting: ((params: PublishDiagnosticsParams) => void) | undefined;
  connection.onNotification('textDocument/publishDiagnostics', (params: PublishDiagnosticsParams) => waiting?.(params));
  const next = (version: number) =>
    new Promise<PublishDiagnosticsParams>((resolve) => {
      waiting = (params) => {
        if (params.version === version) resolve(params);
      };
    });
  connection.listen();
  await connection.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: {} });
  connection.sendNotification('initialized', {});

  const uri = 'file:///bench/qrels-10k-x-100.txt';
  let start = performance.now();
  const opened = next(1);
  connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'qrels', version: 1, text } });
  const first = await opened;
  const openSeconds = (performance.now() - start) / 1000;
  if (first.diagnostics.length !== 0) throw new Error(`the bench qrels file has ${first.diagnostics.length} problems`);

  const editSeconds: number[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < edits; i++) {
    // Change the label of a line in the middle (alternating, so each edit changes something).
    const line = 500_000 + i * 997;
    const current = lines[line]!;
    const labelAt = current.lastIndexOf(' ') + 1;
    const label = current.slice(labelAt) === '1' ? '2' : '1';
    const version = i + 2;
    start = performance.now();
    const published = next(version);
    connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version },
      contentChanges: [
        {
          range: { start: { line, character: labelAt }, end: { line, character: current.length } },
          text: label,
        },
      ],
    });
    await published;
    editSeconds.push((performance.now() - start) / 1000);
    lines[line] = current.slice(0, labelAt) + label;
  }
  const memory = (await connection.sendRequest('qrelsStudio/serverMemory')) as { peakRssBytes: number };
  await connection.sendRequest('shutdown');
  connection.sendNotification('exit');
  await new Promise((resolve) => child.once('exit', resolve));
  connection.dispose();
  return {
    plainParseSeconds: parses[1]!,
    openSeconds,
    editSeconds,
    peakMiB: memory.peakRssBytes / 1024 / 1024,
  };
}
