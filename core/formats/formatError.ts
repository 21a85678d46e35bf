/** A problem in an input file, with the position a user needs to fix it (1-based line and column). */
export class FormatError extends Error {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly related?: { line: number; column: number; message: string };

  constructor(
    file: string,
    line: number,
    column: number,
    message: string,
    related?: { line: number; column: number; message: string },
  ) {
    super(`${file}:${line}:${column}: error: ${message}`);
    this.file = file;
    this.line = line;
    this.column = column;
    this.related = related;
  }
}
