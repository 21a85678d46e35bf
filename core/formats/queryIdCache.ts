// Maps the qid field of each line to a small integer without creating a string per line: files are grouped by
// query in practice, so the qid is compared byte by byte with the previous line's first.

export class QueryIdCache {
  private last = Buffer.alloc(256);
  private lastLength = -1;
  private lastIndex = -1;
  private readonly resolve: (qid: string) => number;

  /** `resolve` is called once per run of equal qids with the qid decoded as latin1 (bytes kept 1:1). */
  constructor(resolve: (qid: string) => number) {
    this.resolve = resolve;
  }

  indexOf(bytes: Buffer, start: number, end: number): number {
    const length = end - start;
    if (length === this.lastLength) {
      let i = 0;
      while (i < length && this.last[i] === bytes[start + i]) i++;
      if (i === length) return this.lastIndex;
    }
    if (length > this.last.length) this.last = Buffer.alloc(length * 2);
    bytes.copy(this.last, 0, start, end);
    this.lastLength = length;
    this.lastIndex = this.resolve(bytes.toString('latin1', start, end));
    return this.lastIndex;
  }
}

/** Query ids are kept as latin1 strings so that JavaScript's string order is C's strcmp byte order. */
export function displayQueryId(latin1: string): string {
  return Buffer.from(latin1, 'latin1').toString('utf8');
}

export function compareQueryIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
