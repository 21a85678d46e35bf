// Editor features of data files: their lint (qrels, runs, BEIR qrels through DataLinting; JSONL/CSV/TSV records
// through core/lint/records), hover on a qid (the query's text and instruction, from the study's queries file) and
// on a docid (the document's title and first lines, from its corpus), completion of qids and docids in qrels, and
// quick fixes: remove an exact duplicate line, normalise separators, add the final newline, drop trailing
// whitespace, convert CRLF to LF.
import type {
  CodeAction,
  CodeActionContext,
  CompletionItem,
  CompletionList,
  Diagnostic,
  Hover,
  Position,
  Range,
  TextEdit,
} from 'vscode-languageserver';
import { CodeActionKind, CompletionItemKind } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { recordFileByName } from '../core/data/recordFormat.ts';
import { fileFormats } from '../core/lint/fileFormats.ts';
import { lintRecordText } from '../core/lint/records/lintRecordText.ts';
import type { LintFileType, LintResult } from '../core/lint/types.ts';
import type { DataLinting } from './dataLinting.ts';
import { isLintFileType } from './dataLinting.ts';
import { lineText } from './documentStore.ts';
import { idFieldOf, type StudySource, type StudyWorkspace, uriToPath } from './studyWorkspace.ts';

/** At most this many ids are offered in one completion list (the editor filters as the user types). */
const maxCompletions = 200;
/** Characters of a document's body shown on hover. */
const hoverBodyCharacters = 400;

interface Field {
  index: number;
  text: string;
  start: number;
  end: number;
}

/** The fields of a qrels/run line (whitespace-separated) or a BEIR line (tab-separated), with UTF-16 offsets. */
function fieldsOf(line: string, tabSeparated: boolean): Field[] {
  const fields: Field[] = [];
  const pattern = tabSeparated ? /[^\t]+/g : /[^\s]+/g;
  for (const match of line.matchAll(pattern)) {
    fields.push({ index: fields.length, text: match[0], start: match.index, end: match.index + match[0].length });
  }
  return fields;
}

function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value !== null && value !== undefined) return JSON.stringify(value);
  return undefined;
}

