// The Qrels Studio language server: a separate Node process (bundled as dist/server.cjs, shipped to other editors
// as `qrels-studio-lsp --stdio`) that speaks LSP over stdio (`--stdio`) or Node IPC (`--node-ipc`, how the
// extension starts it). It pushes diagnostics (textDocument/publishDiagnostics: no pull diagnostics, no dynamic
// registration, so any LSP client works) for study files (*.assess) and data files (qrels, runs, BEIR qrels), and
// serves hover, completion, go-to-definition, symbols, formatting, semantic tokens and code actions for them.
// Documents are linted when they open, change (debounced per document) and are saved; closing clears them.
import {
  type CodeAction,
  CodeActionKind,
  type CompletionItem,
  type CompletionList,
  createConnection,
  type Definition,
  type Hover,
  type InitializeParams,
  type InitializeResult,
  ProposedFeatures,
  TextDocumentSyncKind,
} from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { DataFeatures } from './dataFeatures.ts';
import { DataLinting } from './dataLinting.ts';
import { toLspDiagnostics } from './diagnostics.ts';
import { DiskLinting } from './diskLinting.ts';
import { createDocumentStore } from './documentStore.ts';
import { LintScheduler } from './lintScheduler.ts';
import { lintFileOnDisk, serverMemory } from './protocol.ts';
import { isStudyDocument, StudyFeatures, semanticTokenTypes } from './studyFeatures.ts';
import { StudyWorkspace } from './studyWorkspace.ts';

declare const QRELS_STUDIO_VERSION: string;

/**
 * How long a change waits for the next one before the document is linted. Short: an edit of a large file
 * re-checks only the queries it touched (IncrementalLint), so a lint after each pause in typing is cheap.
 */
const changeDelayMs = 30;

const connection = createConnection(ProposedFeatures.all);
const workspace = new StudyWorkspace((message) => connection.console.log(message));
const dataLinting = new DataLinting((uri) => workspace.studyContextFor(uri));
const documents = createDocumentStore((uri, change) => dataLinting.changed(uri, change));
const studies = new StudyFeatures();
const dataFeatures = new DataFeatures(workspace, dataLinting);
const diskLinting = new DiskLinting(
  workspace,
  (params) => void connection.sendDiagnostics(params),
  (message) => connection.console.error(message),
);
/** Documents whose diagnostics were published and not cleared since. */
const published = new Set<string>();
const scheduler = new LintScheduler((uri) => void lint(uri), changeDelayMs);
// A queries or corpus index finished loading: documents checked without it are checked again.
workspace.onIndexLoaded = () => {
  dataLinting.studiesChanged();
  diskLinting.studiesChanged();
  for (const document of documents.all()) if (!isStudyDocument(document)) scheduler.schedule(document.uri);
};

connection.onInitialize((params: InitializeParams): InitializeResult => {
  const folders = params.workspaceFolders?.map((folder) => folder.uri) ?? (params.rootUri ? [params.rootUri] : []);
  workspace.setFolders(folders);
  dataFeatures.resolvesEdits =
    params.capabilities.textDocument?.codeAction?.resolveSupport?.properties.includes('edit') ?? false;
  return {
    capabilities: {
      positionEncoding: 'utf-16',
      textDocumentSync: {
        openClose: true,
        change: TextDocumentSyncKind.Incremental,
        save: { includeText: false },
      },
      hoverProvider: true,
      completionProvider: { triggerCharacters: [' ', '"', '/', ':', '\t'] },
      definitionProvider: true,
      documentSymbolProvider: true,
      documentFormattingProvider: true,
      codeActionProvider: { codeActionKinds: ['quickfix'], resolveProvider: true },
      semanticTokensProvider: { legend: { tokenTypes: [...semanticTokenTypes], tokenModifiers: [] }, full: true },
    },
    serverInfo: { name: 'qrels-studio', version: QRELS_STUDIO_VERSION },
  };
});

connection.onInitialized(() => {
  void workspace.scan().then(() => {
    dataLinting.studiesChanged();
    for (const document of documents.all()) scheduler.schedule(document.uri);
  });
});

