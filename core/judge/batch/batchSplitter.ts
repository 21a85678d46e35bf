// Writes a job's input lines into files within the Batch API's limits — at most `maxRequests` lines and `maxBytes`
// bytes per file (the API: 50,000 requests, 200 MB) — one line at a time, straight to disk, with each file's sha256
// computed as it is written. When the next line would not fit, the file is closed and handed to `onFile` (which
// records, uploads and creates its batch) before the line starts the next one: no whole job's prompts in memory.
import { createHash, type Hash } from 'node:crypto';
import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** The Batch API's limits per batch. */
export interface BatchLimits {
  maxRequests: number;
  maxBytes: number;
}

export const batchApiLimits: BatchLimits = { maxRequests: 50_000, maxBytes: 200 * 1024 * 1024 };

/** A written input file and what it holds. */
export interface WrittenBatchFile<T> {
  path: string;
  sha256: string;
  bytes: number;
  /** What each line stands for, in line order. */
  items: T[];
}

export class BatchSplitter<T> {
  private readonly limits: BatchLimits;
  private readonly folder: string;
  private readonly nameFile: () => string;
  private readonly onFile: (file: WrittenBatchFile<T>) => Promise<void>;
  private current: { fd: number; path: string; hash: Hash; bytes: number; items: T[] } | undefined;

  /** `nameFile` gives each new file's name in `folder`. */
  constructor(options: {
    limits: BatchLimits;
    folder: string;
    nameFile: () => string;
    onFile: (file: WrittenBatchFile<T>) => Promise<void>;
  }) {
    if (!Number.isInteger(options.limits.maxRequests) || options.limits.maxRequests < 1) {
      throw new Error(`expected at least 1 request per batch, found ${options.limits.maxRequests}`);
    }
    this.limits = options.limits;
    this.folder = options.folder;
    this.nameFile = options.nameFile;
    this.onFile = options.onFile;
  }

  /** Adds a line (ending in a newline) standing for `item`. */
  async add(line: string, item: T): Promise<void> {
    const bytes = Buffer.byteLength(line);
    if (bytes > this.limits.maxBytes) {
      throw new Error(`one request is ${bytes} bytes, more than a batch file may hold (${this.limits.maxBytes})`);
    }
    const open = this.current;
    if (open && (open.items.length + 1 > this.limits.maxRequests || open.bytes + bytes > this.limits.maxBytes)) {
      await this.finish();
    }
    if (this.current === undefined) {
      const path = join(this.folder, this.nameFile());
      this.current = { fd: openSync(path, 'wx'), path, hash: createHash('sha256'), bytes: 0, items: [] };
    }
    const file = this.current;
    const buffer = Buffer.from(line);
    writeSync(file.fd, buffer);
    file.hash.update(buffer);
    file.bytes += bytes;
    file.items.push(item);
  }

  /** Drops the file being written, if any (a cancelled run): closed and deleted, never handed over. */
  discard(): void {
    const file = this.current;
    if (file === undefined) return;
    this.current = undefined;
    closeSync(file.fd);
    rmSync(file.path, { force: true });
  }

  /** Closes the file being written, if any, and hands it over. */
  async finish(): Promise<void> {
    const file = this.current;
    if (file === undefined) return;
    this.current = undefined;
    closeSync(file.fd);
    await this.onFile({ path: file.path, sha256: file.hash.digest('hex'), bytes: file.bytes, items: file.items });
  }
}
