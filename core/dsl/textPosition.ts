// Offsets (UTF-16 indices, what every range holds) to the 1-based line and column people read: the CLI prints
// `file:line:col` like core/lint does, so columns count characters (code points), not UTF-16 units or bytes.
import type { TextRange } from './types.ts';

export function offsetToLineColumn(text: string, offset: number): { line: number; column: number } {
  const at = Math.max(0, Math.min(offset, text.length));
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < at; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  let column = 1;
  for (let i = lineStart; i < at; i++) {
    const c = text.charCodeAt(i);
    // The high half of a surrogate pair counts; the low half does not.
    if (c < 0xdc00 || c > 0xdfff) column++;
  }
  return { line, column };
}

/** "line:col-line:col" of a range (tests and the CLI use it). */
export function formatRange(text: string, range: TextRange): string {
  const start = offsetToLineColumn(text, range.start);
  const end = offsetToLineColumn(text, range.end);
  return `${start.line}:${start.column}-${end.line}:${end.column}`;
}

/** The range from the start of `a` to the end of `b`. */
export function span(a: TextRange, b: TextRange): TextRange {
  return { start: a.start, end: b.end };
}

export function contains(range: TextRange, offset: number): boolean {
  return offset >= range.start && offset <= range.end;
}
