// Columns as users and editors count them: 1-based, in characters (code points), so an emoji (two UTF-16 code
// units) is one column. An ASCII line needs no counting. Otherwise the count walks forward from the last position
// asked or the nearest checkpoint (one every 4,096 code units, left by earlier walks), so positions asked in any
// order (a duplicate pointing back at its first occurrence, in a line of 200,000 items) cost a short walk each,
// never one from the start of a long line.

const checkpointEvery = 4096;

export class TextColumns {
  private text = '';
  private ascii = true;
  private lastOffset = 0;
  private lastColumn = 1;
  /** `checkpoints[k]` is the column at offset `k * checkpointEvery`, for the offsets walked so far. */
  private readonly checkpoints: number[] = [1];

  /** Points the mapper at a line; `ascii` (one code unit per character, no surrogate pairs) makes it trivial. */
  reset(text: string, ascii: boolean): void {
    this.text = text;
    this.ascii = ascii;
    this.lastOffset = 0;
    this.lastColumn = 1;
    this.checkpoints.length = 1;
  }

  /** The 1-based column of UTF-16 offset `offset` (the line's length gives the column just past its end). */
  column(offset: number): number {
    if (offset > this.text.length) offset = this.text.length;
    if (this.ascii) return offset + 1;
    const checkpoints = this.checkpoints;
    // Start from the last position or the nearest checkpoint before `offset`, whichever is closer.
    let from = 0;
    let column = 1;
    if (offset >= this.lastOffset) {
      from = this.lastOffset;
      column = this.lastColumn;
    }
    const k = Math.min(Math.floor(offset / checkpointEvery), checkpoints.length - 1);
    if (k * checkpointEvery > from) {
      from = k * checkpointEvery;
      column = checkpoints[k]!;
    }
    const text = this.text;
    for (let i = from; i < offset; i++) {
      if (i % checkpointEvery === 0 && i / checkpointEvery === checkpoints.length) checkpoints.push(column);
      const c = text.charCodeAt(i);
      // The second half of a surrogate pair adds no column.
      if (c >= 0xdc00 && c <= 0xdfff && i > 0) {
        const previous = text.charCodeAt(i - 1);
        if (previous >= 0xd800 && previous <= 0xdbff) continue;
      }
      column++;
    }
    this.lastOffset = offset;
    this.lastColumn = column;
    return column;
  }

  /** The column just past the line's last character. */
  endColumn(): number {
    return this.column(this.text.length);
  }
}
