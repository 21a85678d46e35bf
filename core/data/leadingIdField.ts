// The id of a JSONL record read straight from the line's bytes, without decoding the line or building the object,
// when the line starts with the id field: `{"_id": "d1", ...`. That is how BEIR corpora and most generated files
// are written, and it makes indexing a million-line corpus cost little more than reading it. Anything else (the
// id further in, escapes in the id, a number) is refused and the caller parses the line.

/** Matches lines starting `{ "<key>" : "<id>"` followed by `,` or `}`, for one key. */
export class LeadingIdField {
  private readonly key: Uint8Array;
  /** False when the key itself needs escaping in JSON: never take the shortcut then. */
  private readonly usable: boolean;

  constructor(key: string) {
    const quoted = JSON.stringify(key);
    this.usable = quoted === `"${key}"`;
    this.key = Buffer.from(quoted, 'utf8');
  }

  /**
   * True when `bytes[start, end)` starts with the key and a plain string value (no backslash, no control
   * character): the id's bytes are then `[range.idStart, range.idEnd)` (written into `range`, not allocated).
   */
  match(bytes: Uint8Array, start: number, end: number, range: { idStart: number; idEnd: number }): boolean {
    if (!this.usable) return false;
    let i = skipSpaces(bytes, start, end);
    if (bytes[i] !== 123 /* { */) return false;
    i = skipSpaces(bytes, i + 1, end);
    const key = this.key;
    if (end - i < key.length) return false;
    for (let k = 0; k < key.length; k++) if (bytes[i + k] !== key[k]) return false;
    i = skipSpaces(bytes, i + key.length, end);
    if (bytes[i] !== 58 /* : */) return false;
    i = skipSpaces(bytes, i + 1, end);
    if (bytes[i] !== 34 /* " */) return false;
    const idStart = ++i;
    for (;;) {
      if (i >= end) return false;
      const c = bytes[i]!;
      if (c === 34) break;
      if (c === 92 /* \ */ || c < 32) return false;
      i++;
    }
    const idEnd = i;
    i = skipSpaces(bytes, i + 1, end);
    const after = bytes[i];
    if (after !== 44 /* , */ && after !== 125 /* } */) return false;
    range.idStart = idStart;
    range.idEnd = idEnd;
    return true;
  }
}

function skipSpaces(bytes: Uint8Array, i: number, end: number): number {
  while (i < end) {
    const c = bytes[i];
    if (c !== 32 && c !== 9 && c !== 13 && c !== 10) break;
    i++;
  }
  return i;
}

/** The bytes as a string: latin1 (a straight copy) when they are all ASCII, UTF-8 otherwise. */
export function decodeId(bytes: Buffer, start: number, end: number): string {
  for (let i = start; i < end; i++) if (bytes[i]! >= 0x80) return bytes.toString('utf8', start, end);
  return bytes.toString('latin1', start, end);
}
