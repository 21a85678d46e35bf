// Every (query, docid) pair of the file being linted, exactly: docid bytes are hashed where they lie and kept in
// a ByteKeyStore grouped by the interned query, so a million pairs need no string or Set entry each, and a hash
// hit is settled by comparing bytes, never by guessing. Keeps where each pair first appeared.
//
// Speed: files are grouped by query in practice, and a pair can only repeat within its query. So while each
// query's lines come in one block, lookups go to a small table holding only the current block (it stays in the
// CPU cache, where a table of a million pairs would miss on almost every lookup). The first time a query comes
// back after another one, every pair so far goes into one index over the whole store, which serves from then on.
import { ByteKeyIndex, ByteKeyStore, hashBytes } from '../formats/byteKeyTable.ts';
import { growInt32, growUint8 } from '../formats/growableArrays.ts';
import type { LineView } from './lineView.ts';

export class PairIndex {
  private readonly store: ByteKeyStore;
  private lines: Int32Array<ArrayBuffer>;
  private columns: Int32Array<ArrayBuffer>;

  // The current block of one query's lines and its table: slots are [hash, entry], live when their epoch is
  // the current one, so starting a block clears nothing.
  private blockQuery = -1;
  private blockStart = 0;
  private epoch = 0;
  private slots = new Int32Array(2 * 256);
  private epochs = new Int32Array(256);
  private queriesSeen = new Uint8Array(1024);

  /** Set once a query's lines come in more than one block. */
  private global: ByteKeyIndex | undefined;

  /**
   * `expectedPairs` and `expectedDocidBytes` (the average docid's length) size the storage once (it still grows past
   * it): MS MARCO's 28-byte docids in a pool sized for 12 doubled it twice, copying it and holding both copies.
   */
  constructor(expectedPairs = 4096, expectedDocidBytes = 12) {
    this.store = new ByteKeyStore(expectedPairs, expectedPairs * expectedDocidBytes);
    this.lines = new Int32Array(expectedPairs);
    this.columns = new Int32Array(expectedPairs);
  }

  get count(): number {
    return this.store.count;
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
    const hash = hashBytes(bytes, start, end, query);
    const found = this.global
      ? this.global.find(query, bytes, start, end, hash)
      : this.findInBlock(query, bytes, start, end, hash);
    if (found >= 0) {
      line.pair = found;
      line.firstPair = found;
      return;
    }
    const entry = this.store.add(query, bytes, start, end, hash);
    if (this.global) this.global.insert(entry);
    else this.insertInBlock(entry, hash);
    if (entry >= this.lines.length) {
      this.lines = growInt32(this.lines, entry + 1);
      this.columns = growInt32(this.columns, entry + 1);
    }
    this.lines[entry] = line.number;
    this.columns[entry] = line.column(start);
    line.pair = entry;
    line.firstPair = -1;
  }

  /** The docid of an entry. */
  docid(entry: number): string {
    return this.store.keyText(entry);
  }

  /** strcmp of the docids of two entries (negative, zero or positive), as trec_eval compares them. */
  compareDocids(a: number, b: number): number {
    return this.store.compareKeys(a, b);
  }

  line(entry: number): number {
    return this.lines[entry]!;
  }

  column(entry: number): number {
    return this.columns[entry]!;
  }

  private startBlock(query: number): void {
    this.blockQuery = query;
    if (this.global) return;
    this.queriesSeen = growUint8(this.queriesSeen, query + 1);
    if (this.queriesSeen[query] === 1) {
      // The query comes back: its earlier pairs are in older blocks, so index everything from now on.
      const store = this.store;
      this.global = new ByteKeyIndex(store, Math.max(store.count * 2, 1024));
      for (let entry = 0; entry < store.count; entry++) this.global.insert(entry);
      return;
    }
    this.queriesSeen[query] = 1;
    this.blockStart = this.store.count;
    this.epoch++;
  }

  private findInBlock(query: number, bytes: Uint8Array, start: number, end: number, hash: number): number {
    const slots = this.slots;
    const epochs = this.epochs;
    const epoch = this.epoch;
    const mask = epochs.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      if (epochs[slot] !== epoch) return -1;
      if (slots[2 * slot] === hash) {
        const entry = slots[2 * slot + 1]!;
        if (this.store.matches(entry, query, bytes, start, end)) return entry;
      }
    }
  }

  private insertInBlock(entry: number, hash: number): void {
    if ((entry - this.blockStart + 1) * 2 > this.epochs.length) {
      // Grow, and index the block's entries (all entries since it started) again.
      this.slots = new Int32Array(this.slots.length * 2);
      this.epochs = new Int32Array(this.epochs.length * 2);
      for (let e = this.blockStart; e < entry; e++) this.place(e, this.store.hash(e));
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
