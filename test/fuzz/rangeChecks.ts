// The range laws every diagnostic must obey, whatever the input. core/lint (and the record linter): 1-based lines
// within the text split on '\n', 1-based columns within the line's code points + 1, the end not before the start,
// `related` within the text too, diagnostics sorted by position. The study DSL: UTF-16 offsets with
// 0 ≤ start ≤ end ≤ text.length, non-empty unless the text is, fix edits within the text, sorted by position.
import { AssertionError } from 'node:assert';
import type { DslDiagnostic } from '../../core/dsl/index.ts';
import { compareDiagnostics, type LintDiagnostic } from '../../core/lint/types.ts';

function fail(message: string, what: unknown): never {
  throw new AssertionError({ message: `${message}: ${JSON.stringify(what).slice(0, 2000)}` });
}

/** The lines of a text as core/lint numbers them, with their lengths in code points (computed when asked). */
export class TextLines {
  private readonly lines: string[];
  private readonly lengths = new Map<number, number>();

  constructor(text: string) {
    this.lines = text.split('\n');
  }

  get count(): number {
    return this.lines.length;
  }

  /** Length in code points of 1-based line `line`. */
  codePoints(line: number): number {
    let length = this.lengths.get(line);
    if (length === undefined) {
      length = 0;
      for (const _ of this.lines[line - 1]!) length++;
      this.lengths.set(line, length);
    }
    return length;
  }

  /** Whether (line, column) is a position in the text: a character or just past the line's end. */
  isPosition(line: number, column: number): boolean {
    return (
      Number.isInteger(line) &&
      Number.isInteger(column) &&
      line >= 1 &&
      line <= this.count &&
      column >= 1 &&
      column <= this.codePoints(line) + 1
    );
  }
}

/**
 * Checks the range laws of core/lint diagnostics against the text they are about. `order`: core/lint sorts with
 * compareDiagnostics, the record linter by line and column only.
 */
export function checkLintRanges(
  text: string | TextLines,
  diagnostics: readonly LintDiagnostic[],
  order: 'compareDiagnostics' | 'line-column' = 'compareDiagnostics',
): void {
  const lines = typeof text === 'string' ? new TextLines(text) : text;
  let previous: LintDiagnostic | undefined;
  for (const d of diagnostics) {
    if (!lines.isPosition(d.line, d.column)) fail(`start outside the text (${lines.count} lines)`, d);
    if (!lines.isPosition(d.endLine, d.endColumn)) fail(`end outside the text (${lines.count} lines)`, d);
    const endsBeforeStart = d.endLine < d.line || (d.endLine === d.line && d.endColumn < d.column);
    if (endsBeforeStart) fail('end before start', d);
    if (d.related !== undefined && !lines.isPosition(d.related.line, d.related.column)) {
      fail('related position outside the text', d);
    }
    if (typeof d.message !== 'string' || d.message === '') fail('no message', d);
    if (previous !== undefined) {
      const byOrder =
        order === 'compareDiagnostics'
          ? compareDiagnostics(previous, d)
          : previous.line - d.line || previous.column - d.column;
      if (byOrder > 0) fail('diagnostics out of order', [previous, d]);
    }
    previous = d;
  }
}

function isRange(text: string, range: { start: number; end: number }): boolean {
  return (
    Number.isInteger(range.start) &&
    Number.isInteger(range.end) &&
    range.start >= 0 &&
    range.start <= range.end &&
    range.end <= text.length
  );
}

/**
 * Checks the range laws of study-file diagnostics. `order`: the parser sorts by (start, end), the checks by
 * (start, end, code).
 */
export function checkDslRanges(
  text: string,
  diagnostics: readonly DslDiagnostic[],
  order: 'start-end' | 'start-end-code',
): void {
  let previous: DslDiagnostic | undefined;
  for (const d of diagnostics) {
    if (d.code === 'internal-error') fail('the parser threw (internal-error)', d);
    if (!isRange(text, d.range)) fail(`range outside the text (length ${text.length})`, d);
    if (d.range.end === d.range.start && text.length > 0) fail('empty range in a non-empty text', d);
    if (d.related !== undefined && !isRange(text, d.related.range)) fail('related range outside the text', d);
    for (const fix of d.fixes ?? []) {
      for (const edit of fix.edits) if (!isRange(text, edit.range)) fail('fix edit outside the text', d);
    }
    if (previous !== undefined) {
      const byPosition = previous.range.start - d.range.start || previous.range.end - d.range.end;
      const outOfOrder =
        byPosition > 0 || (order === 'start-end-code' && byPosition === 0 && previous.code.localeCompare(d.code) > 0);
      if (outOfOrder) fail('diagnostics out of order', [previous, d]);
    }
    previous = d;
  }
}

/** Checks that a range an editor service returned lies in the text. */
export function checkServiceRange(text: string, range: { start: number; end: number } | undefined, what: string): void {
  if (range !== undefined && !isRange(text, range))
    fail(`${what} range outside the text (length ${text.length})`, range);
}
