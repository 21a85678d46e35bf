// One line of the file being linted, as byte offsets into the reader's buffer: its kind, its fields, and the values
// the session parsed from them once, so that every rule reads the same facts without re-parsing or allocating.
import { columnOf, fieldString, fieldText } from '../formats/trecFields.ts';

export type LineKind = 'content' | 'comment' | 'blank' | 'header';

/** Fields beyond this many are counted but their positions are not kept. */
const maxRecordedFields = 16;

function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

export class LineView {
  bytes: Uint8Array = new Uint8Array(0);
  /** 1-based line number. */
  number = 0;
  /** Offset of the line's first character (after a byte order mark on line 1). */
  start = 0;
  /** Offset just past the line's text: its `\n` and the `\r` of a CRLF ending are excluded. */
  end = 0;
  /** Line 1 starts with a UTF-8 byte order mark (not part of `start..end`). */
  bom = false;
  /** The line ended with `\r\n`. */
  crlf = false;
  /** Every byte of the line is ASCII, so columns are byte offsets; false also when not known. */
  ascii = false;
  kind: LineKind = 'content';

  fieldCount = 0;
  readonly starts = new Int32Array(maxRecordedFields);
  readonly ends = new Int32Array(maxRecordedFields);

  // Facts the session derives from a content line, for the rules (-1 or NaN when they do not apply).
  /** The line has at least the columns its format needs (and no more, when more is an error). */
  wellFormed = false;
  /** Interned query id (index into the session's QueryIndex). */
  qid = -1;
  /** Entry of (qid, docid) in the session's PairIndex. */
  pair = -1;
  /** When (qid, docid) occurred before: the entry of that first occurrence; otherwise -1. */
  firstPair = -1;
  label = Number.NaN;
  rank = Number.NaN;
  score = Number.NaN;
  /**
   * A content line with exactly its format's columns, its label, rank and score (those the format has) parsed, a
   * (query, docid) pair not seen before, no byte order mark, no CR and no trailing space or tab: nothing a rule
   * that `skipsPlainLines` would report (set by the session once it has derived the line's facts).
   */
  plain = false;

  /** Points the view at `bytes[start, end)` (a line without its `\n`) and resets everything derived. */
  reset(bytes: Uint8Array, start: number, end: number, number: number): void {
    this.bytes = bytes;
    this.number = number;
    this.bom =
      number === 1 &&
      end - start >= 3 &&
      bytes[start] === 0xef &&
      bytes[start + 1] === 0xbb &&
      bytes[start + 2] === 0xbf;
    if (this.bom) start += 3;
    this.crlf = end > start && bytes[end - 1] === 13;
    if (this.crlf) end--;
    this.start = start;
    this.end = end;
    this.ascii = false;
    this.kind = 'content';
    this.fieldCount = 0;
    this.wellFormed = false;
    this.qid = -1;
    this.pair = -1;
    this.firstPair = -1;
    this.label = Number.NaN;
    this.rank = Number.NaN;
    this.score = Number.NaN;
    this.plain = false;
  }

  /** True when the line holds nothing but whitespace. */
  isBlank(): boolean {
    const bytes = this.bytes;
    for (let i = this.start; i < this.end; i++) if (!isSpace(bytes[i]!)) return false;
    return true;
  }

  /** The first non-whitespace byte, or -1. */
  firstNonSpace(): number {
    const bytes = this.bytes;
    for (let i = this.start; i < this.end; i++) if (!isSpace(bytes[i]!)) return bytes[i]!;
    return -1;
  }

  /** Splits on runs of whitespace as trec_eval does (C isspace: space, \t, \v, \f, \r); notes whether it is ASCII. */
  splitOnWhitespace(): void {
    const bytes = this.bytes;
    const end = this.end;
    let all = 0;
    let count = 0;
    let i = this.start;
    while (i < end) {
      let c = bytes[i]!;
      while (isSpace(c)) {
        if (++i >= end) break;
        c = bytes[i]!;
      }
      if (i >= end) break;
      const fieldStart = i;
      while (i < end) {
        c = bytes[i]!;
        if (isSpace(c)) break;
        all |= c;
        i++;
      }
      if (count < maxRecordedFields) {
        this.starts[count] = fieldStart;
        this.ends[count] = i;
      }
      count++;
    }
    this.fieldCount = count;
    this.ascii = all < 0x80;
  }

  /** Splits on each tab, as a TSV reader does (empty fields count); notes whether it is ASCII. */
  splitOnTabs(): void {
    const bytes = this.bytes;
    const end = this.end;
    let all = 0;
    let count = 0;
    let fieldStart = this.start;
    for (let i = this.start; i <= end; i++) {
      const c = i < end ? bytes[i]! : 9;
      if (c === 9) {
        if (count < maxRecordedFields) {
          this.starts[count] = fieldStart;
          this.ends[count] = i;
        }
        count++;
        fieldStart = i + 1;
      } else {
        all |= c;
      }
    }
    this.fieldCount = count;
    this.ascii = all < 0x80;
  }

  /** 1-based character column of byte offset `at` of this line. */
  column(at: number): number {
    return this.ascii ? at - this.start + 1 : columnOf(this.bytes, this.start, at);
  }

  /** Column just past the line's text. */
  endColumn(): number {
    return this.column(this.end);
  }

  /** Offset just past the last non-whitespace byte (the start when the line is blank). */
  trimmedEnd(): number {
    let i = this.end;
    while (i > this.start && isSpace(this.bytes[i - 1]!)) i--;
    return i;
  }

  /** Offset of the first non-whitespace byte (the end when the line is blank). */
  trimmedStart(): number {
    let i = this.start;
    while (i < this.end && isSpace(this.bytes[i]!)) i++;
    return i;
  }

  fieldColumn(field: number): number {
    return this.column(this.starts[field]!);
  }

  fieldEndColumn(field: number): number {
    return this.column(this.ends[field]!);
  }

  /** The field's text for a message (shortened when very long). */
  fieldText(field: number): string {
    return fieldText(this.bytes, this.starts[field]!, this.ends[field]!);
  }

  /** The field's whole text: an id to look up. */
  fieldString(field: number): string {
    return fieldString(this.bytes, this.starts[field]!, this.ends[field]!);
  }
}
