// Streams a text file (plain or gzip, detected by its magic bytes, not its name) line by line as byte ranges, so
// millions of lines are read without creating a string per line. Shared by every reader of large files.
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';

/**
 * Called once per line: `bytes[start, end)` is the line without its `\n` (a `\r` before it is kept: callers
 * decide whether CRLF matters). `lineNumber` is 1-based. The buffer is reused after the call returns.
 * Returning `false` stops the reading (the rest of the file is not read).
 */
export type LineHandler = (bytes: Buffer, start: number, end: number, lineNumber: number) => unknown;

export interface LineReadSummary {
  lines: number;
  bytes: number;
  /** false when the last line is not terminated by `\n` (an empty file counts as terminated). */
  endsWithNewline: boolean;
  gzip: boolean;
  /** True when the handler stopped the reading before the end of the file. */
  stopped: boolean;
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

const chunkSize = 1 << 19;

/**
 * Estimated number of lines of a plain file, from its size and the line density of three 64 KiB samples (start,
 * middle, end: ids grow longer down a file); used to size column storage once instead of growing it.
 * Undefined for gzip files (their size says little).
 */
export function estimateLineCount(file: string): number | undefined {
  let fd: number | undefined;
  try {
    // stat before opening: opening a named pipe and closing it unread would lose what its writer wrote, and the
    // reader's own open would then wait for a writer that is gone.
    const stat = statSync(file);
    if (!stat.isFile()) return undefined; // a pipe or a device: no size, and no seeking
    fd = openSync(file, 'r');
    const size = stat.size;
    const sample = Buffer.allocUnsafe(Math.min(size, 1 << 16));
    let sampled = 0;
    let lines = 0;
    for (const position of [0, Math.floor((size - sample.length) / 2), size - sample.length]) {
      const read = readSync(fd, sample, 0, sample.length, position);
      if (position === 0 && read >= 2 && sample[0] === 0x1f && sample[1] === 0x8b) return undefined;
      sampled += read;
      for (let i = sample.indexOf(10); i !== -1 && i < read; i = sample.indexOf(10, i + 1)) lines++;
    }
    return sampled === 0 ? 0 : Math.ceil((size * Math.max(lines, 1)) / sampled);
  } catch (error) {
    throw new FileReadError(file, error);
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * The file's content as a stream of chunks, gunzipped when its first bytes are gzip's magic number. Sniffing the
 * first chunk instead of seeking keeps pipes and process substitution (`<(zcat …)`) readable.
 */
interface Content {
  chunks: AsyncIterable<Buffer>;
  gzip: boolean;
  /** Releases the file when reading stops early. */
  close(): void;
}

/** A byte range of a plain file: [start, end). */
export interface ByteRange {
  start: number;
  end: number;
}

async function openContent(file: string, range?: ByteRange): Promise<Content> {
  // A plain file is read into one buffer, reused chunk after chunk (handlers must not keep it, see LineHandler): a
  // stream allocates a new 512 KiB chunk per read, and the dead ones waited for a garbage collection — tens of MB of
  // peak memory on a file read several times (an interleaved run).
  const handle = await open(file, 'r');
  let closed = false;
  const closeHandle = (): void => {
    if (!closed) void handle.close().catch(() => {});
    closed = true;
  };
  let buffer = Buffer.allocUnsafe(chunkSize);
  // A range is read at explicit positions (and is never gzip: its caller checked the file is plain).
  let position = range ? range.start : null;
  const readAt = async (): Promise<number> => {
    if (position === null) return (await handle.read(buffer, 0, chunkSize, null)).bytesRead;
    const length = Math.min(chunkSize, range!.end - position);
    if (length <= 0) return 0;
    const read = (await handle.read(buffer, 0, length, position)).bytesRead;
    position += read;
    return read;
  };
  let first: number;
  try {
    first = await readAt();
  } catch (error) {
    closeHandle();
    throw error;
  }
  const gzip = !range && first >= 2 && buffer[0] === 0x1f && buffer[1] === 0x8b;
  if (!gzip) {
    async function* plain(): AsyncGenerator<Buffer> {
      let read = first;
      while (read > 0) {
        yield buffer.subarray(0, read);
        read = await readAt();
      }
    }
    return { chunks: plain(), gzip, close: closeHandle };
  }
  const head = Buffer.from(buffer.subarray(0, first));
  buffer = Buffer.alloc(0);
  const source = handle.createReadStream({ highWaterMark: chunkSize });
  const close = (): void => {
    source.destroy();
    closeHandle();
  };
  async function* compressed(): AsyncGenerator<Buffer> {
    yield head;
    yield* source;
  }
  // Loaded for gzip files only: node:stream and node:zlib cost a thread that never reads one (eval's second thread)
  // ~60 ms of compiling at its start.
  const { stream, zlib } = gzipModules();
  const gunzip = zlib.createGunzip({ chunkSize });
  stream.Readable.from(compressed())
    .on('error', (error) => gunzip.destroy(error))
    .pipe(gunzip);
  return {
    chunks: gunzip,
    gzip,
    close: () => {
      gunzip.destroy();
      close();
    },
  };
}

/** node:stream and node:zlib, loaded when first needed: process.getBuiltinModule (Node 20.16+, 22.3+), else require —
 * the CommonJS bundles on an older Node (VS Code 1.91's extension host runs Node 20.14). */
function gzipModules(): { stream: typeof import('node:stream'); zlib: typeof import('node:zlib') } {
  return {
    stream: process.getBuiltinModule?.('node:stream') ?? require('node:stream'),
    zlib: process.getBuiltinModule?.('node:zlib') ?? require('node:zlib'),
  };
}

/**
 * Reads `file` and calls `onLine` for each line, in order. Rejects with FileReadError when it cannot be read.
 * With `range`, only the bytes [start, end) of a plain file are read (line numbers then count from the range's start).
 */
export async function readLines(file: string, onLine: LineHandler, range?: ByteRange): Promise<LineReadSummary> {
  let carry: Buffer | undefined; // an unfinished line from the previous chunks
  let carryParts: Buffer[] = []; // chunks without a newline, joined once the line ends (no quadratic copying)
  let lineNumber = 0;
  let bytes = 0;
  let stopped = false;
  let gzip = false;
  let content: Content | undefined;
  try {
    content = await openContent(file, range);
    gzip = content.gzip;
    reading: for await (const chunk of content.chunks) {
      bytes += chunk.length;
      let buffer = chunk;
      let position = 0;
      if (carry) {
        const newline = chunk.indexOf(10);
        if (newline === -1) {
          carryParts.push(Buffer.from(chunk)); // a copy: the chunk's buffer is read into again
          continue;
        }
        buffer = Buffer.concat([carry, ...carryParts, chunk.subarray(0, newline + 1)]);
        carry = undefined;
        carryParts = [];
        if (onLine(buffer, 0, buffer.length - 1, ++lineNumber) === false) {
          stopped = true;
          break;
        }
        buffer = chunk;
        position = newline + 1;
      }
      for (;;) {
        const newline = buffer.indexOf(10, position);
        if (newline === -1) break;
        if (onLine(buffer, position, newline, ++lineNumber) === false) {
          stopped = true;
          break reading;
        }
        position = newline + 1;
      }
      // Copy, so the stream's chunk can be released.
      if (position < buffer.length) carry = Buffer.from(buffer.subarray(position));
    }
  } catch (error) {
    // Errors of the stream (system or zlib, which carry a code) become a FileReadError; an error thrown by the
    // handler (a FormatError, say) passes through unchanged.
    if (typeof (error as NodeJS.ErrnoException | undefined)?.code === 'string') throw new FileReadError(file, error);
    throw error;
  } finally {
    content?.close();
  }
  if (stopped) return { lines: lineNumber, bytes, endsWithNewline: true, gzip, stopped };
  if (carry && carryParts.length > 0) carry = Buffer.concat([carry, ...carryParts]);
  if (carry && carry.length > 0) stopped = onLine(carry, 0, carry.length, ++lineNumber) === false;
  return { lines: lineNumber, bytes, endsWithNewline: !carry || carry.length === 0, gzip, stopped };
}

/**
 * Called with `bytes[start, end)`: whole lines, each ending with `\n` (the handler finds them itself, splitting each
 * while it looks for its end). A last line without `\n` comes alone, in the last call. The buffer is reused after the
 * call returns. Returning `false` stops the reading.
 */
export type BlockHandler = (bytes: Buffer, start: number, end: number) => unknown;

export interface BlockReadSummary {
  /** false when the last line is not terminated by `\n` (an empty file counts as terminated). */
  endsWithNewline: boolean;
  /** True when the handler stopped the reading before the end of the file. */
  stopped: boolean;
}

const blockSize = 1 << 19;
/** Bytes read between two yields to the event loop: the extension host and the language server read runs and qrels
 * too, and must stay responsive meanwhile (2 MB is ~10 ms of scanning a run; yielding costs nothing measurable). */
const bytesBetweenYields = 2 << 20;

/**
 * Reads a plain regular file (or the byte range [start, end) of one, which must start at a line's start) in blocks of
 * whole lines, with synchronous reads into one reused buffer: no libuv pool round trip per read (the thread idled
 * meanwhile) and no native call per line. A line longer than the buffer grows it. Resolves to undefined, having read
 * at most its first bytes, when the file is gzip or not a regular file (a pipe, a device): the caller then reads it
 * with readLines. Rejects with FileReadError when the file cannot be read; a handler's error passes through.
 */
export async function readLineBlocks(
  file: string,
  onBlock: BlockHandler,
  range?: ByteRange,
): Promise<BlockReadSummary | undefined> {
  let fd: number | undefined;
  try {
    // stat before opening: opening a named pipe and closing it unread would lose what its writer wrote.
    if (!range && !statSync(file).isFile()) return undefined;
    fd = openSync(file, 'r');
    const end = range ? range.end : Number.POSITIVE_INFINITY;
    let position = range ? range.start : 0;
    let buffer = Buffer.allocUnsafe(blockSize);
    let filled = 0; // bytes of an unfinished line at the start of the buffer
    let sinceYield = 0;
    for (;;) {
      if (filled === buffer.length) {
        const longer = Buffer.allocUnsafe(buffer.length * 2);
        buffer.copy(longer, 0, 0, filled);
        buffer = longer;
      }
      const length = Math.min(buffer.length - filled, end - position);
      const read = length > 0 ? readSync(fd, buffer, filled, length, position) : 0;
      if (!range && position === 0 && read >= 2 && buffer[0] === 0x1f && buffer[1] === 0x8b) return undefined;
      if (read === 0) break;
      position += read;
      const stop = filled + read;
      const lastNewline = buffer.lastIndexOf(10, stop - 1);
      filled = stop;
      if (lastNewline === -1) continue;
      if (onBlock(buffer, 0, lastNewline + 1) === false) return { endsWithNewline: true, stopped: true };
      buffer.copyWithin(0, lastNewline + 1, stop);
      filled = stop - lastNewline - 1;
      sinceYield += read;
      if (sinceYield >= bytesBetweenYields) {
        sinceYield = 0;
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    }
    const stopped = filled > 0 && onBlock(buffer, 0, filled) === false;
    return { endsWithNewline: filled === 0, stopped };
  } catch (error) {
    // System errors (which carry a code) become a FileReadError; the handler's own errors pass through unchanged.
    if (typeof (error as NodeJS.ErrnoException | undefined)?.code === 'string') throw new FileReadError(file, error);
    throw error;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Reads a plain file synchronously from byte `position` (a line's start, numbered `lineNumber`), calling `onLine` per
 * line until it returns false or the file ends. For the rare look back at a line (an error's position), not for bulk
 * reading.
 */
export function readLinesSync(file: string, position: number, lineNumber: number, onLine: LineHandler): void {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    let buffer = Buffer.allocUnsafe(1 << 16);
    let filled = 0;
    let line = lineNumber;
    for (;;) {
      if (filled === buffer.length) {
        const longer = Buffer.allocUnsafe(buffer.length * 2);
        buffer.copy(longer, 0, 0, filled);
        buffer = longer;
      }
      const read = readSync(fd, buffer, filled, buffer.length - filled, position);
      position += read;
      const end = filled + read;
      let start = 0;
      for (
        let newline = buffer.indexOf(10, filled);
        newline !== -1 && newline < end;
        newline = buffer.indexOf(10, start)
      ) {
        if (onLine(buffer, start, newline, line++) === false) return;
        start = newline + 1;
      }
      if (read === 0) {
        if (start < end) onLine(buffer, start, end, line);
        return;
      }
      buffer.copyWithin(0, start, end);
      filled = end - start;
    }
  } catch (error) {
    if (typeof (error as NodeJS.ErrnoException | undefined)?.code === 'string') throw new FileReadError(file, error);
    throw error;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
