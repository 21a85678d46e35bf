// Bytes kept in memory in fixed-size blocks, addressed by one offset: the records of a gzip file, which cannot be
// read back from disk at an offset without decompressing everything before it.

const blockSize = 1 << 22;

export class ByteStore {
  private readonly blocks: Buffer[] = [];
  /** Bytes stored so far; the offset the next append starts at. */
  length = 0;

  /** Appends `bytes[start, end)` and returns the offset it starts at. */
  append(bytes: Uint8Array, start: number, end: number): number {
    const offset = this.length;
    while (start < end) {
      const block = Math.floor(this.length / blockSize);
      const at = this.length % blockSize;
      if (block === this.blocks.length) this.blocks.push(Buffer.allocUnsafe(blockSize));
      const count = Math.min(end - start, blockSize - at);
      this.blocks[block]!.set(bytes.subarray(start, start + count), at);
      start += count;
      this.length += count;
    }
    return offset;
  }

  /** Forgets everything from `length` on (a row that turned out not to be indexed). */
  truncate(length: number): void {
    this.length = Math.min(length, this.length);
    this.blocks.length = Math.ceil(this.length / blockSize);
  }

  /** A copy of `length` bytes from `offset` (fewer when that runs past the end). */
  read(offset: number, length: number): Buffer {
    length = Math.max(0, Math.min(length, this.length - offset));
    const out = Buffer.allocUnsafe(length);
    let written = 0;
    while (written < length) {
      const block = Math.floor((offset + written) / blockSize);
      const at = (offset + written) % blockSize;
      const count = Math.min(length - written, blockSize - at);
      this.blocks[block]!.copy(out, written, at, at + count);
      written += count;
    }
    return out;
  }
}
