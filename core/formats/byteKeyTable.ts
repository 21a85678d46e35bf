// Exact keyed storage for millions of (group, byte string) keys — (query, docid) pairs — without a JavaScript
// string or Map entry per key. `ByteKeyStore` copies keys into one byte pool with their metadata interleaved in
// one Int32Array (one cache line per entry); `ByteKeyIndex` is an open-addressing hash index over a store whose
// slots hold [hash, entry + 1] side by side. A hit is always confirmed by comparing bytes, so hash collisions can
// never merge two keys.

/**
 * A hash of the bytes, seeded by the group: four bytes per step, each step a rotate, xor and one multiplication
 * (FxHash's step; MurmurHash3's three multiplications a step cost as much as reading the line), then MurmurHash3's
 * finaliser, so that every bit of the key reaches the high bits that GroupedByteKeyIndex probes with. Kept to 30
 * bits: a small integer (Smi) in V8, where a 32-bit one is boxed as a heap number when passed or returned.
 * ByteKeyStore.addHashing computes the same hash while copying a key.
 */
export function hashBytes(bytes: Uint8Array, start: number, end: number, group: number): number {
  let h = hashStart(group);
  let i = start;
  for (const last = end - 4; i <= last; i += 4) {
    h = hashStep(h, bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24));
  }
  // The last 1–3 bytes, little-endian as the words above.
  if (i < end) {
    let k = 0;
    for (let shift = 0; i < end; i++, shift += 8) k |= bytes[i]! << shift;
    h = hashStep(h, k);
  }
  return finishHash(h, end - start);
}

function hashStart(seed: number): number {
  return 0x811c9dc5 ^ Math.imul(seed, 0x9e3779b1);
}

/** One word of the key into the running hash. */
function hashStep(h: number, word: number): number {
  return Math.imul(((h << 5) | (h >>> 27)) ^ word, 0x27220a95);
}

/** MurmurHash3's finaliser over the running hash and the key's length, kept to 30 bits. */
function finishHash(running: number, length: number): number {
  let h = running ^ length;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h & 0x3fffffff;
}

const stride = 4; // hash, group, offset, length

const nativeLittleEndian = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** The whole words of a pool (pools are allocated in whole words, at offset 0 of their buffer). */
function wordsOf(pool: Uint8Array<ArrayBufferLike>): Int32Array<ArrayBufferLike> {
  return new Int32Array(pool.buffer, pool.byteOffset, pool.length >> 2);
}

/** Typed arrays on a SharedArrayBuffer when `shared` (another thread then reads them without a copy). */
export function newInt32Array(length: number, shared: boolean): Int32Array<ArrayBufferLike> {
  return shared ? new Int32Array(new SharedArrayBuffer(length * 4)) : new Int32Array(length);
}

export function newUint8Array(length: number, shared: boolean): Uint8Array<ArrayBufferLike> {
  return shared ? new Uint8Array(new SharedArrayBuffer(length)) : new Uint8Array(length);
}

/** A store's arrays as posted to another thread (on SharedArrayBuffers: nothing is copied). */
export interface SharedByteKeyStore {
  count: number;
  meta: Int32Array<ArrayBufferLike>;
  pool: Uint8Array<ArrayBufferLike>;
  poolLength: number;
  /** The prefix left out of keys (see leaveOutPrefix); absent: none. */
  prefix?: Uint8Array;
}

export class ByteKeyStore {
  count = 0;
  private meta: Int32Array<ArrayBufferLike>;
  private pool: Uint8Array<ArrayBufferLike>;
  /** The pool as 32-bit words (addHashing copies a key four bytes at a time, at an offset that is a multiple of 4). */
  private words: Int32Array<ArrayBufferLike>;
  private poolLength = 0;
  /**
   * Leading bytes most keys share (see leaveOutPrefix), a whole number of words: a key that starts with them is
   * stored without them, its meta offset then written as ~offset (negative).
   */
  private prefix: Uint8Array = new Uint8Array(0);
  private prefixWords: Int32Array = new Int32Array(0);
  private prefixSeed = 0;
  /** hashBytes's running state after the prefix's words, from prefixSeed. */
  private prefixHash = 0;
  private readonly expectedEntries: number;
  private readonly shared: boolean;

