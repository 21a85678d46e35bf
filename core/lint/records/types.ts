// The shapes the record linter speaks: what it is told about a file, and what it says back. Diagnostics are
// core/lint's (`LintDiagnostic`), so the CLI and the language server print and serve both linters the same way.
import type { RecordFormat } from '../../data/recordFormat.ts';
import type { LintDiagnostic } from '../types.ts';

export type { RecordFormat };

/** What the records are: generic records, or a shape the linter knows the required fields of. */
export type RecordKind = 'records' | 'beir-corpus' | 'beir-queries' | 'crumb-run';

export const recordKinds: readonly RecordKind[] = ['records', 'beir-corpus', 'beir-queries', 'crumb-run'];

export interface RecordLintOptions {
  /** Name used in diagnostics (default `<text>`, or the path for files on disk). */
  file?: string;
  /** Lint as this format; else told from the content (`{` → JSONL, a header with commas → CSV, tabs → TSV). */
  format?: RecordFormat;
  /** Lint as this kind; else told from the first record's fields. */
  kind?: RecordKind;
  /**
   * Role → field, from the study file (`{ id: qid  text: query }`): these fields must exist in every record, and
   * `mapping.id` is the id field. Only fields: settings such as `format: markdown` are the caller's to leave out.
   */
  mapping?: Record<string, string>;
}

export interface RecordLintResult {
  file: string;
  format: RecordFormat | 'unknown';
  kind: RecordKind;
  /** Sorted by line, then column. */
  diagnostics: LintDiagnostic[];
}
