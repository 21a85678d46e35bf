// Every (query, docid) pair of the file being linted, exactly: docid bytes are hashed where they lie and copied into
// one byte pool, so a million pairs need no string or Set entry each, and a hash hit is settled by comparing bytes,
// never by guessing. Keeps where each pair first appeared.
//
// Speed: files are grouped by query in practice, and a pair can only repeat within its query. So while each
// query's lines come in one block, lookups go to a small table holding only the current block (it stays in the
// CPU cache, where a table of a million pairs would miss on almost every lookup), and an entry is only its bytes in
// the pool, where its key ends, and its line and column. Unless asked to keep every pair (`keepEveryPair`: a rule
// reads docids after their block, or the file is known not to be grouped), only the current block's entries are
// kept at all: a million-line file then touches no per-line memory (new memory costs page faults as well as
// writes), and a query that comes back makes the index `scattered` — the session then lints the file again,
// keeping every pair. Keeping every pair, the first time a query comes back every pair so far is copied into a
// ByteKeyStore with one index over it (the blocks say each entry's query), which serves from then on.
import { ByteKeyIndex, ByteKeyStore, hashBytes } from '../formats/byteKeyTable.ts';
import { growInt32, growUint8 } from '../formats/growableArrays.ts';
import type { LineView } from './lineView.ts';

export class PairIndex {
  private count = 0;
  /** Whether every entry is kept (else only the current block's: see the file's header). */
  private keepAll = false;
  /** Set when a query came back while only the current block was kept: the index cannot answer exactly. */
  scattered = false;
  // Block mode's entries, from entry `base` on (0 when every entry is kept, else the current block's first): the key
  // of entry e is pool[keyEnds[e - base - 1] (0 for the first), keyEnds[e - base]).
  private base = 0;
  private pool: Uint8Array<ArrayBuffer>;
  private poolLength = 0;
  private keyEnds: Int32Array<ArrayBuffer>;
  private lines: Int32Array<ArrayBuffer>;
  private columns: Int32Array<ArrayBuffer>;
  private readonly expectedPairs: number;
  private readonly expectedDocidBytes: number;

  // The blocks so far (their query and first entry), to give each entry its query when the global index is built.
  private blockQueries = new Int32Array(1024);
  private blockStarts = new Int32Array(1024);
  private blockCount = 0;

  // The current block of one query's lines and its table: slots are [hash, entry], live when their epoch is
  // the current one, so starting a block clears nothing.
  private blockQuery = -1;
  private blockStart = 0;
  private epoch = 0;
  private slots = new Int32Array(2 * 256);
  private epochs = new Int32Array(256);
  private queriesSeen = new Uint8Array(1024);

  /** Set once a query's lines come in more than one block: every entry's key, query and hash, indexed. */
  private global: { store: ByteKeyStore; index: ByteKeyIndex } | undefined;

  /**
   * `expectedPairs` and `expectedDocidBytes` (the average docid's length) size the storage once (it still grows past
   * it): MS MARCO's 28-byte docids in a pool sized for 12 doubled it twice, copying it and holding both copies.
   */
  constructor(expectedPairs = 4096, expectedDocidBytes = 12) {
    this.expectedPairs = expectedPairs;
    this.expectedDocidBytes = expectedDocidBytes;
    // Room for a block; keepEveryPair sizes the arrays for the whole file.
    this.pool = new Uint8Array(256 * expectedDocidBytes);
    this.keyEnds = new Int32Array(256);
    this.lines = new Int32Array(256);
    this.columns = new Int32Array(256);
  }

  get size(): number {
    return this.count;
  }

  /** Keeps every entry (called before the first add). */
  keepEveryPair(): void {
    if (this.keepAll) return;
    this.keepAll = true;
    this.pool = new Uint8Array(this.expectedPairs * this.expectedDocidBytes);
    this.keyEnds = new Int32Array(this.expectedPairs);
    this.lines = new Int32Array(this.expectedPairs);
    this.columns = new Int32Array(this.expectedPairs);
  }