  /** `shared`: the arrays live on SharedArrayBuffers, so that `shareable()` hands them to another thread. */
  constructor(expectedEntries = 1024, expectedKeyBytes = expectedEntries * 12, shared = false) {
    this.expectedEntries = expectedEntries;
    this.shared = shared;
    this.meta = newInt32Array(Math.max(expectedEntries, 16) * stride, shared);
    this.pool = newUint8Array(Math.max(Math.ceil(expectedKeyBytes / 4) * 4, 64), shared);
    this.words = wordsOf(this.pool);
  }

  /** The arrays of a store built with `shared`, for `fromShared` in another thread (which only reads them). */
  shareable(): SharedByteKeyStore {
    return { count: this.count, meta: this.meta, pool: this.pool, poolLength: this.poolLength, prefix: this.prefix };
  }

  static fromShared(shared: SharedByteKeyStore): ByteKeyStore {
    const store = new ByteKeyStore(16, 64);
    store.meta = shared.meta;
    store.pool = shared.pool;
    store.words = wordsOf(shared.pool);
    // Read only there: the prefix's bytes are what matters, not the seed of its hash.
    if (shared.prefix) store.leaveOutPrefix(shared.prefix, 0, shared.prefix.length, 0);
    store.count = shared.count;
    store.poolLength = shared.poolLength;
    return store;
  }

  /**
   * Leaves the first bytes of bytes[start, end) (a whole number of words of them) out of every key added by
   * addHashing with this seed that starts with them: docids of one collection share a long prefix
   * (`msmarco_passage_`: 16 of 28 bytes), which then costs no memory, no copying and no hashing per key. Only
   * on an empty store.
   */
  leaveOutPrefix(bytes: Uint8Array, start: number, end: number, seed: number): void {
    if (this.count !== 0) throw new Error('leaveOutPrefix on a store that has keys');
    const length = (end - start) & ~3;
    this.prefix = Uint8Array.from(bytes.subarray(start, start + length));
    const view = new DataView(this.prefix.buffer);
    this.prefixWords = new Int32Array(length >> 2);
    let h = hashStart(seed);
    for (let word = 0; word < this.prefixWords.length; word++) {
      const k = view.getInt32(word * 4, true);
      this.prefixWords[word] = k;
      h = hashStep(h, k);
    }
    this.prefixSeed = seed;
    this.prefixHash = h;
  }

  /** True when view[start, …) starts with the prefix (the caller checked the key is as long). */
  private startsWithPrefix(view: DataView, start: number): boolean {
    const words = this.prefixWords;
    for (let word = 0; word < words.length; word++)
      if (view.getInt32(start + word * 4, true) !== words[word]) return false;
    return true;
  }

  /** Forgets every entry, keeping the memory for reuse. */
  clear(): void {
    this.count = 0;
    this.poolLength = 0;
  }

  hash(entry: number): number {
    return this.meta[entry * stride]!;
  }

  group(entry: number): number {
    return this.meta[entry * stride + 1]!;
  }

  keyText(entry: number): string {
    return Buffer.from(this.keyBytes(entry)).toString('utf8');
  }

  /** The key's bytes (a view of the pool, or a copy when the prefix was left out). */
  private keyBytes(entry: number): Uint8Array {
    const at = entry * stride;
    const offset = this.meta[at + 2]!;
    const length = this.meta[at + 3]!;
    const pool = this.pool;
    if (offset >= 0) return new Uint8Array(pool.buffer, pool.byteOffset + offset, length);
    const key = new Uint8Array(length);
    key.set(this.prefix);
    key.set(pool.subarray(~offset, ~offset + length - this.prefix.length), this.prefix.length);
    return key;
  }

  /** Appends a key and returns its entry number. */
  add(group: number, bytes: Uint8Array, start: number, end: number, hash: number): number {
    const entry = this.count++;
    let at = entry * stride;
    if (at === this.meta.length) {
      const meta = newInt32Array(this.meta.length * 2, this.shared);
      meta.set(this.meta);
      this.meta = meta;
    }
    const length = end - start;
    let offset = this.poolLength;
    if (offset + length > this.pool.length) this.growPool(offset + length);
    const pool = this.pool;
    for (let i = start; i < end; i++) pool[offset++] = bytes[i]!;
    this.poolLength = offset;
    const meta = this.meta;
    meta[at++] = hash;
    meta[at++] = group;
    meta[at++] = offset - length;
    meta[at] = length;
    return entry;
  }

