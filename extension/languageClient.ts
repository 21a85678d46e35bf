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

/**
 * Starts the language server now if a served document is open, otherwise when the first one opens — or when a tab
 * shows a data file too large to be synced (no document ever opens for it), or the workspace has a study file.
 */
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
  const startForLargeFile = async (uris: readonly vscode.Uri[]): Promise<void> => {
    for (const uri of uris) if (await isLargeFile(uri)) startLanguageClient(context);
  };
  void startForLargeFile(openTabUris());
  const tabs = vscode.window.tabGroups.onDidChangeTabs((event) => {
    if (client !== undefined) tabs.dispose();
    else void startForLargeFile(event.opened.flatMap(tabUri));
  });
  context.subscriptions.push(tabs);
  void vscode.workspace.findFiles('**/*.assess', '**/node_modules/**', 1).then((found) => {
    if (found.length > 0) startLanguageClient(context);
  });
}

function tabUri(tab: vscode.Tab): vscode.Uri[] {
  return tab.input instanceof vscode.TabInputText ? [tab.input.uri] : [];
}

function openTabUris(): vscode.Uri[] {
  return vscode.window.tabGroups.all.flatMap((group) => group.tabs.flatMap(tabUri));
}

/** Names of the data files the server lints (qrels, runs, record files; also gzipped). */
const dataFileName = /(\.(qrels|run|trec|res|txt|tsv|csv|jsonl|ndjson)(\.gz)?$|qrels)/i;

/** A data file on disk over the sync limit that no open document holds. */
async function isLargeFile(uri: vscode.Uri): Promise<boolean> {
  if (uri.scheme !== 'file' || !dataFileName.test(uri.path)) return false;
  if (vscode.workspace.textDocuments.some((document) => document.uri.toString() === uri.toString())) return false;
  try {
    return (await stat(uri.fsPath)).size > syncLimitBytes;
  } catch {
    return false;
  }
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
    if (!(await isLargeFile(uri))) return;
    linted.add(uri.toString());
    await started.sendNotification(lintFileOnDisk, { uri: uri.toString() });
  };
  for (const uri of openTabUris()) void lintIfLarge(uri);
  context.subscriptions.push(
    vscode.window.tabGroups.onDidChangeTabs((event) => {
      for (const uri of event.opened.flatMap(tabUri)) void lintIfLarge(uri);
      // Closed in its last tab: its diagnostics go (no document close tells the server).
      const open = new Set(openTabUris().map((uri) => uri.toString()));
      for (const uri of event.closed.flatMap(tabUri)) {
        const key = uri.toString();
        if (!linted.has(key) || open.has(key)) continue;
        linted.delete(key);
        void started.sendNotification(lintFileOnDisk, { uri: key, closed: true });
      }
    }),
  );
  const watcher = vscode.workspace.createFileSystemWatcher('**/*');
  context.subscriptions.push(
    watcher,
    watcher.onDidChange((uri) => {
      if (linted.has(uri.toString()) && openTabUris().some((open) => open.toString() === uri.toString())) {
        void lintIfLarge(uri);
      }
    }),
    watcher.onDidDelete((uri) => {
      if (!linted.delete(uri.toString())) return;
      void started.sendNotification(lintFileOnDisk, { uri: uri.toString(), closed: true });
    }),
  );
}

/** Stops the language server (if it was started); resolves once it has exited or been killed. */
export async function stopLanguageClient(): Promise<void> {
  const stopping = client;
  client = undefined;
  await stopping?.stop();
}