  /**
   * Looks up (line.qid, field `field`) and sets `line.pair` to its entry; when the pair was there already,
   * `line.firstPair` is that first entry too, otherwise the pair is added and `line.firstPair` stays -1.
   */
  add(line: LineView, field: number): void {
    const query = line.qid;
    if (query !== this.blockQuery) this.startBlock(query);
    const bytes = line.bytes;
    const start = line.starts[field]!;
    const end = line.ends[field]!;
    const global = this.global;
    const hash = global ? hashBytes(bytes, start, end, query) : blockHash(bytes, start, end);
    const found = global
      ? global.index.find(query, bytes, start, end, hash)
      : this.findInBlock(bytes, start, end, hash);
    if (found >= 0) {
      line.pair = found;
      line.firstPair = found;
      return;
    }
    const entry = this.count++;
    const local = entry - this.base;
    if (local === this.lines.length) {
      this.lines = growInt32(this.lines, local + 1);
      this.columns = growInt32(this.columns, local + 1);
    }
    if (global) {
      global.store.add(query, bytes, start, end, hash);
      global.index.insert(entry);
    } else {
      this.append(local, bytes, start, end);
      this.insertInBlock(entry, hash);
    }
    this.lines[local] = line.number;
    this.columns[local] = line.column(start);
    line.pair = entry;
    line.firstPair = -1;
  }

  // What an entry is: unless every pair is kept, only for entries of the current block (a rule asks about the
  // first occurrence of a pair when it meets the pair again, in the same block).

  /** The docid of an entry. */
  docid(entry: number): string {
    if (this.global) return this.global.store.keyText(entry);
    const start = this.keyStart(entry);
    return Buffer.from(this.pool.buffer, start, this.keyEnds[entry - this.base]! - start).toString('utf8');
  }

  /** strcmp of the docids of two entries (negative, zero or positive), as trec_eval compares them. */
  compareDocids(a: number, b: number): number {
    if (this.global) return this.global.store.compareKeys(a, b);
    const pool = this.pool;
    let i = this.keyStart(a);
    let j = this.keyStart(b);
    const lengthA = this.keyEnds[a - this.base]! - i;
    const lengthB = this.keyEnds[b - this.base]! - j;
    const end = i + Math.min(lengthA, lengthB);
    for (; i < end; i++, j++) {
      const d = pool[i]! - pool[j]!;
      if (d !== 0) return d;
    }
    return lengthA - lengthB;
  }

  line(entry: number): number {
    return this.lines[entry - this.base]!;
  }

  column(entry: number): number {
    return this.columns[entry - this.base]!;
  }

  private keyStart(entry: number): number {
    const local = entry - this.base;
    return local === 0 ? 0 : this.keyEnds[local - 1]!;
  }

  /** Copies the key of the entry at `local` (its number less `base`) into the pool. */
  private append(local: number, bytes: Uint8Array, start: number, end: number): void {
    let offset = this.poolLength;
    if (offset + end - start > this.pool.length) this.growPool(offset + end - start, local);
    if (local === this.keyEnds.length) this.keyEnds = growInt32(this.keyEnds, local + 1);
    const pool = this.pool;
    for (let i = start; i < end; i++) pool[offset++] = bytes[i]!;
    this.poolLength = offset;
    this.keyEnds[local] = offset;
  }

  /**
   * Makes room for `needed` pool bytes: while fewer entries than expected are stored, for the expected count at the
   * mean key length so far (ids in a file have much the same length), else half as much again.
   */
  private growPool(needed: number, stored: number): void {
    const projected =
      this.keepAll && stored > 0 && stored < this.expectedPairs
        ? Math.ceil((this.poolLength / stored) * this.expectedPairs * 1.03)
        : 0;
    const size = Math.max(needed, projected > this.pool.length ? projected : Math.ceil(this.pool.length * 1.5), 64);
    const pool = new Uint8Array(size);
    pool.set(this.pool.subarray(0, this.poolLength));
    this.pool = pool;
  }

