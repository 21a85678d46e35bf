// One line of a data file as text. The reader hands over bytes (a `\r` before the `\n` kept, a byte order mark on
// line 1 kept); every reader of records wants the text without them, and to know whether they were there.

const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

export interface LineText {
  /** The line's text: no BOM, no trailing `\r`; invalid UTF-8 decoded as U+FFFD (never throws). */
  text: string;
  /** Line 1 started with a UTF-8 byte order mark. */
  bom: boolean;
  /** The line ended with `\r\n`. */
  crlf: boolean;
  /** One UTF-16 code unit per byte (ASCII, or invalid bytes each read as U+FFFD): no surrogate pairs, so a
   * column is an offset + 1. */
  ascii: boolean;
}

export function hasByteOrderMark(bytes: Uint8Array, start: number, end: number): boolean {
  return end - start >= 3 && bytes[start] === 0xef && bytes[start + 1] === 0xbb && bytes[start + 2] === 0xbf;
}

/** Decodes `bytes[start, end)` (a line without its `\n`); `lineNumber` 1 may carry a BOM. */
export function decodeLine(bytes: Uint8Array, start: number, end: number, lineNumber: number): LineText {
  const bom = lineNumber === 1 && hasByteOrderMark(bytes, start, end);
  if (bom) start += 3;
  const crlf = end > start && bytes[end - 1] === 13;
  if (crlf) end--;
  const text = decoder.decode(bytes.subarray(start, end));
  // UTF-8 spends two or more bytes on anything beyond ASCII, and each U+FFFD replaces at least one byte: equal
  // lengths mean one byte per code unit.
  return { text, bom, crlf, ascii: text.length === end - start };
}