  /**
   * Appends the key view[start, end), hashing it as `hashBytes(…, seed)` does while copying it (one pass, four
   * bytes at a time: byte by byte, copying a 28-byte docid cost more than hashing it), and returns its entry
   * number; `hash(entry)` is that hash.
   */
  addHashing(group: number, view: DataView, start: number, end: number, seed: number): number {
    // A word's bytes in pool order are its little-endian bytes: stored as one word on a little-endian machine only.
    if (!nativeLittleEndian) {
      const key = new Uint8Array(view.buffer, view.byteOffset + start, end - start);
      return this.add(group, key, 0, key.length, hashBytes(key, 0, key.length, seed));
    }
    const entry = this.count++;
    let at = entry * stride;
    if (at === this.meta.length) this.growMeta();
    const length = end - start;
    const prefixLength = this.prefix.length;
    const prefixed =
      prefixLength !== 0 && seed === this.prefixSeed && length >= prefixLength && this.startsWithPrefix(view, start);
    let h = prefixed ? this.prefixHash : hashStart(seed);
    let i = prefixed ? start + prefixLength : start;
    const offset = (this.poolLength + 3) & ~3;
    if (offset + (end - i) + 3 > this.pool.length) this.growPool(offset + (end - i) + 3);
    let word = offset >> 2;
    const words = this.words;
    // hashStep written out: as a call it was not always inlined here (19 ms of 1M calls in a CPU profile).
    for (const last = end - 4; i <= last; i += 4) {
      const k = view.getInt32(i, true);
      words[word++] = k;
      h = Math.imul(((h << 5) | (h >>> 27)) ^ k, 0x27220a95);
    }
    if (i < end) {
      let k = 0;
      for (let shift = 0; i < end; i++, shift += 8) k |= view.getUint8(i) << shift;
      words[word++] = k; // zeros after the key's last byte: padding, never read as part of a key
      h = Math.imul(((h << 5) | (h >>> 27)) ^ k, 0x27220a95);
    }
    this.poolLength = word << 2;
    const meta = this.meta;
    meta[at++] = finishHash(h, length);
    meta[at++] = group;
    meta[at++] = prefixed ? ~offset : offset;
    meta[at] = length;
    return entry;
  }

  private growMeta(): void {
    const meta = newInt32Array(this.meta.length * 2, this.shared);
    meta.set(this.meta);
    this.meta = meta;
  }

  /**
   * Makes room for `needed` pool bytes. While fewer entries than expected are stored, the pool is sized for the
   * expected count at the mean key length seen so far (ids in a file have much the same length): doubling from a
   * 12-byte guess on 28-byte MS MARCO ids copied the pool twice and left up to half of it unused at the peak.
   */
  private growPool(needed: number): void {
    const stored = this.count - 1; // the entry being added is counted already
    const projected =
      stored > 0 && stored < this.expectedEntries
        ? Math.ceil((this.poolLength / stored) * this.expectedEntries * 1.03)
        : 0;
    const size = Math.max(needed, projected > this.pool.length ? projected : Math.ceil(this.pool.length * 1.5));
    const pool = newUint8Array(Math.ceil(size / 4) * 4, this.shared);
    pool.set(this.pool.subarray(0, this.poolLength));
    this.pool = pool;
    this.words = wordsOf(pool);
  }

  /** Appends a copy of another store's entry (same key, group and hash). */
  copyFrom(other: ByteKeyStore, entry: number): number {
    const at = entry * stride;
    const offset = other.meta[at + 2]!;
    if (offset < 0) {
      const key = other.keyBytes(entry);
      return this.add(other.meta[at + 1]!, key, 0, key.length, other.meta[at]!);
    }
    return this.add(other.meta[at + 1]!, other.pool, offset, offset + other.meta[at + 3]!, other.meta[at]!);
  }

