// An exact hash table from (group, byte string) to an entry index, for millions of (query, docid) keys without a
// JavaScript string or Map entry per key. Keys are copied into one byte pool; a lookup hashes the bytes where
// they lie in the input buffer and confirms a hit by comparing bytes, so collisions never merge two keys.

const initialEntries = 1 << 12;

export function hashBytes(bytes: Uint8Array, start: number, end: number, group: number): number {
  let h = 0x811c9dc5 ^ Math.imul(group, 0x9e3779b1);
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  // Final avalanche so that keys differing only in their last byte spread over the table.
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h | 0;
}

export class ByteKeyTable {
  /** Number of entries appended (indexed or not). */
  count = 0;
  private pool = new Uint8Array(1 << 16);
  private poolLength = 0;
  private groups = new Int32Array(initialEntries);
  private offsets = new Int32Array(initialEntries);
  private lengths = new Int32Array(initialEntries);
  private hashes = new Int32Array(initialEntries);
  private slots = new Int32Array(initialEntries * 2); // entry index + 1; 0 = empty
  private indexed = 0;

  group(entry: number): number {
    return this.groups[entry]!;
  }

  /** The entry's key bytes (a view into the pool, valid until the next append). */
  keyBytes(entry: number): Uint8Array {
    const offset = this.offsets[entry]!;
    return this.pool.subarray(offset, offset + this.lengths[entry]!);
  }

  keyText(entry: number): string {
    const offset = this.offsets[entry]!;
    return Buffer.from(this.pool.buffer, offset, this.lengths[entry]!).toString('utf8');
  }

  /** strcmp of the keys of two entries: negative, zero or positive. */
  compareKeys(a: number, b: number): number {
    const pool = this.pool;
    let i = this.offsets[a]!;
    let j = this.offsets[b]!;
    const lengthA = this.lengths[a]!;
    const lengthB = this.lengths[b]!;
    const end = i + Math.min(lengthA, lengthB);
    for (; i < end; i++, j++) {
      const d = pool[i]! - pool[j]!;
      if (d !== 0) return d;
    }
    return lengthA - lengthB;
  }

  /** Index of the indexed entry with this key, or -1. */
  find(group: number, bytes: Uint8Array, start: number, end: number, hash: number): number {
    const slots = this.slots;
    const mask = slots.length - 1;
    const length = end - start;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const stored = slots[slot]!;
      if (stored === 0) return -1;
      const entry = stored - 1;
      if (this.hashes[entry] === hash && this.groups[entry] === group && this.lengths[entry] === length) {
        const offset = this.offsets[entry]!;
        let i = 0;
        while (i < length && this.pool[offset + i] === bytes[start + i]) i++;
        if (i === length) return entry;
      }
    }
  }

  /**
   * Appends an entry with this key and returns its index. With `index` the entry becomes findable (the caller has
   * checked that the key is not there yet); without, it is stored only (e.g. a duplicate kept for later checks).
   */
  append(group: number, bytes: Uint8Array, start: number, end: number, hash: number, index: boolean): number {
    const entry = this.count++;
    if (entry === this.groups.length) this.growEntries();
    const length = end - start;
    if (this.poolLength + length > this.pool.length) this.growPool(length);
    this.pool.set(bytes.subarray(start, end), this.poolLength);
    this.groups[entry] = group;
    this.offsets[entry] = this.poolLength;
    this.lengths[entry] = length;
    this.hashes[entry] = hash;
    this.poolLength += length;
    if (index) {
      if ((this.indexed + 1) * 2 > this.slots.length) this.rehash(this.slots.length * 2);
      this.place(entry);
      this.indexed++;
    }
    return entry;
  }

  private place(entry: number): void {
    const slots = this.slots;
    const mask = slots.length - 1;
    let slot = this.hashes[entry]! & mask;
    while (slots[slot] !== 0) slot = (slot + 1) & mask;
    slots[slot] = entry + 1;
  }

  private rehash(size: number): void {
    const old = this.slots;
    this.slots = new Int32Array(size);
    for (let i = 0; i < old.length; i++) if (old[i] !== 0) this.place(old[i]! - 1);
  }

  private growEntries(): void {
    const grow = (a: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> => {
      const b = new Int32Array(a.length * 2);
      b.set(a);
      return b;
    };
    this.groups = grow(this.groups);
    this.offsets = grow(this.offsets);
    this.lengths = grow(this.lengths);
    this.hashes = grow(this.hashes);
  }

  private growPool(needed: number): void {
    const pool = new Uint8Array(Math.max(this.pool.length * 2, this.poolLength + needed));
    pool.set(this.pool.subarray(0, this.poolLength));
    this.pool = pool;
  }
}
