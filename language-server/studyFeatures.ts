// Editor features of study files (*.assess), served from core/dsl: diagnostics (syntax, semantic and cross-file
// checks, all at once), hover documentation, completion (keywords, field names read from the data files, paths,
// names), go-to-definition (paths → the file, names → their declaration), document symbols, formatting, semantic
// tokens and the quick fixes core/dsl attaches to its diagnostics. core/dsl works in UTF-16 offsets into the text,
// which is what a TextDocument converts to and from LSP positions.
import { readdirSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import {
  type CodeAction,
  CodeActionKind,
  type CompletionItem,
  CompletionItemKind,
  type Definition,
  type Diagnostic,
  DiagnosticSeverity,
  type DocumentSymbol,
  type Hover,
  type Position,
  type Range,
  type SemanticTokens,
  SymbolKind,
  type TextEdit,
} from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { readFieldNames } from '../core/data/fieldNames.ts';
import {
  completionsAt,
  type DslCompletion,
  type DslDiagnostic,
  type DslSymbol,
  definitionAt,
  documentSymbols,
  formatStudyText,
  hoverAt,
  lintStudyText,
  nodeStudyHost,
  type ParsedStudyFile,
  parseStudyFile,
  type StudyHost,
  semanticTokens,
  type TextRange,
} from '../core/dsl/index.ts';
import { diagnosticSource } from './diagnostics.ts';
import { pathToUri, uriToPath } from './studyWorkspace.ts';

export const semanticTokenTypes = [
  'keyword',
  'string',
  'number',
  'property',
  'variable',
  'enumMember',
  'comment',
  'operator',
] as const;

const severities = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  hint: DiagnosticSeverity.Hint,
};

const completionKinds: Record<DslCompletion['kind'], CompletionItemKind> = {
  keyword: CompletionItemKind.Keyword,
  field: CompletionItemKind.Field,
  path: CompletionItemKind.File,
  name: CompletionItemKind.Variable,
  value: CompletionItemKind.EnumMember,
};

const symbolKinds: Record<string, SymbolKind> = {
  study: SymbolKind.Module,
  review: SymbolKind.Module,
  scale: SymbolKind.Enum,
  value: SymbolKind.EnumMember,
  aspect: SymbolKind.Property,
  annotator: SymbolKind.Variable,
  judge: SymbolKind.Object,
  source: SymbolKind.File,
  store: SymbolKind.Package,
};

export function isStudyDocument(document: TextDocument): boolean {
  return document.languageId === 'assess' || document.uri.endsWith('.assess');
}

export class StudyFeatures {
  /** The last parse of each open study document, by uri and version. */
  private readonly parsed = new Map<string, { version: number; parsed: ParsedStudyFile }>();
  /** The diagnostics of the newest lint per study document, with their fixes, for code actions. */
  private readonly fixes = new Map<string, { version: number; found: DslDiagnostic[] }>();
  /** The data files' fields and the pool runs' lint, read once per version of each file (not per keystroke). */
  private readonly host = cachedStudyHost();

  private parse(document: TextDocument): ParsedStudyFile {
    const cached = this.parsed.get(document.uri);
    if (cached?.version === document.version) return cached.parsed;
    const parsed = parseStudyFile(document.getText());
    this.parsed.set(document.uri, { version: document.version, parsed });
    return parsed;
  }

  async diagnostics(document: TextDocument): Promise<Diagnostic[]> {
    const path = uriToPath(document.uri) ?? join(process.cwd(), 'untitled.assess');
    const version = document.version;
    const found = await lintStudyText(document.getText(), path, this.host);
    // Lints of older versions may end after newer ones: the fixes kept are the newest lint's.
    const newest = this.fixes.get(document.uri);
    if (newest === undefined || newest.version <= version) this.fixes.set(document.uri, { version, found });
    return found.map((d) => {
      const diagnostic: Diagnostic = {
        range: toRange(document, d.range),
        severity: severities[d.severity],
        source: diagnosticSource,
        code: d.code,
        message: d.message,
      };
      if (d.related) {
        diagnostic.relatedInformation = [
          { location: { uri: document.uri, range: toRange(document, d.related.range) }, message: d.related.message },
        ];
      }
      return diagnostic;
    });
  }

  /** The document was closed: what was kept for it goes. */
  closed(uri: string): void {
    this.parsed.delete(uri);
    this.fixes.delete(uri);
  }

  hover(document: TextDocument, position: Position): Hover | null {
    const found = hoverAt(this.parse(document), document.offsetAt(position));
    if (found === undefined) return null;
    return { contents: { kind: 'markdown', value: found.markdown }, range: toRange(document, found.range) };
  }

  async completion(document: TextDocument, position: Position): Promise<CompletionItem[]> {
    const parsed = this.parse(document);
    const path = uriToPath(document.uri);
    const base = path === undefined ? undefined : dirname(path);
    // Field names come from the data file the mapping belongs to; read before completing (the list is sync).
    const fields = new Map<string, string[]>();
    if (base !== undefined) {
      for (const block of parsed.ast.blocks) {
        for (const statement of block.statements) {
          if (
            (statement.kind === 'queries' || statement.kind === 'corpus' || statement.kind === 'items') &&
            statement.path
          ) {
            const offset = document.offsetAt(position);
            if (offset < statement.range.start || offset > statement.range.end + 1) continue;
            const read = await readFieldNames(resolve(base, statement.path.value));
            if ('fields' in read) fields.set(statement.kind, read.fields);
          }
        }
      }
    }
    const items = completionsAt(parsed, document.offsetAt(position), {
      fieldsOf: (role) => fields.get(role) ?? [],
      paths: (prefix) => (base === undefined ? [] : listPaths(base, prefix)),
    });
    return items.map((item) => {
      const completion: CompletionItem = { label: item.label, kind: completionKinds[item.kind] };
      if (item.detail !== undefined) completion.detail = item.detail;
      if (item.insertText !== undefined) completion.insertText = item.insertText;
      if (item.range !== undefined) {
        completion.textEdit = { range: toRange(document, item.range), newText: item.insertText ?? item.label };
      }
      return completion;
    });
  }