  /** True when the entry's key is (group, bytes[start, end)). */
  matches(entry: number, group: number, bytes: Uint8Array, start: number, end: number): boolean {
    const at = entry * stride;
    const meta = this.meta;
    const length = end - start;
    if (meta[at + 1] !== group || meta[at + 3] !== length) return false;
    let offset = meta[at + 2]!;
    let i = start;
    if (offset < 0) {
      const prefix = this.prefix;
      for (let k = 0; k < prefix.length; k++) if (prefix[k] !== bytes[i + k]) return false;
      i += prefix.length;
      offset = ~offset;
    }
    const pool = this.pool;
    for (; i < end; i++, offset++) if (pool[offset] !== bytes[i]) return false;
    return true;
  }

  /**
   * matches, four bytes at a time: `view` is a DataView of `bytes` (the same memory). A key stored by addHashing
   * is compared word by word with the pool (28-byte docids: 7 comparisons, not 28).
   */
  matchesView(entry: number, group: number, bytes: Uint8Array, view: DataView, start: number, end: number): boolean {
    const at = entry * stride;
    const meta = this.meta;
    let offset = meta[at + 2]!;
    // Keys added by `add` start anywhere in the pool; a big-endian machine stores words the other way round.
    if (!nativeLittleEndian || ((offset < 0 ? ~offset : offset) & 3) !== 0) {
      return this.matches(entry, group, bytes, start, end);
    }
    if (meta[at + 1] !== group || meta[at + 3] !== end - start) return false;
    let i = start;
    if (offset < 0) {
      const prefixWords = this.prefixWords;
      for (let word = 0; word < prefixWords.length; word++, i += 4) {
        if (view.getInt32(i, true) !== prefixWords[word]) return false;
      }
      offset = ~offset;
    }
    const words = this.words;
    let word = offset >> 2;
    for (const last = end - 4; i <= last; i += 4) if (view.getInt32(i, true) !== words[word++]) return false;
    const pool = this.pool;
    for (let o = word << 2; i < end; i++, o++) if (pool[o] !== bytes[i]) return false;
    return true;
  }

  /** True when two entries have the same key. */
  sameKey(a: number, b: number): boolean {
    const meta = this.meta;
    const atA = a * stride;
    const atB = b * stride;
    if (meta[atA] !== meta[atB] || meta[atA + 1] !== meta[atB + 1] || meta[atA + 3] !== meta[atB + 3]) return false;
    return this.compareKeys(a, b) === 0;
  }

  /** strcmp of the keys of two entries: negative, zero or positive. */
  compareKeys(a: number, b: number): number {
    const meta = this.meta;
    const pool = this.pool;
    let i = meta[a * stride + 2]!;
    let j = meta[b * stride + 2]!;
    const lengthA = meta[a * stride + 3]!;
    const lengthB = meta[b * stride + 3]!;
    if (i < 0 || j < 0) return compareBytes(this.keyBytes(a), this.keyBytes(b));
    const end = i + Math.min(lengthA, lengthB);
    for (; i < end; i++, j++) {
      const d = pool[i]! - pool[j]!;
      if (d !== 0) return d;
    }
    return lengthA - lengthB;
  }
}

/**
 * A hash index over the entries of a store, at most three quarters full (between 3/8 and 3/4 after sizing to a
 * power of two: the next doubling would cost as much memory as the judgments themselves).
 */
export class ByteKeyIndex {
  private slots: Int32Array<ArrayBuffer>; // pairs [hash, entry + 1]; entry + 1 = 0 marks an empty slot
  private size = 0;
  private readonly store: ByteKeyStore;

  constructor(store: ByteKeyStore, expectedEntries = 1024) {
    this.store = store;
    let capacity = 16;
    while (capacity * 3 < expectedEntries * 4) capacity *= 2;
    this.slots = new Int32Array(capacity * 2);
  }

