// The shapes every part of the linter speaks: file types, diagnostics and results. The CLI prints them, the
// language server will turn them into LSP diagnostics; nothing here knows about either.

export type LintSeverity = 'error' | 'warning' | 'hint';

/** The file types the linter checks line by line. */
export type LintFileType = 'qrels' | 'run' | 'beir-qrels' | 'diversity-qrels';

export const lintFileTypes: readonly LintFileType[] = ['qrels', 'run', 'beir-qrels', 'diversity-qrels'];

/** What detection can find: a linted type, a recognised format that is not linted, nothing, or no idea. */
export type DetectedFileType = LintFileType | 'prels' | 'hf-viewer' | 'empty' | 'unknown';

export interface RelatedPosition {
  line: number;
  column: number;
  message: string;
}

/** One problem. Lines and columns are 1-based; columns count characters (code points), not bytes. */
export interface LintDiagnostic {
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  severity: LintSeverity;
  rule: string;
  message: string;
  related?: RelatedPosition;
}

export interface LintResult {
  file: string;
  /** The type the file was linted as (the forced one, or the detected one). */
  type: DetectedFileType;
  /** Sorted by line, then column. */
  diagnostics: LintDiagnostic[];
}

export interface LintOptions {
  /** Lint as this type instead of detecting it from the content. */
  type?: LintFileType;
}

/** The order diagnostics are listed in: by position, then by rule and message (so the order is the same however a file was linted). */
export function compareDiagnostics(a: LintDiagnostic, b: LintDiagnostic): number {
  return (
    a.line - b.line ||
    a.column - b.column ||
    a.endLine - b.endLine ||
    a.endColumn - b.endColumn ||
    (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0) ||
    (a.message < b.message ? -1 : a.message > b.message ? 1 : 0)
  );
}
