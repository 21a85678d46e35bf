// The language client: starts the bundled language server (dist/server.cjs, a Node process spoken to over IPC) and
// connects it to study files, qrels and run documents and record files (JSONL/CSV/TSV), saved or untitled. Thin:
// what the server does is in language-server/. The server starts when the first such document is open (or the
// workspace has a study file), not at activation, and stops when the extension deactivates.
//
// Files over 50 MB: VS Code shows them but never hands them to extensions, so the server cannot get them through
// didOpen. The client watches the editor tabs and the file system for such files and names them to the server
// (`qrelsStudio/lintFileOnDisk`), which lints them from disk.
import { stat } from 'node:fs/promises';
import * as vscode from 'vscode';
import {
  LanguageClient,
  type LanguageClientOptions,
  type ServerOptions,
  TransportKind,
} from 'vscode-languageclient/node';
import {
  dataLanguageIds,
  lintFileOnDisk,
  recordFilePatterns,
  recordLanguageIds,
  studyLanguageId,
} from '../language-server/protocol.ts';

const outputChannelName = 'Qrels Studio Language Server';
/** VS Code's limit: larger documents are not synced to extensions. */
const syncLimitBytes = 50 * 1024 * 1024;

let client: LanguageClient | undefined;

const languages: readonly string[] = [...dataLanguageIds, studyLanguageId, ...recordLanguageIds];

function isServedDocument(document: vscode.TextDocument): boolean {
  return languages.includes(document.languageId) || /\.(assess|jsonl|csv|tsv)$/.test(document.uri.path);
}

/** Starts the language server now if a served document is open, otherwise when the first one opens. */
export function startLanguageClientWhenNeeded(context: vscode.ExtensionContext): void {
  if (vscode.workspace.textDocuments.some(isServedDocument)) {
    startLanguageClient(context);
    return;
  }
  const listener = vscode.workspace.onDidOpenTextDocument((document) => {
    if (!isServedDocument(document)) return;
    listener.dispose();
    startLanguageClient(context);
  });
  context.subscriptions.push(listener);
  void vscode.workspace.findFiles('**/*.assess', '**/node_modules/**', 1).then((found) => {
    if (found.length > 0) startLanguageClient(context);
  });
}

function startLanguageClient(context: vscode.ExtensionContext): void {
  if (client !== undefined) return;
  const module = vscode.Uri.joinPath(context.extensionUri, 'dist', 'server.cjs').fsPath;
  const serverOptions: ServerOptions = { module, transport: TransportKind.ipc };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      ...languages.flatMap((language) => [
        { scheme: 'file', language },
        { scheme: 'untitled', language },
      ]),
      ...recordFilePatterns.map((pattern) => ({ scheme: 'file', pattern })),
      { scheme: 'file', pattern: '**/*.assess' },
    ],
    // Study files and the data they read, changed outside the editor: the server re-reads the studies.
    synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher('**/*.{assess,jsonl,csv,tsv,gz}') },
  };
  const started = new LanguageClient('qrelsStudio', outputChannelName, serverOptions, clientOptions);
  client = started;
  // The client reports a server that fails to start in its output channel (and a notification); keep the reason.
  started.start().then(
    () => watchLargeFiles(context, started),
    (error: unknown) => {
      started.outputChannel.appendLine(
        `The language server did not start: ${error instanceof Error ? error.message : error}`,
      );
    },
  );
}

/** Names open files too large to be synced (qrels, runs, records) to the server, on open and on change. */
function watchLargeFiles(context: vscode.ExtensionContext, started: LanguageClient): void {
  const linted = new Set<string>();
  const lintIfLarge = async (uri: vscode.Uri): Promise<void> => {
    if (uri.scheme !== 'file') return;
    if (vscode.workspace.textDocuments.some((document) => document.uri.toString() === uri.toString())) return;
    try {
      if ((await stat(uri.fsPath)).size <= syncLimitBytes) return;
    } catch {
      return;
    }
    linted.add(uri.toString());
    await started.sendNotification(lintFileOnDisk, { uri: uri.toString() });
  };
  const openTabs = (): vscode.Uri[] =>
    vscode.window.tabGroups.all.flatMap((group) =>
      group.tabs.flatMap((tab) => (tab.input instanceof vscode.TabInputText ? [tab.input.uri] : [])),
    );
  for (const uri of openTabs()) void lintIfLarge(uri);
  context.subscriptions.push(
    vscode.window.tabGroups.onDidChangeTabs((event) => {
      for (const tab of event.opened) if (tab.input instanceof vscode.TabInputText) void lintIfLarge(tab.input.uri);
    }),
  );
  const watcher = vscode.workspace.createFileSystemWatcher('**/*');
  context.subscriptions.push(
    watcher,
    watcher.onDidChange((uri) => {
      if (linted.has(uri.toString()) && openTabs().some((open) => open.toString() === uri.toString())) {
        void lintIfLarge(uri);
      }
    }),
  );
}

/** Stops the language server (if it was started); resolves once it has exited or been killed. */
export async function stopLanguageClient(): Promise<void> {
  const stopping = client;
  client = undefined;
  await stopping?.stop();
}
