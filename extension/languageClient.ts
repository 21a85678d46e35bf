// The language client: starts the bundled language server (dist/server.cjs, a Node process spoken to over IPC) and
// connects it to qrels and run documents, saved or untitled. Thin: what the server does is in language-server/.
// The server starts when the first such document is open, not at activation (the extension also activates for its
// commands), and stops when the extension deactivates.
import * as vscode from 'vscode';
import {
  LanguageClient,
  type LanguageClientOptions,
  type ServerOptions,
  TransportKind,
} from 'vscode-languageclient/node';
import { dataLanguageIds } from '../language-server/protocol.ts';

const outputChannelName = 'Qrels Studio Language Server';

let client: LanguageClient | undefined;

/** Starts the language server now if a qrels or run document is open, otherwise when the first one opens. */
export function startLanguageClientWhenNeeded(context: vscode.ExtensionContext): void {
  const isDataDocument = (document: vscode.TextDocument): boolean =>
    (dataLanguageIds as readonly string[]).includes(document.languageId);
  if (vscode.workspace.textDocuments.some(isDataDocument)) {
    startLanguageClient(context);
    return;
  }
  const listener = vscode.workspace.onDidOpenTextDocument((document) => {
    if (!isDataDocument(document)) return;
    listener.dispose();
    startLanguageClient(context);
  });
  context.subscriptions.push(listener);
}

function startLanguageClient(context: vscode.ExtensionContext): void {
  if (client !== undefined) return;
  const module = vscode.Uri.joinPath(context.extensionUri, 'dist', 'server.cjs').fsPath;
  const serverOptions: ServerOptions = { module, transport: TransportKind.ipc };
  const clientOptions: LanguageClientOptions = {
    documentSelector: dataLanguageIds.flatMap((language) => [
      { scheme: 'file', language },
      { scheme: 'untitled', language },
    ]),
  };
  const started = new LanguageClient('qrelsStudio', outputChannelName, serverOptions, clientOptions);
  client = started;
  // The client reports a server that fails to start in its output channel (and a notification); keep the reason.
  started.start().catch((error: unknown) => {
    started.outputChannel.appendLine(
      `The language server did not start: ${error instanceof Error ? error.message : error}`,
    );
  });
}

/** Stops the language server (if it was started); resolves once it has exited or been killed. */
export async function stopLanguageClient(): Promise<void> {
  const stopping = client;
  client = undefined;
  await stopping?.stop();
}
