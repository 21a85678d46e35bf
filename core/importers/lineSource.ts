// The lines of a text file (plain or gzip, told by its magic bytes), pulled: the next chunk is read only when the
// consumer asks for more lines, so an importer whose records are written to a database at the database's pace
// never has more than one chunk (512 KiB) of the file in memory. core/formats/lineReader.ts's readLines pushes
// lines to a callback that cannot wait; an importer needs to pause, hence this pull-based twin with the same
// line rules (`\n` ends a line, a `\r` before it is kept, the last line may lack its `\n`) and the same errors.
import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { decodeLine } from '../data/lineText.ts';
import { FileReadError } from '../formats/lineReader.ts';

const chunkSize = 1 << 19;

/** One line: `bytes[start, end)` without its `\n`; `number` is 1-based. */
export interface RawLine {
  bytes: Buffer;
  start: number;
  end: number;
  number: number;
}

function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

function readError(file: string, error: unknown): unknown {
  return typeof (error as NodeJS.ErrnoException | undefined)?.code === 'string'
    ? new FileReadError(file, error)
    : error;
}

/** The file's chunks, gunzipped when it starts with gzip's magic number. */
async function* fileChunks(file: string): AsyncGenerator<Buffer> {
  const source = createReadStream(file, { highWaterMark: chunkSize });
  let input: Readable | undefined;
  let gunzip: Readable | undefined;
  try {
    const iterator = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    const first = await iterator.next();
    if (first.done) return;
    const head: Buffer = first.value;
    async function* chunks(): AsyncGenerator<Buffer> {
      yield head;
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
    }
    if (!isGzip(head)) {
      yield* chunks();
      return;
    }
    // Readable.from pulls the compressed chunks only as the gunzip stream asks for them (pipe's back-pressure).
    const unzip = createGunzip({ chunkSize });
    gunzip = unzip;
    input = Readable.from(chunks(), { objectMode: false });
    input.on('error', (error) => unzip.destroy(error));
    input.pipe(unzip);
    for await (const chunk of unzip) yield chunk as Buffer;
  } catch (error) {
    throw readError(file, error);
  } finally {
    gunzip?.destroy();
    input?.destroy();
    source.destroy();
  }
}

/**
 * The file's lines in batches (one batch per chunk read), pulled. Rejects with FileReadError when the file
 * cannot be read (missing, a directory, a broken gzip stream). Stopping the iteration closes the file.
 */
export async function* lineBatches(file: string): AsyncGenerator<RawLine[]> {
  let carry: Buffer[] = []; // the unfinished line: pieces of the previous chunks
  let lineNumber = 0;
  for await (const chunk of fileChunks(file)) {
    const batch: RawLine[] = [];
    let position = 0;
    let newline = chunk.indexOf(10);
    if (carry.length > 0) {
      if (newline === -1) {
        carry.push(chunk);
        continue;
      }
      carry.push(chunk.subarray(0, newline));
      const line = Buffer.concat(carry);
      carry = [];
      batch.push({ bytes: line, start: 0, end: line.length, number: ++lineNumber });
      position = newline + 1;
      newline = chunk.indexOf(10, position);
    }
    while (newline !== -1) {
      batch.push({ bytes: chunk, start: position, end: newline, number: ++lineNumber });
      position = newline + 1;
      newline = chunk.indexOf(10, position);
    }
    // Copy, so the chunk is not kept alive by a short tail.
    if (position < chunk.length) carry.push(Buffer.from(chunk.subarray(position)));
    if (batch.length > 0) yield batch;
  }
  if (carry.length > 0) {
    const line = Buffer.concat(carry);
    if (line.length > 0) yield [{ bytes: line, start: 0, end: line.length, number: ++lineNumber }];
  }
}

/** Whole lines of a file: `bytes[start, end)`, every line ending with its `\n` but an unterminated last line. */
export interface LineBlock {
  bytes: Buffer;
  start: number;
  end: number;
}

/**
 * The file's lines as blocks of whole lines (one block per chunk read, plus one for a line that spans chunks),
 * pulled, for a reader that takes a block's lines itself (and counts them: a block does not say its line numbers).
 * The last block may end without `\n` (the file's unterminated last line). Same line rules and errors as lineBatches.
 */
export async function* lineBlocks(file: string): AsyncGenerator<LineBlock> {
  let carry: Buffer[] = []; // the unfinished line: pieces of the previous chunks
  for await (const chunk of fileChunks(file)) {
    let position = 0;
    if (carry.length > 0) {
      const newline = chunk.indexOf(10);
      if (newline === -1) {
        carry.push(chunk);
        continue;
      }
      carry.push(chunk.subarray(0, newline + 1));
      const line = Buffer.concat(carry);
      carry = [];
      yield { bytes: line, start: 0, end: line.length };
      position = newline + 1;
    }
    const end = chunk.lastIndexOf(10) + 1; // after the last newline (0: none, so nothing was carried either)
    if (end === 0) {
      carry.push(chunk);
      continue;
    }
    if (end > position) yield { bytes: chunk, start: position, end };
    // Copy, so the chunk is not kept alive by a short tail.
    if (end < chunk.length) carry.push(Buffer.from(chunk.subarray(end)));
  }
  if (carry.length > 0) {
    const line = Buffer.concat(carry);
    if (line.length > 0) yield { bytes: line, start: 0, end: line.length };
  }
}

export interface FileHead {
  /** The first lines (decoded: no BOM, no `\r`), at most `maxLines`, from at most `maxBytes` of content; a first
   * line longer than that is given cut. A Parquet file (binary): its first 8 bytes as the one line. */
  lines: string[];
  /** The first bytes of the file as stored (before gunzip): a Parquet file starts with `PAR1`. */
  magic: Buffer;
  gzip: boolean;
}

/** The start of a file, for detection: bounded, so a binary file without newlines is not read whole. */
export async function readHead(file: string, maxLines = 20, maxBytes = 1 << 16): Promise<FileHead> {
  let magic: Buffer;
  try {
    const fd = openSync(file, 'r');
    try {
      const buffer = Buffer.alloc(8);
      magic = buffer.subarray(0, readSync(fd, buffer, 0, 8, null));
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    throw readError(file, error);
  }
  const gzip = isGzip(magic);
  if (magic.subarray(0, 4).toString('latin1') === 'PAR1') return { lines: [magic.toString('latin1')], magic, gzip };
  const pieces: Buffer[] = [];
  let length = 0;
  let newlines = 0;
  for await (const chunk of fileChunks(file)) {
    pieces.push(chunk);
    length += chunk.length;
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) newlines++;
    if (length >= maxBytes || newlines >= maxLines) break;
  }
  const content = Buffer.concat(pieces).subarray(0, maxBytes);
  const lines: string[] = [];
  let position = 0;
  while (lines.length < maxLines) {
    const newline = content.indexOf(10, position);
    // The last piece only when it is the end of the file or the only (cut) line.
    if (newline === -1) {
      if (position < content.length && (length <= maxBytes || lines.length === 0)) {
        lines.push(decodeLine(content, position, content.length, lines.length + 1).text);
      }
      break;
    }
    lines.push(decodeLine(content, position, newline, lines.length + 1).text);
    position = newline + 1;
  }
  return { lines, magic, gzip };
}
