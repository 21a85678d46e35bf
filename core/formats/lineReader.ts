// Streams a text file (plain or gzip, detected by its magic bytes, not its name) line by line as byte ranges, so
// millions of lines are read without creating a string per line. Shared by every reader of large files.
import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import { createGunzip } from 'node:zlib';

/**
 * Called once per line: `bytes[start, end)` is the line without its `\n` (a `\r` before it is kept: callers
 * decide whether CRLF matters). `lineNumber` is 1-based. The buffer is reused after the call returns.
 */
export type LineHandler = (bytes: Buffer, start: number, end: number, lineNumber: number) => void;

export interface LineReadSummary {
  lines: number;
  bytes: number;
  /** false when the last line is not terminated by `\n` (an empty file counts as terminated). */
  endsWithNewline: boolean;
  gzip: boolean;
}

export class FileReadError extends Error {
  readonly file: string;
  constructor(file: string, cause: unknown) {
    const code = (cause as NodeJS.ErrnoException | undefined)?.code;
    const reason =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'is a directory'
          : code === 'EACCES'
            ? 'permission denied'
            : code === 'Z_DATA_ERROR' || code === 'Z_BUF_ERROR'
              ? `not a valid gzip file (${(cause as Error).message})`
              : cause instanceof Error
                ? cause.message
                : String(cause);
    super(`${file}: cannot read: ${reason}`);
    this.file = file;
  }
}

const chunkSize = 1 << 20;

export function isGzipFile(file: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const head = Buffer.alloc(2);
    return readSync(fd, head, 0, 2, 0) === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } catch (error) {
    throw new FileReadError(file, error);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Reads `file` and calls `onLine` for each line, in order. Rejects with FileReadError when it cannot be read. */
export async function readLines(file: string, onLine: LineHandler): Promise<LineReadSummary> {
  const gzip = isGzipFile(file);
  const source = createReadStream(file, { highWaterMark: chunkSize });
  const stream = gzip ? source.pipe(createGunzip({ chunkSize })) : source;
  if (gzip) source.on('error', (error) => stream.destroy(error));

  let carry: Buffer | undefined; // an unfinished line from the previous chunk
  let lineNumber = 0;
  let bytes = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      let buffer = chunk;
      let position = 0;
      if (carry) {
        const newline = chunk.indexOf(10);
        if (newline === -1) {
          carry = Buffer.concat([carry, chunk]);
          continue;
        }
        buffer = Buffer.concat([carry, chunk.subarray(0, newline + 1)]);
        onLine(buffer, 0, buffer.length - 1, ++lineNumber);
        carry = undefined;
        buffer = chunk;
        position = newline + 1;
      }
      for (;;) {
        const newline = buffer.indexOf(10, position);
        if (newline === -1) break;
        onLine(buffer, position, newline, ++lineNumber);
        position = newline + 1;
      }
      // Copy, so the stream's chunk can be released.
      if (position < buffer.length) carry = Buffer.from(buffer.subarray(position));
    }
  } catch (error) {
    throw new FileReadError(file, error);
  }
  if (carry && carry.length > 0) onLine(carry, 0, carry.length, ++lineNumber);
  return { lines: lineNumber, bytes, endsWithNewline: !carry || carry.length === 0, gzip };
}
