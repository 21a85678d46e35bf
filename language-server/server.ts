// The Qrels Studio language server: a separate Node process (bundled as dist/server.cjs) that speaks LSP over stdio
// (`--stdio`) or Node IPC (`--node-ipc`, how the extension starts it). It serves core/lint's format rules to
// editors: qrels and run documents are linted when they open, change (debounced per document) and are saved, and
// their problems published as diagnostics; closing a document clears them.
import {
  createConnection,
  type InitializeResult,
  ProposedFeatures,
  TextDocumentSyncKind,
  TextDocuments,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { toLspDiagnostics } from './diagnostics.ts';
import { lintDocument } from './lintDocument.ts';
import { LintScheduler } from './lintScheduler.ts';

declare const QRELS_STUDIO_VERSION: string;

/** How long a change waits for the next one before the document is linted. */
const changeDelayMs = 200;

const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);
/** Documents whose diagnostics were published and not cleared since. */
const published = new Set<string>();
const scheduler = new LintScheduler(lint, changeDelayMs);

connection.onInitialize(
  (): InitializeResult => ({
    capabilities: {
      positionEncoding: 'utf-16',
      textDocumentSync: {
        openClose: true,
        change: TextDocumentSyncKind.Incremental,
        save: { includeText: false },
      },
    },
    serverInfo: { name: 'qrels-studio', version: QRELS_STUDIO_VERSION },
  }),
);

// Fired on open and on every change.
documents.onDidChangeContent(({ document }) => scheduler.schedule(document.uri));
documents.onDidSave(({ document }) => scheduler.runNow(document.uri));
documents.onDidClose(({ document }) => {
  scheduler.cancel(document.uri);
  published.delete(document.uri);
  void connection.sendDiagnostics({ uri: document.uri, diagnostics: [] });
});
// Large files: VS Code does not hand documents over 50 MB to extensions (a 1M-line run is ~55 MB), so such a file
// never arrives here through didOpen/didSave. Linting those from disk on open and save — the client names the file,
// the server runs core/lint's streaming lintFile(path) and publishes for its uri — goes beside these handlers.

connection.onShutdown(() => scheduler.dispose());

/** Lints the open document `uri` and publishes its diagnostics (or clears them when it is not a data file). */
function lint(uri: string): void {
  const document = documents.get(uri);
  if (document === undefined) return;
  try {
    const result = lintDocument(document);
    if (result === undefined) {
      if (published.delete(uri)) void connection.sendDiagnostics({ uri, diagnostics: [] });
      return;
    }
    const diagnostics = toLspDiagnostics(document, result);
    published.add(uri);
    void connection.sendDiagnostics({ uri, version: document.version, diagnostics });
  } catch (error) {
    connection.console.error(`linting ${uri} failed: ${error instanceof Error ? error.stack : String(error)}`);
  }
}

documents.listen(connection);
connection.listen();
