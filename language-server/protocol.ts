// What the extension (the language client) and the language server both compile against, in one place (as
// vscode-eslint's `$shared/customMessages.ts` and rust-analyzer's `lsp_ext.ts`). No imports: the extension bundle
// takes this file without pulling in any of the server.
//
// No custom LSP request or notification yet: the server speaks standard LSP only (text document sync,
// publishDiagnostics). A custom one is declared here, typed, when a feature needs it.

/**
 * The editor languages of the data files the server lints (package.json `contributes.languages`), each with the
 * lint type it stands for when the content alone does not tell. The client's document selector is these ids.
 */
export const dataLanguages = {
  qrels: 'qrels',
  'trec-run': 'run',
} as const;

export type DataLanguageId = keyof typeof dataLanguages;

export const dataLanguageIds = Object.keys(dataLanguages) as DataLanguageId[];
