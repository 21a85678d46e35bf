// core/lint's diagnostics as LSP diagnostics. core/lint counts lines split on '\n' and columns in characters (code
// points), both from 1, with line 1 starting after a byte order mark; LSP counts both from 0, columns in UTF-16
// code units, and also breaks lines at a lone '\r'. So a lint position is first turned into an offset in the
// document's text (walking the line's code points: a character outside the BMP is two code units), and the
// document turns the offset into an LSP position. A column past the end of its line (the '\r' of a CRLF ending)
// stops at the line's end.
import {
  type Diagnostic,
  type DiagnosticRelatedInformation,
  DiagnosticSeverity,
  type Position,
  type Range,
} from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { plural } from '../core/lint/rule.ts';
import type { LintDiagnostic, LintResult, LintSeverity } from '../core/lint/types.ts';

/** `source` of every diagnostic the server publishes. */
export const diagnosticSource = 'qrels-studio';

/**
 * At most this many diagnostics go to the editor per document (VS Code shows no more than 1000 per file anyway);
 * the rest are summed up in one more. A million-line file concatenated with itself would otherwise send half a
 * million duplicate errors, hundreds of megabytes of JSON.
 */
export const maxPublishedDiagnostics = 1000;

const severities: Record<LintSeverity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  hint: DiagnosticSeverity.Hint,
};

/**
 * The diagnostics that reach the editor (`shown`: at most maxPublishedDiagnostics, errors first, as VS Code does
 * when it truncates; in file order within a severity) and the rest, summed up in one more at the first of them.
 */
export function selectPublished(diagnostics: LintDiagnostic[]): { shown: LintDiagnostic[]; hidden: LintDiagnostic[] } {
  if (diagnostics.length <= maxPublishedDiagnostics) return { shown: diagnostics, hidden: [] };
  const rank = (d: LintDiagnostic): number => severities[d.severity];
  const ordered = [...diagnostics].sort((a, b) => rank(a) - rank(b));
  return { shown: ordered.slice(0, maxPublishedDiagnostics), hidden: ordered.slice(maxPublishedDiagnostics) };
}

/** Turns core/lint positions (1-based lines, 1-based code point columns) into LSP positions. */
export interface PositionMapper {
  range(line: number, column: number, endLine: number, endColumn: number): Range;
  position(line: number, column: number): Position;
}

/** The LSP diagnostics of `result`, a lint of `document`'s current text. */
export function toLspDiagnostics(document: TextDocument, result: LintResult): Diagnostic[] {
  return toLspDiagnosticsAt(document.uri, result, new LintPositions(document));
}

/** The LSP diagnostics of `result` for `uri`, positioned by `positions`. */
export function toLspDiagnosticsAt(uri: string, result: LintResult, positions: PositionMapper): Diagnostic[] {
  const { shown, hidden } = selectPublished(result.diagnostics);
  const diagnostics = shown.map((d) => toLspDiagnostic(uri, positions, d));
  const firstHidden = hidden[0];
  if (firstHidden !== undefined) {
    const at = positions.position(firstHidden.line, firstHidden.column);
    const errors = hidden.filter((d) => d.severity === 'error').length;
    diagnostics.push({
      range: { start: at, end: at },
      severity: DiagnosticSeverity.Information,
      source: diagnosticSource,
      message:
        `${plural(hidden.length, 'more problem')} (${plural(errors, 'error')}) not shown: the editor gets the ` +
        `first ${maxPublishedDiagnostics}, errors first; 'qrels-studio lint' lists every one`,
    });
  }
  return diagnostics;
}

function toLspDiagnostic(uri: string, positions: PositionMapper, d: LintDiagnostic): Diagnostic {
  const diagnostic: Diagnostic = {
    range: positions.range(d.line, d.column, d.endLine, d.endColumn),
    severity: severities[d.severity],
    source: diagnosticSource,
    code: d.rule,
    message: d.message,
  };
  if (d.related) {
    // A related position marks the same text as the problem (the first occurrence of a duplicate docid), so it
    // spans as many characters; it has a start only.
    const width = d.endLine === d.line ? d.endColumn - d.column : 0;
    const related: DiagnosticRelatedInformation = {
      location: {
        uri,
        range: positions.range(d.related.line, d.related.column, d.related.line, d.related.column + width),
      },
      message: d.related.message,
    };
    diagnostic.relatedInformation = [related];
  }
  return diagnostic;
}

/** Turns core/lint positions into LSP positions in one document. */
export class LintPositions implements PositionMapper {
  private readonly document: TextDocument;
  private readonly text: string;
  /** Offsets of the '\n' characters found so far, in order (found on demand). */
  private readonly newlines: number[] = [];
  private scanned = 0;

  constructor(document: TextDocument) {
    this.document = document;
    this.text = document.getText();
  }

  range(line: number, column: number, endLine: number, endColumn: number): Range {
    return { start: this.position(line, column), end: this.position(endLine, endColumn) };
  }

  /** The LSP position of 1-based `line` (lines split on '\n') and 1-based code point `column`. */
  position(line: number, column: number): Position {
    return this.document.positionAt(this.offset(line, column));
  }

  /** The offset in the text (UTF-16 code units) of a lint position, kept within the line's text. */
  offset(line: number, column: number): number {
    const text = this.text;
    let offset = line <= 1 ? 0 : this.newlineBefore(line) + 1;
    let end = this.newlineBefore(line + 1);
    if (end > offset && text.charCodeAt(end - 1) === 13 /* \r */) end--;
    // core/lint's line 1 starts after a byte order mark (VS Code removes it from documents; other editors may not).
    if (offset === 0 && text.charCodeAt(0) === 0xfeff) offset = 1;
    for (let character = 1; character < column && offset < end; character++) {
      const unit = text.charCodeAt(offset);
      const pair = unit >= 0xd800 && unit <= 0xdbff && offset + 1 < end && isLowSurrogate(text.charCodeAt(offset + 1));
      offset += pair ? 2 : 1;
    }
    return Math.min(offset, end);
  }

  /** The offset of the '\n' that ends line `line - 1` (1-based), or the text's length when there is none. */
  private newlineBefore(line: number): number {
    const newlines = this.newlines;
    while (newlines.length < line - 1 && this.scanned <= this.text.length) {
      const at = this.text.indexOf('\n', this.scanned);
      if (at === -1) {
        this.scanned = this.text.length + 1;
        break;
      }
      newlines.push(at);
      this.scanned = at + 1;
    }
    return newlines[line - 2] ?? this.text.length;
  }
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

/** Positions in lines known by their text (a file read from disk: only the lines diagnostics point at). */
export class LineTextPositions implements PositionMapper {
  private readonly lines: ReadonlyMap<number, string>;

  /** `lines`: 1-based line number → its text (without the line break). */
  constructor(lines: ReadonlyMap<number, string>) {
    this.lines = lines;
  }

  range(line: number, column: number, endLine: number, endColumn: number): Range {
    return { start: this.position(line, column), end: this.position(endLine, endColumn) };
  }

  position(line: number, column: number): Position {
    const text = this.lines.get(line) ?? '';
    let offset = line === 1 && text.charCodeAt(0) === 0xfeff ? 1 : 0;
    let end = text.length;
    if (end > offset && text.charCodeAt(end - 1) === 13) end--;
    for (let character = 1; character < column && offset < end; character++) {
      const unit = text.charCodeAt(offset);
      offset +=
        unit >= 0xd800 && unit <= 0xdbff && offset + 1 < end && isLowSurrogate(text.charCodeAt(offset + 1)) ? 2 : 1;
    }
    return { line: line - 1, character: Math.min(offset, end) };
  }
}
