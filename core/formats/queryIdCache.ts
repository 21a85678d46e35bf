// Maps the qid field of each line to a small integer without creating a string per line: the qid is compared
// byte by byte with the previous line's first (files are grouped by query in practice), then looked up by its
// bytes; only a qid never seen before becomes a string.
import { ByteKeyIndex, ByteKeyStore, hashBytes } from './byteKeyTable.ts';
import { GrowableInt32 } from './growableArrays.ts';

export class QueryIdCache {
  private last = Buffer.alloc(256);
  private lastLength = -1;
  private lastIndex = -1;
  private readonly seen = new ByteKeyStore(64, 1024);
  private readonly seenIndex = new ByteKeyIndex(this.seen, 64);
  private readonly resolved = new GrowableInt32(64);
  private readonly resolve: (qid: string) => number;

  /** `resolve` is called once per distinct qid, with the qid decoded as latin1 (bytes kept 1:1). */
  constructor(resolve: (qid: string) => number) {
    this.resolve = resolve;
  }

  indexOf(bytes: Buffer, start: number, end: number): number {
    const length = end - start;
    if (length === this.lastLength) {
      const last = this.last;
      let i = 0;
      while (i < length && last[i] === bytes[start + i]) i++;
      if (i === length) return this.lastIndex;
    }
    return this.lookUp(bytes, start, end);
  }

  /** A qid other than the previous line's (kept apart so that indexOf stays small enough to be inlined). */
  private lookUp(bytes: Buffer, start: number, end: number): number {
    const length = end - start;
    const hash = hashBytes(bytes, start, end, 0);
    let entry = this.seenIndex.find(0, bytes, start, end, hash);
    if (entry === -1) {
      entry = this.seen.add(0, bytes, start, end, hash);
      this.seenIndex.insert(entry);
      this.resolved.push(this.resolve(bytes.toString('latin1', start, end)));
    }
    if (length > this.last.length) this.last = Buffer.alloc(length * 2);
    // A loop, not Buffer.copy: qids are short, and in an interleaved run this runs on every line.
    const last = this.last;
    for (let i = 0; i < length; i++) last[i] = bytes[start + i]!;
    this.lastLength = length;
    this.lastIndex = this.resolved.data[entry]!;
    return this.lastIndex;
  }
}

// ignoreBOM keeps a leading U+FEFF: a file's byte order mark is part of its first id, as it is for trec_eval, and
// stripping it would merge '\ufeffq1' with 'q1'.
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * A byte-string id (latin1) as text: decoded as UTF-8 when it is valid UTF-8 (almost always), else shown
 * byte for byte as latin1 so that two different ids never print the same.
 */
export function displayQueryId(latin1: string): string {
  // Pure ASCII needs no decoding.
  if (!/[^\x00-\x7f]/.test(latin1)) return latin1;
  try {
    return strictUtf8.decode(Buffer.from(latin1, 'latin1'));
  } catch {
    return latin1;
  }
}

/** Query ids are kept as latin1 strings so that JavaScript's string order is C's strcmp byte order. */
export function compareQueryIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** An id for an error message: as displayQueryId, with invisible characters (a byte order mark, a zero-width
 * space, control characters) written as \u{…} so that the id the user sees is the id that was read. */
export function messageQueryId(latin1: string): string {
  return displayQueryId(latin1).replace(
    /[\p{Cc}\p{Cf}]/gu,
    (character) => `\\u{${character.codePointAt(0)!.toString(16)}}`,
  );
}
