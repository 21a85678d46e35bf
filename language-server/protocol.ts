// What the extension (the language client) and the language server both compile against, in one place (as
// vscode-eslint's `$shared/customMessages.ts` and rust-analyzer's `lsp_ext.ts`). Only a type import from
// vscode-jsonrpc: the extension bundle takes this file without pulling in any of the server.
import { NotificationType, RequestType0 } from 'vscode-jsonrpc';

/**
 * The editor languages of the data files the server lints (package.json `contributes.languages`), each with the
 * lint type it stands for when the content alone does not tell.
 */
export const dataLanguages = {
  qrels: 'qrels',
  'trec-run': 'run',
  // ndeval's `topic subtopic docno grade`: only the language tells it from TREC qrels (see core/lint/fileFormats.ts).
  'diversity-qrels': 'diversity-qrels',
} as const;

export type DataLanguageId = keyof typeof dataLanguages;

export const dataLanguageIds = Object.keys(dataLanguages) as DataLanguageId[];

/** The study file language. */
export const studyLanguageId = 'assess';

/** Record files (queries, corpora, generated items) the server lints too: by language id, or by file name. */
export const recordLanguageIds = ['jsonl', 'csv', 'tsv'] as const;
export const recordFilePatterns = ['**/*.jsonl', '**/*.csv', '**/*.tsv'] as const;

export interface LintFileOnDiskParams {
  /** A file: URI. */
  uri: string;
  /** The file's editor was closed: clear its diagnostics instead. */
  closed?: boolean;
}

/**
 * Client → server: lint this file from disk and publish its diagnostics (again when its study changes), or, with
 * `closed`, clear them. Sent for files the editor shows but does not hand to extensions (over 50 MB), when they
 * are opened, changed on disk and closed. Plain notification: any client may send it.
 */
export const lintFileOnDisk = new NotificationType<LintFileOnDiskParams>('qrelsStudio/lintFileOnDisk');

export interface ServerMemory {
  /** The server process's peak resident set size so far. */
  peakRssBytes: number;
  rssBytes: number;
}

/** Client → server: how much memory the server uses (the bench reads it; a status view may). */
export const serverMemory = new RequestType0<ServerMemory, void>('qrelsStudio/serverMemory');
