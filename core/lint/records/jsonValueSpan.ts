// Where a value is in a line of valid JSON, by its path of keys (`["query", "id"]`), as UTF-16 offsets: the range
// a diagnostic about the id points at. Values on the way are skipped, not parsed (strings by searching for their
// closing quote, containers by searching for brackets), so finding a key costs one quick pass over its object,
// linear however long the record is. Only for text JSON.parse accepted: malformed input gives undefined.

export interface OffsetRange {
  start: number;
  end: number;
}

/** The range of the value at `path` in `text`, or undefined. With duplicate keys, the last one's (JSON.parse's). */
export function locateJsonValue(text: string, path: readonly string[]): OffsetRange | undefined {
  let i = skipSpaces(text, 0);
  for (const key of path) {
    if (text.charCodeAt(i) !== 123 /* { */) return undefined;
    i = skipSpaces(text, i + 1);
    let found = -1;
    while (text.charCodeAt(i) === 34 /* " */) {
      const keyEnd = skipString(text, i);
      if (keyEnd < 0) return undefined;
      const matches = keyEquals(text, i, keyEnd, key);
      i = skipSpaces(text, keyEnd);
      if (text.charCodeAt(i) !== 58 /* : */) return undefined;
      i = skipSpaces(text, i + 1);
      if (matches) found = i;
      i = skipValue(text, i);
      if (i < 0) return undefined;
      i = skipSpaces(text, i);
      if (text.charCodeAt(i) !== 44 /* , */) break;
      i = skipSpaces(text, i + 1);
    }
    if (found < 0) return undefined;
    i = found;
  }
  const end = skipValue(text, i);
  return end < 0 ? undefined : { start: i, end };
}

function skipSpaces(text: string, i: number): number {
  for (;;) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) return i;
    i++;
  }
}

/** `text[start]` is a quote: the offset just past the string's closing quote, or -1. */
function skipString(text: string, start: number): number {
  let from = start + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return -1;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 92) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

const structural = /["{}[\]]/g;

/** The offset just past the value starting at `i`, or -1. */
function skipValue(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === 34) return skipString(text, i);
  if (c === 123 || c === 91) {
    let depth = 0;
    structural.lastIndex = i;
    for (;;) {
      const match = structural.exec(text);
      if (match === null) return -1;
      const at = match.index;
      const ch = text.charCodeAt(at);
      if (ch === 34) {
        const end = skipString(text, at);
        if (end < 0) return -1;
        structural.lastIndex = end;
      } else if (ch === 123 || ch === 91) {
        depth++;
      } else if (--depth === 0) {
        return at + 1;
      }
    }
  }
  // A number, true, false or null: up to the next delimiter.
  let end = i;
  for (;;) {
    const d = text.charCodeAt(end);
    if (Number.isNaN(d) || d === 44 || d === 125 || d === 93 || d === 32 || d === 9 || d === 10 || d === 13) break;
    end++;
  }
  return end > i ? end : -1;
}

/** The key string token `text[start, end)` (quotes included) decodes to `key`. */
function keyEquals(text: string, start: number, end: number, key: string): boolean {
  let escaped = false;
  for (let i = start + 1; i < end - 1; i++) {
    if (text.charCodeAt(i) === 92) {
      escaped = true;
      break;
    }
  }
  if (!escaped) return end - start - 2 === key.length && text.startsWith(key, start + 1);
  try {
    return JSON.parse(text.slice(start, end)) === key;
  } catch {
    return false;
  }
}
