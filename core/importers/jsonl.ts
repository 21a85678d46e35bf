// JSON Lines: one JSON object per line (blank lines skipped), fields through the mapping. Invalid JSON is an
// error at the exact character where it stops being JSON (core/lint/records/jsonSyntaxError.ts).
import { isAscii } from 'node:buffer';
import { isJsonObject } from '../data/fieldPath.ts';
import { decodeLine, type LineText } from '../data/lineText.ts';
import { detectRecordFormat, formatFromFileName, isBlankText } from '../data/recordFormat.ts';
import { findJsonSyntaxError } from '../lint/records/jsonSyntaxError.ts';
import { RecordConverter, type RoleDefaults } from './convert.ts';
import { describeFound } from './describe.ts';
import { columnAt, ObjectFieldSource } from './fieldSources.ts';
import { lineBlocks } from './lineSource.ts';
import { ImportError, type ImportedRecord, type Importer, type ImportOptions } from './types.ts';

/** The records of a JSONL file; `defaults` replaces the target's default fields (BEIR: `_id`). */
export function readJsonRecords(
  path: string,
  options: ImportOptions,
  defaults?: RoleDefaults,
): AsyncIterableIterator<ImportedRecord> {
  return new RecordsByPiece(recordPieces(path, options, defaults));
}

/**
 * Records handed out one at a time from the arrays recordPieces makes: an async generator's yield per record cost
 * several promise turns (a million records: ~0.2 s), a record already made here costs one resolved promise.
 */
class RecordsByPiece implements AsyncIterableIterator<ImportedRecord> {
  private readonly pieces: AsyncGenerator<ImportedRecord[]>;
  private piece: ImportedRecord[] = [];
  private index = 0;

  constructor(pieces: AsyncGenerator<ImportedRecord[]>) {
    this.pieces = pieces;
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<ImportedRecord> {
    return this;
  }

  next(): Promise<IteratorResult<ImportedRecord>> {
    if (this.index < this.piece.length) return Promise.resolve({ value: this.piece[this.index++]!, done: false });
    return this.nextPiece();
  }

  private async nextPiece(): Promise<IteratorResult<ImportedRecord>> {
    for (;;) {
      const next = await this.pieces.next();
      if (next.done === true) return { value: undefined, done: true };
      if (next.value.length > 0) {
        this.piece = next.value;
        this.index = 1;
        return { value: next.value[0]!, done: false };
      }
    }
  }

  /** Stopped early: the file is closed. */
  async return(): Promise<IteratorResult<ImportedRecord>> {
    this.piece = [];
    await this.pieces.return(undefined);
    return { value: undefined, done: true };
  }
}

/** The records of a JSONL file, a piece (up to pieceBytes of lines) at a time; an error after the records before it. */
async function* recordPieces(
  path: string,
  options: ImportOptions,
  defaults?: RoleDefaults,
): AsyncGenerator<ImportedRecord[]> {
  const file = options.name ?? path;
  const converter = new RecordConverter(options, file, defaults);
  const record = (text: string, ascii: boolean, lineNumber: number): ImportedRecord | undefined => {
    if (isBlankText(text)) return undefined;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw jsonError(file, lineNumber, { text, ascii, bom: false, crlf: false }, error);
    }
    if (!isJsonObject(value)) {
      const column = columnAt(text, ascii, text.length - text.trimStart().length);
      throw new ImportError({ file, line: lineNumber, column }, "a JSON object ('{')", describeFound(value));
    }
    return converter.convert(new ObjectFieldSource(file, lineNumber, value, text, ascii));
  };
  let lineNumber = 0;
  for await (const block of lineBlocks(path)) {
    const { bytes, end } = block;
    for (let start = block.start; start < end; ) {
      const stop = pieceEnd(bytes, start, end);
      const records: ImportedRecord[] = [];
      try {
        // An ASCII piece (the usual corpus: JSON writers often escape the rest as \u…) is decoded whole, as Latin-1
        // (the same text for ASCII, a plain copy), and its lines are slices of it: a decoder call per 64 KiB instead of
        // one per line. A piece with other bytes is decoded line by line.
        if (isAscii(bytes.subarray(start, stop))) {
          const text = bytes.toString('latin1', start, stop);
          for (let position = 0; position < text.length; ) {
            let newline = text.indexOf('\n', position);
            if (newline === -1) newline = text.length;
            const lineEnd = newline > position && text.charCodeAt(newline - 1) === 13 ? newline - 1 : newline;
            const converted = record(text.slice(position, lineEnd), true, ++lineNumber);
            if (converted !== undefined) records.push(converted);
            position = newline + 1;
          }
        } else {
          for (let position = start; position < stop; ) {
            let newline = bytes.indexOf(10, position);
            if (newline === -1 || newline >= stop) newline = stop;
            const line = decodeLine(bytes, position, newline, ++lineNumber);
            const converted = record(line.text, line.ascii, lineNumber);
            if (converted !== undefined) records.push(converted);
            position = newline + 1;
          }
        }
      } catch (error) {
        if (records.length > 0) yield records;
        throw error;
      }
      yield records;
      start = stop;
    }
  }
}

/** Bytes decoded at once: a text this small is made in V8's young generation, still in the CPU's cache. */
const pieceBytes = 64 << 10;

/** The end of the whole lines of `bytes[start, end)` that make about pieceBytes (all of a longer line). */
function pieceEnd(bytes: Buffer, start: number, end: number): number {
  if (end - start <= pieceBytes) return end;
  const lastNewline = bytes.lastIndexOf(10, start + pieceBytes - 1);
  if (lastNewline >= start) return lastNewline + 1;
  const newline = bytes.indexOf(10, start + pieceBytes);
  return newline === -1 || newline >= end ? end : newline + 1;
}

/** A line JSON.parse refused, as an ImportError at the first error's character. */
export function jsonError(file: string, lineNumber: number, line: LineText, nativeError: unknown): ImportError {
  const error = findJsonSyntaxError(line.text, nativeError);
  const at = { file, line: lineNumber, column: columnAt(line.text, line.ascii, error.offset) };
  const match = /^(?:(.*?): )?expected (.+?), found (.+)$/s.exec(error.message);
  if (match) {
    const [, note, expected, found] = match;
    return new ImportError(at, expected!, note === undefined ? found! : `${found} (${note})`);
  }
  const open = /^(.*?): expected (.+)$/s.exec(error.message);
  if (open) return new ImportError(at, open[2]!, `the end of the line (${open[1]})`);
  return new ImportError(at, 'valid JSON', error.message);
}

export const jsonlImporter: Importer = {
  id: 'jsonl',
  description: 'JSON Lines: one object per line, fields through the mapping (other fields kept as metadata)',
  targets: ['queries', 'corpus', 'qrels', 'labels'],
  detects: (name, firstLines) =>
    formatFromFileName(name) === 'jsonl' ||
    (formatFromFileName(name) === undefined && detectRecordFormat(firstLines) === 'jsonl'),
  read: (path, options) => readJsonRecords(path, options),
};
