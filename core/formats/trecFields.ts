// Byte-level helpers shared by the TREC qrels and run readers: split a line into whitespace-separated fields and
// parse numbers straight from the bytes, as trec_eval does (C isspace: space, \t, \n, \v, \f, \r).

/** Field positions of the current line; reused across lines to avoid allocation. */
export class FieldSplitter {
  readonly starts: Int32Array;
  readonly ends: Int32Array;
  constructor(maxFields: number) {
    this.starts = new Int32Array(maxFields);
    this.ends = new Int32Array(maxFields);
  }

  /**
   * Records up to `starts.length` fields of `bytes[start, end)` and returns how many fields the line has,
   * counting past the capacity (so callers can tell "too many" without storing them).
   */
  split(bytes: Uint8Array, start: number, end: number): number {
    const capacity = this.starts.length;
    let count = 0;
    let i = start;
    while (i < end) {
      let c = bytes[i]!;
      while (c === 32 || (c >= 9 && c <= 13)) {
        if (++i >= end) return count;
        c = bytes[i]!;
      }
      const fieldStart = i;
      while (i < end) {
        c = bytes[i]!;
        if (c === 32 || (c >= 9 && c <= 13)) break;
        i++;
      }
      if (count < capacity) {
        this.starts[count] = fieldStart;
        this.ends[count] = i;
      }
      count++;
    }
    return count;
  }
}

/** True when the line holds only whitespace. */
export function isBlankLine(bytes: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = bytes[i]!;
    if (!(c === 32 || (c >= 9 && c <= 13))) return false;
  }
  return true;
}

/** Offset of the first non-whitespace byte at or after `from` (or `end`). */
export function nextFieldStart(bytes: Uint8Array, from: number, end: number): number {
  let i = from;
  while (i < end && (bytes[i] === 32 || (bytes[i]! >= 9 && bytes[i]! <= 13))) i++;
  return i;
}

/** Parses `[+-]?digits` exactly; returns NaN for anything else (including an empty field). */
export function parseIntegerField(bytes: Uint8Array, start: number, end: number): number {
  let i = start;
  let negative = false;
  if (i < end && (bytes[i] === 45 || bytes[i] === 43)) {
    negative = bytes[i] === 45;
    i++;
  }
  if (i >= end || end - i > 15) return Number.NaN;
  let value = 0;
  for (; i < end; i++) {
    const digit = bytes[i]! - 48;
    if (digit < 0 || digit > 9) return Number.NaN;
    value = value * 10 + digit;
  }
  return negative ? -value : value;
}

const powersOfTen = [
  1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20,
  1e21, 1e22,
];

/**
 * Parses a decimal floating-point field to the same double C's strtod gives (correctly rounded). Plain decimals
 * with at most 15 significant digits take the exact fast path (an integer mantissa divided by an exact power of
 * ten is correctly rounded by IEEE division); anything else goes through the engine's own correctly rounded
 * parser. Returns NaN when the field is not a decimal number (hex, "inf", "nan" and trailing junk are refused),
 * ±Infinity when it is one beyond the range of a double.
 */
export function parseFloatField(bytes: Uint8Array, start: number, end: number): number {
  let i = start;
  let negative = false;
  if (i < end && (bytes[i] === 45 || bytes[i] === 43)) {
    negative = bytes[i] === 45;
    i++;
  }
  let mantissa = 0;
  let digits = 0;
  let fractionDigits = 0;
  let seenDot = false;
  let any = false;
  for (; i < end; i++) {
    const c = bytes[i]!;
    if (c >= 48 && c <= 57) {
      any = true;
      if (digits > 0 || c !== 48) digits++;
      mantissa = mantissa * 10 + (c - 48);
      if (seenDot) fractionDigits++;
    } else if (c === 46 && !seenDot) {
      seenDot = true;
    } else {
      break;
    }
  }
  if (i === end && any && digits <= 15 && fractionDigits <= 22) {
    const value = mantissa / powersOfTen[fractionDigits]!;
    return negative ? -value : value;
  }
  return parseFloatSlow(bytes, start, end);
}

/** True when bytes[start, end) is `[+-]?(digits[.digits?]|.digits)([eE][+-]?digits)?`. */
function isDecimalNumber(bytes: Uint8Array, start: number, end: number): boolean {
  let i = start;
  if (i < end && (bytes[i] === 43 || bytes[i] === 45)) i++;
  const integerStart = i;
  while (i < end && bytes[i]! >= 48 && bytes[i]! <= 57) i++;
  let digits = i - integerStart;
  if (i < end && bytes[i] === 46) {
    const fractionStart = ++i;
    while (i < end && bytes[i]! >= 48 && bytes[i]! <= 57) i++;
    digits += i - fractionStart;
  }
  if (digits === 0) return false;
  if (i < end && (bytes[i] === 101 || bytes[i] === 69)) {
    i++;
    if (i < end && (bytes[i] === 43 || bytes[i] === 45)) i++;
    const exponentStart = i;
    while (i < end && bytes[i]! >= 48 && bytes[i]! <= 57) i++;
    if (i === exponentStart) return false;
  }
  return i === end;
}

function parseFloatSlow(bytes: Uint8Array, start: number, end: number): number {
  if (!isDecimalNumber(bytes, start, end)) return Number.NaN;
  // Long mantissas and exponents: the engine's parser is correctly rounded, like strtod.
  return Number(Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('latin1'));
}

/** The field's whole text (UTF-8): an id to compare or store. Never for messages (see fieldText). */
export function fieldString(bytes: Uint8Array, start: number, end: number): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('utf8');
}

/** The field's bytes as a latin1 string: one character per byte, so the bytes can be written back exactly. */
export function fieldBytes(bytes: Uint8Array, start: number, end: number): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('latin1');
}

/** The field as text for messages, shortened so a pathological line cannot flood the terminal. */
export function fieldText(bytes: Uint8Array, start: number, end: number): string {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset + start, Math.min(end - start, 60)).toString('utf8');
  return end - start > 60 ? `${text}…` : text;
}

/** 1-based character column of byte offset `at` in a line starting at `lineStart` (UTF-8 aware). */
export function columnOf(bytes: Uint8Array, lineStart: number, at: number): number {
  let column = 1;
  for (let i = lineStart; i < at; i++) if ((bytes[i]! & 0xc0) !== 0x80) column++;
  return column;
}
