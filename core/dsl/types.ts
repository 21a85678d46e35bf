// The shapes the study DSL speaks to its callers (the CLI, the language server, the task database): ranges,
// diagnostics with their quick fixes, and the parse result. Offsets are UTF-16 indices into the study text (JS
// string indices), the unit LSP positions and VS Code documents use; line/column conversion is the caller's, via
// `offsetToLineColumn`.
import type { StudyFileAst } from './ast.ts';
import type { Token } from './lexer.ts';

export interface TextRange {
  start: number;
  end: number;
}

export type DslSeverity = 'error' | 'warning' | 'hint';

export interface DslTextEdit {
  range: TextRange;
  newText: string;
}

export interface DslFix {
  title: string;
  edits: DslTextEdit[];
}

export interface DslDiagnostic {
  range: TextRange;
  severity: DslSeverity;
  /** Kebab-case id of the parse error or check that found the problem (`unknown-keyword`, `duplicate-scale-key`). */
  code: string;
  message: string;
  related?: { range: TextRange; message: string };
  fixes?: DslFix[];
}

export interface ParsedStudyFile {
  text: string;
  ast: StudyFileAst;
  /** Lexical and syntax errors, in text order. */
  diagnostics: DslDiagnostic[];
  /** Every token (comments and invalid characters included), in order, annotated by the parser. */
  tokens: Token[];
}
