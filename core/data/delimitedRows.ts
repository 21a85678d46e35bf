// CSV and TSV rows read as Python's `csv` module (the default dialect, as `csv.reader` and `csv.DictReader` use it)
// and pandas read them: a double quote opens a quoted field only at the start of a field; inside one, `""` is a
// quote and separators and newlines are text, so a row can span lines; text after a closing quote is kept (csv's
// non-strict mode). TSV follows the same quoting (`csv.reader(f, delimiter='\t')` does).
//
// The splitter is fed decoded lines (lineText.ts) and keeps, for the row it is reading, each field's position as
// 1-based line and character column, and the values of the fields asked for — not all of them: a linter wants
// only the id, and a 52,000-column row should not become 52,000 strings for nothing.
import { TextColumns } from './textColumns.ts';

export type Separator = ',' | '\t';

export class DelimitedRowSplitter {
  readonly separator: Separator;
  /** Keep every field's value (a header; a record read back), or only the field `captureField` (-1: none). */
  captureAll = false;
  captureField = -1;
  /** Captured values longer than this are cut (an unterminated quote can swallow a whole file). */
  captureLimit = Number.POSITIVE_INFINITY;

  // The row being read.
  fieldCount = 0;
  firstLine = 0;
  lastLine = 0;
  /** Captured values by field (undefined for fields not captured). */
  readonly values: (string | undefined)[] = [];
  readonly startLines: number[] = [];
  readonly startColumns: number[] = [];
  readonly endLines: number[] = [];
  readonly endColumns: number[] = [];
  /** Column just past the last character of the row's last line. */
  rowEndColumn = 1;
  /** A quoted field is still open at the end of the last line: the row goes on. */
  open = false;
  /** Where the quote of the field still open is, and the end of its line (for "unterminated quote"). */
  quoteLine = 0;
  quoteColumn = 0;
  quoteLineEndColumn = 0;

  private readonly columns = new TextColumns();
  private state: 'start' | 'quoted' | 'after-quote' = 'start';
  private pieces: string[] = [];
  private piecesLength = 0;
  private capturing = false;
  private previousCrlf = false;

  constructor(separator: Separator) {
    this.separator = separator;
  }

  /**
   * Reads the next line (its text without `\r` and `\n`; `crlf` says whether it had the `\r`). Returns true when
   * the line completes a row; false when a quoted field goes on to the next line.
   */
  addLine(text: string, ascii: boolean, lineNumber: number, crlf: boolean): boolean {
    const columns = this.columns;
    columns.reset(text, ascii);
    if (this.open) {
      this.addPiece(this.previousCrlf ? '\r\n' : '\n');
    } else {
      this.fieldCount = 0;
      this.firstLine = lineNumber;
      this.values.length = 0;
      this.startLines.length = 0;
      this.startColumns.length = 0;
      this.endLines.length = 0;
      this.endColumns.length = 0;
      this.state = 'start';
    }
    this.lastLine = lineNumber;
    const separator = this.separator;
    const length = text.length;
    let i = 0;
    for (;;) {
      if (this.state === 'start') {
        this.beginField(lineNumber, columns.column(i));
        if (text.charCodeAt(i) === 34) {
          this.quoteLine = lineNumber;
          this.quoteColumn = columns.column(i);
          this.state = 'quoted';
          i++;
          continue;
        }
        let next = text.indexOf(separator, i);
        if (next === -1) next = length;
        if (this.capturing) this.addPiece(text.slice(i, next));
        this.endField(lineNumber, columns.column(next));
        if (next === length) return this.completeRow(columns);
        i = next + 1;
      } else if (this.state === 'quoted') {
        const quote = text.indexOf('"', i);
        if (quote === -1) {
          if (this.capturing) this.addPiece(text.slice(i));
          if (this.quoteLine === lineNumber) this.quoteLineEndColumn = columns.endColumn();
          this.open = true;
          this.previousCrlf = crlf;
          return false;
        }
        if (this.capturing) this.addPiece(text.slice(i, quote));
        i = quote + 1;
        this.state = 'after-quote';
      } else {
        // Just past a quote that closed the field, unless it is the first of `""`.
        const c = text.charCodeAt(i);
        if (c === 34) {
          if (this.capturing) this.addPiece('"');
          i++;
          this.state = 'quoted';
          continue;
        }
        let next = i >= length ? length : text.indexOf(separator, i);
        if (next === -1) next = length;
        if (this.capturing && next > i) this.addPiece(text.slice(i, next));
        this.endField(lineNumber, columns.column(next));
        this.state = 'start';
        if (next === length) return this.completeRow(columns);
        i = next + 1;
      }
    }
  }

  /** The text of the fields of the row just read, for messages ("a, b, c"). */
  capturedValues(): string[] {
    const values: string[] = [];
    for (let i = 0; i < this.fieldCount; i++) values.push(this.values[i] ?? '');
    return values;
  }

  private beginField(line: number, column: number): void {
    this.startLines.push(line);
    this.startColumns.push(column);
    this.capturing = this.captureAll || this.fieldCount === this.captureField;
    this.pieces.length = 0;
    this.piecesLength = 0;
  }

  private endField(line: number, column: number): void {
    this.endLines.push(line);
    this.endColumns.push(column);
    if (this.capturing) {
      this.values[this.fieldCount] = this.pieces.length === 1 ? this.pieces[0]! : this.pieces.join('');
    }
    this.fieldCount++;
  }

  private addPiece(piece: string): void {
    if (this.piecesLength >= this.captureLimit) return;
    if (this.piecesLength + piece.length > this.captureLimit)
      piece = piece.slice(0, this.captureLimit - this.piecesLength);
    this.pieces.push(piece);
    this.piecesLength += piece.length;
  }

  private completeRow(columns: TextColumns): true {
    this.open = false;
    this.rowEndColumn = columns.endColumn();
    return true;
  }
}

/** Splits one line (or a few, joined by `\n`) into its field values: a header, a record read back from disk. */
export function splitDelimitedText(text: string, separator: Separator): string[] {
  const splitter = new DelimitedRowSplitter(separator);
  splitter.captureAll = true;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!;
    const crlf = line.endsWith('\r');
    if (crlf) line = line.slice(0, -1);
    if (splitter.addLine(line, false, i + 1, crlf)) break;
  }
  return splitter.capturedValues();
}