/** Markdown-escapes untrusted document text (hover content is rendered as Markdown; no HTML is allowed through). */
function escapeMarkdown(value: string): string {
  return value.replace(/[\\`*_{}[\]()#+\-.!<>|~]/g, (c) => `\\${c}`);
}

export class DataFeatures {
  private readonly workspace: StudyWorkspace;
  private readonly linting: DataLinting;
  /** The type each data document was last linted as. */
  private readonly types = new Map<string, LintFileType>();

  constructor(workspace: StudyWorkspace, linting: DataLinting) {
    this.workspace = workspace;
    this.linting = linting;
  }

  /** The document was closed: what was kept for it goes. */
  closed(uri: string): void {
    this.types.delete(uri);
  }

  lint(document: TextDocument): LintResult | undefined {
    const byName = this.recordFileByName(document);
    const result = byName === 'records' ? undefined : this.linting.lint(document);
    if (result !== undefined && (byName === undefined || isLintFileType(result.type))) {
      if (isLintFileType(result.type)) this.types.set(document.uri, result.type);
      return result;
    }
    this.types.delete(document.uri);
    if (byName === undefined) return undefined;
    const source = this.sourceOf(document.uri);
    const mapping = source === undefined ? undefined : Object.fromEntries(source.fields);
    const records = lintRecordText(document.getText(), { file: document.uri, ...(mapping ? { mapping } : {}) });
    return { file: records.file, type: 'unknown', diagnostics: records.diagnostics };
  }

  /** Whether the document is a record file by its language or name (see core/data recordFileByName). */
  private recordFileByName(document: TextDocument): 'records' | 'records-unless-trec' | undefined {
    if (document.languageId === 'jsonl' || document.languageId === 'csv') return 'records';
    if (document.languageId === 'tsv') return 'records-unless-trec';
    return recordFileByName((uriToPath(document.uri) ?? document.uri).replace(/\.gz$/, ''));
  }

  /** The study source (queries, corpus) a record file is, if a study reads it. */
  private sourceOf(uri: string): StudySource | undefined {
    const path = uriToPath(uri);
    if (path === undefined) return undefined;
    for (const study of this.workspace.studiesFor(uri)) {
      for (const source of [study.queries, study.corpus]) if (source?.path === path) return source;
    }
    return undefined;
  }

  private fieldAt(document: TextDocument, position: Position): { field: Field; type: LintFileType } | undefined {
    const type = this.types.get(document.uri);
    if (type === undefined) return undefined;
    const line = lineText(document, position.line);
    const format = fileFormats[type];
    if (format.header && position.line === 0) return undefined;
    if (line.trimStart().startsWith('#')) return undefined;
    const fields = fieldsOf(line, format.separator === 'tab');
    const field = fields.find((f) => f.start <= position.character && position.character <= f.end);
    return field === undefined ? undefined : { field, type };
  }

  async hover(document: TextDocument, position: Position): Promise<Hover | null> {
    const at = this.fieldAt(document, position);
    if (at === undefined) return null;
    const { field, type } = at;
    const docidField = fileFormats[type].docidField;
    if (field.index !== 0 && field.index !== docidField) return null;
    const studies = this.workspace.studiesFor(document.uri);
    const isQuery = field.index === 0;
    const range: Range = {
      start: { line: position.line, character: field.start },
      end: { line: position.line, character: field.end },
    };
    for (const study of studies) {
      const source = isQuery ? study.queries : study.corpus;
      if (source === undefined) continue;
      const index = await this.workspace.loadIndex(source);
      const record = await index?.get(field.text);
      if (record === undefined) continue;
      const role = (name: string, fallback: string[]): string | undefined => {
        const mapped = source.fields.get(name);
        for (const key of mapped ? [mapped] : fallback) {
          const value = text(record[key]);
          if (value !== undefined) return value;
        }
        return undefined;
      };
      const lines: string[] = [];
      if (isQuery) {
        lines.push(`**Query ${escapeMarkdown(field.text)}** (${escapeMarkdown(source.written)})`);
        const query = role('text', ['text', 'query']);
        if (query !== undefined) lines.push('', escapeMarkdown(query));
        const instruction = role('instruction', ['instruction']);
        if (instruction !== undefined) lines.push('', `*Instruction:* ${escapeMarkdown(instruction)}`);
      } else {
        const title = role('title', ['title']);
        lines.push(
          `**Document ${escapeMarkdown(field.text)}**${title ? ` — ${escapeMarkdown(title)}` : ''} (${escapeMarkdown(source.written)})`,
        );
        const body = role('body', ['text', 'body', 'contents']);
        if (body !== undefined) {
          const shown = body.length > hoverBodyCharacters ? `${body.slice(0, hoverBodyCharacters)}…` : body;
          lines.push('', escapeMarkdown(shown));
        }
      }
      return { contents: { kind: 'markdown', value: lines.join('\n') }, range };
    }
    const missing = isQuery ? 'queries' : 'corpus';
    if (studies.some((s) => (isQuery ? s.queries : s.corpus) !== undefined)) {
      return {
        contents: { kind: 'markdown', value: `**${escapeMarkdown(field.text)}** is not in the study's ${missing}` },
        range,
      };
    }
    return null;
  }

  async completion(document: TextDocument, position: Position): Promise<CompletionList> {
    const type = this.types.get(document.uri);
    if (type === undefined) return { isIncomplete: false, items: [] };
    const format = fileFormats[type];
    const line = lineText(document, position.line).slice(0, position.character);
    const fields = fieldsOf(line, format.separator === 'tab');
    // The field being typed: the last one when the cursor touches it, else the next one.
    const typing = /\S$/.test(line) && fields.length > 0;
    const index = typing ? fields.length - 1 : fields.length;
    const prefix = typing ? fields.at(-1)!.text : '';
    if (index !== 0 && index !== format.docidField) return { isIncomplete: false, items: [] };
    const items: CompletionItem[] = [];
    for (const study of this.workspace.studiesFor(document.uri)) {
      const source = index === 0 ? study.queries : study.corpus;
      if (source === undefined) continue;
      const loaded = await this.workspace.loadIndex(source);
      if (loaded === undefined) continue;
      for (const id of loaded.ids()) {
        if (!id.startsWith(prefix)) continue;
        items.push({
          label: id,
          kind: index === 0 ? CompletionItemKind.Reference : CompletionItemKind.File,
          detail: `${index === 0 ? 'query' : 'document'} in ${source.written} (${idFieldOf(source)})`,
        });
        // More may match: the editor asks again as the user types (a longer prefix).
        if (items.length >= maxCompletions) return { isIncomplete: true, items };
      }
    }
    return { isIncomplete: false, items };
  }

  /** Whether the client resolves a code action's edit on demand (codeAction/resolve): whole-file fixes wait. */
  resolvesEdits = false;

  codeActions(document: TextDocument, range: Range, context: CodeActionContext): CodeAction[] {
    const actions: CodeAction[] = [];
    const uri = document.uri;
    const fix = (title: string, edits: TextEdit[], diagnostic: Diagnostic | undefined): void => {
      actions.push({
        title,
        kind: CodeActionKind.QuickFix,
        ...(diagnostic ? { diagnostics: [diagnostic], isPreferred: true } : {}),
        edit: { changes: { [uri]: edits } },
      });
    };
    // A fix that rewrites the whole file: computed when the user picks it (the editor asks for code actions on every
    // cursor move, and a 1M-line file's rewrite is a million edits), unless the client cannot resolve.
    const fileFix = (title: string, rewrite: WholeFileRewrite, diagnostic: Diagnostic | undefined): void => {
      if (!this.resolvesEdits) {
        fix(title, this.rewriteEdits(document, rewrite), diagnostic);
        return;
      }
      const data: RewriteData = { uri, version: document.version, rewrite };
      actions.push({
        title,
        kind: CodeActionKind.QuickFix,
        ...(diagnostic ? { diagnostics: [diagnostic], isPreferred: true } : {}),
        data,
      });
    };
    for (const diagnostic of context.diagnostics) {
      const line = diagnostic.range.start.line;
      switch (diagnostic.code) {
        case 'duplicate-pair':
        case 'duplicate-docid': {
          const first = diagnostic.relatedInformation?.[0]?.location.range.start.line;
          if (first === undefined) break;
          const normalise = (value: string) => value.trim().split(/\s+/).join(' ');
          if (normalise(lineText(document, line)) !== normalise(lineText(document, first))) break;
          fix(
            `Remove line ${line + 1}: an exact duplicate of line ${first + 1}`,
            [deleteLine(document, line)],
            diagnostic,
          );
          break;
        }
        case 'missing-final-newline': {
          const end = document.positionAt(document.getText().length);
          fix('Add a newline at the end of the file', [{ range: { start: end, end }, newText: '\n' }], diagnostic);
          break;
        }
        case 'trailing-whitespace':
          fileFix('Remove trailing whitespace in the file', 'trailing-whitespace', diagnostic);
          break;
        case 'crlf':
          fileFix('Convert line endings to LF', 'crlf', diagnostic);
          break;
      }
    }
    const type = this.types.get(uri);
    if (type !== undefined && range.start.line < document.lineCount) {
      const current = lineText(document, range.start.line);
      const tab = fileFormats[type].separator === 'tab';
      if (normaliseSeparators(current, tab) !== current) {
        fileFix(
          `Normalise separators: one ${tab ? 'tab' : 'space'} between fields, none at the ends`,
          tab ? 'separators-tab' : 'separators-space',
          undefined,
        );
      }
    }
    return actions;
  }

  /** Fills in the edit of a whole-file fix the user picked (codeAction/resolve). */
  resolveCodeAction(action: CodeAction, document: TextDocument | undefined): CodeAction {
    const data = action.data as RewriteData | undefined;
    if (data === undefined || document === undefined || document.uri !== data.uri) return action;
    // The document changed since the action was offered: the rewrite is computed on the text as it is now.
    return { ...action, edit: { changes: { [data.uri]: this.rewriteEdits(document, data.rewrite) } } };
  }

  private rewriteEdits(document: TextDocument, rewrite: WholeFileRewrite): TextEdit[] {
    switch (rewrite) {
      case 'crlf':
        return [{ range: wholeDocument(document), newText: document.getText().replace(/\r\n/g, '\n') }];
      case 'trailing-whitespace':
        return this.rewriteLines(document, (t) => t.replace(/[ \t]+$/, ''));
      case 'separators-tab':
        return this.rewriteLines(document, (t) => normaliseSeparators(t, true));
      case 'separators-space':
        return this.rewriteLines(document, (t) => normaliseSeparators(t, false));
    }
  }

  /** One edit per line that `rewrite` changes (lines keep their line breaks). */
  private rewriteLines(document: TextDocument, rewrite: (line: string) => string): TextEdit[] {
    const edits: TextEdit[] = [];
    for (let line = 0; line < document.lineCount; line++) {
      const current = lineText(document, line);
      const next = rewrite(current);
      if (next === current) continue;
      edits.push({
        range: { start: { line, character: 0 }, end: { line, character: current.length } },
        newText: next,
      });
    }
    return edits;
  }
}

type WholeFileRewrite = 'crlf' | 'trailing-whitespace' | 'separators-tab' | 'separators-space';

interface RewriteData {
  uri: string;
  version: number;
  rewrite: WholeFileRewrite;
}

/** One separator between fields (a tab in BEIR TSVs, a space otherwise), none at the ends; comments kept. */
function normaliseSeparators(line: string, tab: boolean): string {
  if (line.trim() === '' || line.trimStart().startsWith('#')) return line;
  return line
    .trim()
    .split(tab ? /\t+/ : /[ \t]+/)
    .join(tab ? '\t' : ' ');
}

function deleteLine(document: TextDocument, line: number): TextEdit {
  const end =
    line + 1 < document.lineCount ? { line: line + 1, character: 0 } : document.positionAt(document.getText().length);
  return { range: { start: { line, character: 0 }, end }, newText: '' };
}

function wholeDocument(document: TextDocument): Range {
  return { start: { line: 0, character: 0 }, end: document.positionAt(document.getText().length) };
}