  definition(document: TextDocument, position: Position): Definition | null {
    const path = uriToPath(document.uri) ?? '';
    const target = definitionAt(this.parse(document), document.offsetAt(position), path);
    if (target === undefined) return null;
    if ('path' in target) {
      return {
        uri: pathToUri(target.path),
        range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      };
    }
    return { uri: document.uri, range: toRange(document, target.range) };
  }

  symbols(document: TextDocument): DocumentSymbol[] {
    const convert = (symbol: DslSymbol): DocumentSymbol => ({
      name: symbol.name,
      ...(symbol.detail !== undefined && { detail: symbol.detail }),
      kind: symbolKinds[symbol.kind] ?? SymbolKind.Field,
      range: toRange(document, symbol.range),
      selectionRange: toRange(document, symbol.selectionRange),
      children: (symbol.children ?? []).map(convert),
    });
    return documentSymbols(this.parse(document)).map(convert);
  }

  format(document: TextDocument): TextEdit[] {
    const text = document.getText();
    const formatted = formatStudyText(text);
    if (formatted === undefined || formatted === text) return [];
    return [{ range: { start: { line: 0, character: 0 }, end: document.positionAt(text.length) }, newText: formatted }];
  }

  semanticTokens(document: TextDocument): SemanticTokens {
    const data: number[] = [];
    let previousLine = 0;
    let previousCharacter = 0;
    for (const token of semanticTokens(this.parse(document))) {
      const start = document.positionAt(token.start);
      const deltaLine = start.line - previousLine;
      data.push(
        deltaLine,
        deltaLine === 0 ? start.character - previousCharacter : start.character,
        token.length,
        semanticTokenTypes.indexOf(token.type),
        0,
      );
      previousLine = start.line;
      previousCharacter = start.character;
    }
    return { data };
  }

  /** The fixes core/dsl attached to the diagnostics the editor asks about. */
  codeActions(document: TextDocument, diagnostics: readonly Diagnostic[]): CodeAction[] {
    const known = this.fixes.get(document.uri)?.found ?? [];
    const actions: CodeAction[] = [];
    for (const diagnostic of diagnostics) {
      const match = known.find(
        (d) =>
          d.code === diagnostic.code &&
          d.message === diagnostic.message &&
          sameRange(toRange(document, d.range), diagnostic.range),
      );
      for (const fix of match?.fixes ?? []) {
        actions.push({
          title: fix.title,
          kind: CodeActionKind.QuickFix,
          diagnostics: [diagnostic],
          isPreferred: (match?.fixes?.length ?? 0) === 1,
          edit: {
            changes: {
              [document.uri]: fix.edits.map((edit) => ({
                range: toRange(document, edit.range),
                newText: edit.newText,
              })),
            },
          },
        });
      }
    }
    return actions;
  }
}

function toRange(document: TextDocument, range: TextRange): Range {
  return { start: document.positionAt(range.start), end: document.positionAt(range.end) };
}

function sameRange(a: Range, b: Range): boolean {
  return (
    a.start.line === b.start.line &&
    a.start.character === b.start.character &&
    a.end.line === b.end.line &&
    a.end.character === b.end.character
  );
}

/** Files and folders for path completion: the entries of the folder `prefix` names, relative to the study file. */
function listPaths(base: string, prefix: string): string[] {
  const slash = prefix.lastIndexOf('/');
  const folderPart = slash === -1 ? '' : prefix.slice(0, slash + 1);
  const folder = resolve(base, folderPart);
  try {
    return readdirSync(folder, { withFileTypes: true })
      .filter((entry) => !entry.name.startsWith('.') && entry.name !== 'node_modules')
      .slice(0, 500)
      .map((entry) => `${folderPart}${entry.name}${entry.isDirectory() ? '/' : ''}`);
  } catch {
    return [];
  }
}

/**
 * A disk study host whose answers about data files (their fields) and pool runs (their lint) are kept per file
 * version (modification time and size): a study is checked on every pause in typing, and a 1M-line pool run takes
 * a third of a second to lint.
 */
function cachedStudyHost(): StudyHost {
  const disk = nodeStudyHost();
  const cache = new Map<string, { stamp: string; answer: Promise<unknown> }>();
  const cached =
    <T>(kind: string, path: string, compute: () => Promise<T>) =>
    async (): Promise<T> => {
      let stamp: string;
      try {
        const stats = await stat(path);
        stamp = `${stats.mtimeMs}:${stats.size}`;
      } catch {
        return compute(); // missing: the answer says so, and is not kept
      }
      const key = `${kind}\u0000${path}`;
      const hit = cache.get(key);
      if (hit?.stamp === stamp) return hit.answer as Promise<T>;
      const answer = compute();
      cache.set(key, { stamp, answer });
      return answer;
    };
  return {
    exists: disk.exists,
    readText: disk.readText,
    readFields: (path) => cached('fields', path, () => disk.readFields(path))(),
    checkRunFile: (path) => cached('run', path, () => disk.checkRunFile(path))(),
  };
}