// Fired on open and on every change.
documents.onDidChangeContent(({ document }) => {
  if (isStudyDocument(document)) workspace.studyEdited(document.uri, document.getText());
  scheduler.schedule(document.uri);
});
documents.onDidSave(({ document }) => {
  scheduler.runNow(document.uri);
  // A saved data file may be a study's queries, corpus or qrels: studies read it again.
  if (workspace.dataFileSaved(document.uri)) refreshAfterStudyChange();
});
documents.onDidClose(({ document }) => {
  scheduler.cancel(document.uri);
  dataLinting.closed(document.uri);
  dataFeatures.closed(document.uri);
  studies.closed(document.uri);
  if (isStudyDocument(document)) workspace.studyClosed(document.uri);
  published.delete(document.uri);
  void connection.sendDiagnostics({ uri: document.uri, diagnostics: [] });
});
// Files over 50 MB never arrive through didOpen (VS Code does not hand them to extensions): the client names them.
connection.onNotification(lintFileOnDisk, (params) => {
  if (params.closed) diskLinting.closed(params.uri);
  else void diskLinting.lint(params.uri);
});
connection.onRequest(serverMemory, () => ({
  peakRssBytes: process.resourceUsage().maxRSS * 1024,
  rssBytes: process.memoryUsage.rss(),
}));
// Study files and data files changed outside the editor (the client watches them): indexes of changed files are
// dropped, the studies read again.
connection.onDidChangeWatchedFiles(({ changes }) => {
  for (const change of changes) workspace.dataFileSaved(change.uri);
  refreshAfterStudyChange();
});

function refreshAfterStudyChange(): void {
  void workspace.scan().then(() => {
    dataLinting.studiesChanged();
    diskLinting.studiesChanged();
    for (const document of documents.all()) scheduler.schedule(document.uri);
  });
}

connection.onHover(async (params): Promise<Hover | null> => {
  const document = documents.get(params.textDocument.uri);
  if (document === undefined) return null;
  return isStudyDocument(document)
    ? studies.hover(document, params.position)
    : dataFeatures.hover(document, params.position);
});
connection.onCompletion(async (params): Promise<CompletionItem[] | CompletionList> => {
  const document = documents.get(params.textDocument.uri);
  if (document === undefined) return [];
  return isStudyDocument(document)
    ? studies.completion(document, params.position)
    : dataFeatures.completion(document, params.position);
});
connection.onDefinition((params): Definition | null => {
  const document = documents.get(params.textDocument.uri);
  return document !== undefined && isStudyDocument(document) ? studies.definition(document, params.position) : null;
});
connection.onDocumentSymbol((params) => {
  const document = documents.get(params.textDocument.uri);
  return document !== undefined && isStudyDocument(document) ? studies.symbols(document) : [];
});
connection.onDocumentFormatting((params) => {
  const document = documents.get(params.textDocument.uri);
  return document !== undefined && isStudyDocument(document) ? studies.format(document) : [];
});
connection.languages.semanticTokens.on((params) => {
  const document = documents.get(params.textDocument.uri);
  return document !== undefined && isStudyDocument(document) ? studies.semanticTokens(document) : { data: [] };
});
connection.onCodeAction((params): CodeAction[] => {
  const document = documents.get(params.textDocument.uri);
  // Every action here is a quick fix: a request for other kinds only (source actions, refactorings) gets none.
  const only = params.context.only;
  if (document === undefined || (only && !only.some((kind) => CodeActionKind.QuickFix.startsWith(kind)))) return [];
  return isStudyDocument(document)
    ? studies.codeActions(document, params.context.diagnostics)
    : dataFeatures.codeActions(document, params.range, params.context);
});
connection.onCodeActionResolve((action) => {
  const uri = (action.data as { uri?: string } | undefined)?.uri;
  return dataFeatures.resolveCodeAction(action, uri === undefined ? undefined : documents.get(uri));
});

connection.onShutdown(() => scheduler.dispose());

/** Lints the open document `uri` and publishes its diagnostics (or clears them when it is not ours to lint). */
async function lint(uri: string): Promise<void> {
  const document = documents.get(uri);
  if (document === undefined) return;
  const version = document.version;
  try {
    const diagnostics = isStudyDocument(document) ? await studies.diagnostics(document) : lintData(document);
    // A newer version may have arrived while a study's files were being read: its own lint publishes.
    if (documents.get(uri)?.version !== version) return;
    if (diagnostics === undefined) {
      if (published.delete(uri)) void connection.sendDiagnostics({ uri, diagnostics: [] });
      return;
    }
    published.add(uri);
    void connection.sendDiagnostics({ uri, version, diagnostics });
  } catch (error) {
    connection.console.error(`linting ${uri} failed: ${error instanceof Error ? error.stack : String(error)}`);
  }
}

function lintData(document: TextDocument) {
  const result = dataFeatures.lint(document);
  return result === undefined ? undefined : toLspDiagnostics(document, result);
}

documents.listen(connection);
connection.listen();