  /** The entry with this key, or -1. */
  find(group: number, bytes: Uint8Array, start: number, end: number, hash: number): number {
    const slots = this.slots;
    const mask = (slots.length >> 1) - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const stored = slots[slot * 2 + 1]!;
      if (stored === 0) return -1;
      if (slots[slot * 2] === hash && this.store.matches(stored - 1, group, bytes, start, end)) return stored - 1;
    }
  }

  /** Indexes an entry of the store (whose key the caller knows is not indexed yet). */
  insert(entry: number): void {
    if ((this.size + 1) * 4 > (this.slots.length >> 1) * 3) this.grow();
    this.place(this.store.hash(entry), entry);
    this.size++;
  }

  private place(hash: number, entry: number): void {
    const slots = this.slots;
    const mask = (slots.length >> 1) - 1;
    let slot = hash & mask;
    while (slots[slot * 2 + 1] !== 0) slot = (slot + 1) & mask;
    slots[slot * 2] = hash;
    slots[slot * 2 + 1] = entry + 1;
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Int32Array(old.length * 2);
    for (let i = 0; i < old.length; i += 2) if (old[i + 1] !== 0) this.place(old[i]!, old[i + 1]! - 1);
  }
}

/** The first slot to probe in a region of `size` slots: the hash scaled to the size (a multiplication where a
 * modulo would divide). Below 4096 slots (almost every query) in integers, from the hash's top 12 bits: find and
 * insert ~10-20 % faster than in floating point; above, exact as hash · size < 2^53. */
function regionSlot(hash: number, size: number): number {
  return size < 4096 ? ((hash >>> 18) * size) >>> 12 : Math.floor(hash * size * 9.313225746154785e-10);
}

/**
 * A hash index whose slots are partitioned by group: each group (query) gets its own small open-addressing region,
 * so the lookups of one query's documents stay within a few cache lines instead of striding over one big table.
 * A slot holds only entry + 1: the entry's hash is read from the store, whose entries of one query are few and
 * close together (half the memory of [hash, entry] pairs: 6 MB for 1M judgments). Built once from a complete store;
 * building finds the keys the store holds twice.
 */
export class GroupedByteKeyIndex {
  private readonly store: ByteKeyStore;
  private readonly regionStart: Int32Array<ArrayBufferLike>; // per group: first slot; the region ends where the next one starts
  private readonly slots: Int32Array<ArrayBufferLike>; // entry + 1; 0 marks an empty slot
  private viewBytes: Uint8Array | undefined;
  private view: DataView<ArrayBufferLike> = new DataView(new ArrayBuffer(0));

  /** Keys found again while building: the later entry and the first one (entries in store order). */
  readonly repeats: { entry: number; first: number }[] = [];

  /** Indexes every entry of `store`; `shared`: on SharedArrayBuffers (see `shareable`). */
  constructor(store: ByteKeyStore, groupCount: number, shared = false) {
    this.store = store;
    const counts = new Int32Array(groupCount);
    for (let entry = 0; entry < store.count; entry++) counts[store.group(entry)]!++;
    this.regionStart = newInt32Array(groupCount + 1, shared);
    let total = 0;
    for (let group = 0; group < groupCount; group++) {
      this.regionStart[group] = total;
      total += Math.ceil(counts[group]! * 1.5) + 1; // load ≤ 2/3, and never full
    }
    this.regionStart[groupCount] = total;
    this.slots = newInt32Array(total, shared);
    for (let entry = 0; entry < store.count; entry++) this.insert(entry);
  }

  /** The index's arrays, for `fromShared` in another thread. */
  shareable(): { regionStart: Int32Array<ArrayBufferLike>; slots: Int32Array<ArrayBufferLike> } {
    return { regionStart: this.regionStart, slots: this.slots };
  }

  /** The index of a store built elsewhere (`shareable`), read only. */
  static fromShared(
    store: ByteKeyStore,
    shared: { regionStart: Int32Array<ArrayBufferLike>; slots: Int32Array<ArrayBufferLike> },
  ): GroupedByteKeyIndex {
    const index = new GroupedByteKeyIndex(new ByteKeyStore(16, 64), 0);
    Object.assign(index, { store, regionStart: shared.regionStart, slots: shared.slots });
    return index;
  }

  private insert(entry: number): void {
    const group = this.store.group(entry);
    const base = this.regionStart[group]!;
    const first = insertInRegion(this.store, this.slots, base, this.regionStart[group + 1]! - base, entry);
    if (first !== -1) this.repeats.push({ entry, first });
  }