  private startBlock(query: number): void {
    this.blockQuery = query;
    if (this.global) return;
    this.queriesSeen = growUint8(this.queriesSeen, query + 1);
    if (this.queriesSeen[query] === 1) {
      // The query comes back: its earlier pairs are in older blocks, so index everything from now on (or, not
      // having kept them, say so).
      if (this.keepAll) this.indexEverything();
      else this.scattered = true;
      return;
    }
    this.queriesSeen[query] = 1;
    if (!this.keepAll) {
      // Only this block is kept: its entries start over at the beginning of the arrays.
      this.base = this.count;
      this.poolLength = 0;
    }
    const block = this.blockCount++;
    this.blockQueries = growInt32(this.blockQueries, block + 1);
    this.blockStarts = growInt32(this.blockStarts, block + 1);
    this.blockQueries[block] = query;
    this.blockStarts[block] = this.count;
    this.blockStart = this.count;
    this.epoch++;
  }

  /** Moves every entry so far into a store with its query and hash, indexed, and leaves block mode. */
  private indexEverything(): void {
    // Sized for the whole file, as the block arrays were: growing from the pairs so far copied the store again and
    // again (an interleaved run comes back to its first query after a hundredth of its lines).
    const expected = Math.max(this.expectedPairs, this.count * 2, 1024);
    const store = new ByteKeyStore(expected, Math.max(expected * this.expectedDocidBytes, this.poolLength * 2));
    const index = new ByteKeyIndex(store, expected);
    let block = 0;
    for (let entry = 0; entry < this.count; entry++) {
      while (block + 1 < this.blockCount && this.blockStarts[block + 1]! <= entry) block++;
      const query = this.blockQueries[block]!;
      const start = this.keyStart(entry);
      const end = this.keyEnds[entry - this.base]!;
      store.add(query, this.pool, start, end, hashBytes(this.pool, start, end, query));
      index.insert(entry);
    }
    this.global = { store, index };
    this.pool = new Uint8Array(0);
    this.keyEnds = new Int32Array(0);
  }

  private findInBlock(bytes: Uint8Array, start: number, end: number, hash: number): number {
    const slots = this.slots;
    const epochs = this.epochs;
    const epoch = this.epoch;
    const mask = epochs.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      if (epochs[slot] !== epoch) return -1;
      if (slots[2 * slot] === hash && this.sameKey(slots[2 * slot + 1]!, bytes, start, end)) {
        return slots[2 * slot + 1]!;
      }
    }
  }

  /** Whether a block-mode entry's key is bytes[start, end). */
  private sameKey(entry: number, bytes: Uint8Array, start: number, end: number): boolean {
    let at = this.keyStart(entry);
    if (this.keyEnds[entry - this.base]! - at !== end - start) return false;
    const pool = this.pool;
    for (let i = start; i < end; i++, at++) if (pool[at] !== bytes[i]) return false;
    return true;
  }

  private insertInBlock(entry: number, hash: number): void {
    if ((entry - this.blockStart + 1) * 2 > this.epochs.length) {
      // Grow, and place the block's entries (every live slot of the old table) again.
      const oldSlots = this.slots;
      const oldEpochs = this.epochs;
      this.slots = new Int32Array(oldSlots.length * 2);
      this.epochs = new Int32Array(oldEpochs.length * 2);
      for (let slot = 0; slot < oldEpochs.length; slot++) {
        if (oldEpochs[slot] === this.epoch) this.place(oldSlots[2 * slot + 1]!, oldSlots[2 * slot]!);
      }
    }
    this.place(entry, hash);
  }

  private place(entry: number, hash: number): void {
    const slots = this.slots;
    const epochs = this.epochs;
    const epoch = this.epoch;
    const mask = epochs.length - 1;
    let slot = hash & mask;
    while (epochs[slot] === epoch) slot = (slot + 1) & mask;
    epochs[slot] = epoch;
    slots[2 * slot] = hash;
    slots[2 * slot + 1] = entry;
  }
}

/**
 * The hash of a key in the current block's table: a multiply and a shift per four bytes (cheaper than hashBytes's
 * MurmurHash3, which the index over every pair keeps); the table holds one query's pairs, and every hit is still
 * settled by comparing bytes.
 */
export function blockHash(bytes: Uint8Array, start: number, end: number): number {
  let h = end - start;
  let i = start;
  for (const last = end - 4; i <= last; i += 4) {
    h = Math.imul(h ^ (bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24)), 0x9e3779b1);
    h ^= h >>> 15;
  }
  for (; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x9e3779b1);
  return h ^ (h >>> 16);
}