  /** The entry with this key, or -1 (also for a group the store never had). */
  find(group: number, bytes: Uint8Array, start: number, end: number, hash: number): number {
    if (group + 1 >= this.regionStart.length) return -1;
    const base = this.regionStart[group]!;
    const size = this.regionStart[group + 1]! - base;
    const slots = this.slots;
    const store = this.store;
    if (bytes !== this.viewBytes) {
      this.viewBytes = bytes; // a reader's block buffer: one DataView for all its lookups
      this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
    }
    const view = this.view;
    for (let probe = regionSlot(hash, size); ; probe = probe + 1 === size ? 0 : probe + 1) {
      const stored = slots[base + probe]!;
      if (stored === 0) return -1;
      if (store.hash(stored - 1) === hash && store.matchesView(stored - 1, group, bytes, view, start, end)) {
        return stored - 1;
      }
    }
  }
}

/** Puts an entry in the region [base, base + size) of `slots`; returns -1, or the entry already there with the same
 * key (the entry is then not indexed). */
function insertInRegion(
  store: ByteKeyStore,
  slots: Int32Array<ArrayBufferLike>,
  base: number,
  size: number,
  entry: number,
): number {
  for (let probe = regionSlot(store.hash(entry), size); ; probe = probe + 1 === size ? 0 : probe + 1) {
    const stored = slots[base + probe]!;
    if (stored === 0) {
      slots[base + probe] = entry + 1;
      return -1;
    }
    if (store.sameKey(stored - 1, entry)) return stored - 1;
  }
}

/**
 * Builds a GroupedByteKeyIndex while its store is filled one group after another (a qrels file grouped by query):
 * each group's region is built as soon as the group ends, while its entries are still in cache, instead of in a
 * pass over the whole store afterwards (random access over a million entries).
 */
export class GroupedByteKeyIndexBuilder {
  private readonly store: ByteKeyStore;
  private readonly shared: boolean;
  private regionStart: Int32Array<ArrayBuffer>;
  private slots: Int32Array<ArrayBufferLike>;
  private groups = 0;
  private used = 0;
  /** The first key found again: the later entry and the first one (entries in store order). */
  repeat: { entry: number; first: number } | undefined;

  constructor(store: ByteKeyStore, expectedEntries: number, shared = false) {
    this.store = store;
    this.shared = shared;
    this.slots = newInt32Array(Math.ceil(expectedEntries * 1.5) + 1024, shared);
    this.regionStart = new Int32Array(1024);
  }

  /** Indexes the entries [first, end) of the store, whose group is the next group number (0, 1, …). */
  addGroup(first: number, end: number): void {
    const size = Math.ceil((end - first) * 1.5) + 1; // load ≤ 2/3, and never full (as GroupedByteKeyIndex)
    const base = this.used;
    if (base + size > this.slots.length) {
      const slots = newInt32Array(Math.max(base + size, Math.ceil(this.slots.length * 1.5)), this.shared);
      slots.set(this.slots.subarray(0, base));
      this.slots = slots;
    }
    if (this.groups + 1 >= this.regionStart.length) {
      const grown = new Int32Array(this.regionStart.length * 2);
      grown.set(this.regionStart);
      this.regionStart = grown;
    }
    this.regionStart[this.groups++] = base;
    this.used = base + size;
    const store = this.store;
    const slots = this.slots;
    for (let entry = first; entry < end; entry++) {
      const repeated = insertInRegion(store, slots, base, size, entry);
      if (repeated !== -1 && this.repeat === undefined) this.repeat = { entry, first: repeated };
    }
  }

  /** The index of every group added. */
  finish(): GroupedByteKeyIndex {
    const regionStart = newInt32Array(this.groups + 1, this.shared);
    regionStart.set(this.regionStart.subarray(0, this.groups));
    regionStart[this.groups] = this.used;
    return GroupedByteKeyIndex.fromShared(this.store, { regionStart, slots: this.slots });
  }
}

/** strcmp of two byte strings: negative, zero or positive. */
function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const end = Math.min(a.length, b.length);
  for (let i = 0; i < end; i++) {
    const d = a[i]! - b[i]!;
    if (d !== 0) return d;
  }
  return a.length - b.length;
}
