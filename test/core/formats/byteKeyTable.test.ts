// ByteKeyStore's word-at-a-time copy (addHashing) and its left-out prefix, and the per-group index built group by
// group (GroupedByteKeyIndexBuilder), against plain byte arithmetic and the index built in one pass.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  ByteKeyStore,
  GroupedByteKeyIndex,
  GroupedByteKeyIndexBuilder,
  hashBytes,
} from '../../../core/formats/byteKeyTable.ts';
import { seededRandom } from '../../helpers.ts';

const viewOf = (bytes: Buffer): DataView => new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
const sign = (n: number): number => Math.sign(n) + 0;

/** Random keys, most starting with `prefix` or a part of it, some of its length exactly, some empty. */
function randomKeys(next: () => number, count: number, prefix: string): Buffer[] {
  return Array.from({ length: count }, () => {
    const start = next() < 0.7 ? prefix : prefix.slice(0, Math.floor(next() * (prefix.length + 1)));
    const rest = Array.from({ length: Math.floor(next() * 14) }, () => String.fromCharCode(Math.floor(next() * 256)));
    return Buffer.from(start + rest.join(''), 'latin1');
  });
}

for (const prefix of ['', 'msmarco_passage_', 'ab', 'abcdefg']) {
  test(`addHashing keeps every key exactly, hashed as hashBytes (prefix '${prefix}' left out)`, () => {
    const next = seededRandom(prefix.length + 1);
    const keys = randomKeys(next, 400, prefix);
    // Keys at every offset of a larger buffer, as in a block of lines.
    const line = Buffer.alloc(64, 0x20);
    const store = new ByteKeyStore(16, 64); // small: the pool and meta grow
    if (prefix) store.leaveOutPrefix(Buffer.from(prefix, 'latin1'), 0, prefix.length, 0);
    for (const [index, key] of keys.entries()) {
      const at = index % 7;
      key.copy(line, at);
      const entry = store.addHashing(index % 5, viewOf(line), at, at + key.length, 0);
      assert.equal(entry, index);
      assert.equal(store.hash(entry), hashBytes(key, 0, key.length, 0), `hash of key ${index}`);
      line.fill(0x20);
    }
    // Keys added byte by byte (`add`, unaligned in the pool) are looked up alike.
    const mixed = new ByteKeyStore(16, 64);
    for (const [index, key] of keys.entries()) {
      const entry =
        index % 2 === 0
          ? mixed.add(0, key, 0, key.length, hashBytes(key, 0, key.length, 0))
          : mixed.addHashing(0, viewOf(key), 0, key.length, 0);
      assert.ok(mixed.matchesView(entry, 0, key, viewOf(key), 0, key.length), `mixed ${index}`);
    }
    const copy = new ByteKeyStore(16, 64);
    for (const [index, key] of keys.entries()) {
      assert.equal(store.keyText(index), key.toString('utf8'));
      assert.equal(store.group(index), index % 5);
      assert.ok(store.matches(index, index % 5, key, 0, key.length), `key ${index} matches itself`);
      assert.ok(!store.matches(index, (index % 5) + 1, key, 0, key.length), 'another group');
      // matchesView on the key inside a larger buffer (any alignment), as a run's reader looks it up.
      const at = 1 + (index % 7);
      const inLine = Buffer.alloc(at + key.length + 1, 0x20);
      key.copy(inLine, at);
      assert.ok(store.matchesView(index, index % 5, inLine, viewOf(inLine), at, at + key.length), `view ${index}`);
      for (let i = 0; i < key.length; i++) {
        const changed = Buffer.from(key);
        changed[i] = changed[i]! ^ 1;
        assert.ok(!store.matches(index, index % 5, changed, 0, changed.length), `key ${index} with byte ${i} changed`);
        inLine[at + i] = inLine[at + i]! ^ 0x80;
        const view = viewOf(inLine);
        assert.ok(!store.matchesView(index, index % 5, inLine, view, at, at + key.length), `view ${index}, byte ${i}`);
        inLine[at + i] = inLine[at + i]! ^ 0x80;
      }
      const other = (index * 7 + 3) % keys.length;
      assert.equal(
        sign(store.compareKeys(index, other)),
        sign(Buffer.compare(key, keys[other]!)),
        `${index} vs ${other}`,
      );
      assert.equal(store.sameKey(index, other), index % 5 === other % 5 && key.equals(keys[other]!));
      assert.equal(copy.copyFrom(store, index), index);
      assert.equal(copy.keyText(index), key.toString('utf8'));
      assert.equal(copy.hash(index), store.hash(index));
    }
    const shared = ByteKeyStore.fromShared(store.shareable());
    for (const [index, key] of keys.entries()) {
      assert.ok(shared.matches(index, index % 5, key, 0, key.length));
      assert.ok(shared.matchesView(index, index % 5, key, viewOf(key), 0, key.length));
      assert.equal(shared.keyText(index), key.toString('utf8'));
    }
  });
}

test('an index built group by group finds what the one-pass index finds, and the same first repeat', () => {
  const next = seededRandom(99);
  for (let round = 0; round < 20; round++) {
    const prefix = round % 2 === 0 ? 'clueweb09-en0000-' : '';
    const store = new ByteKeyStore(64, 256);
    if (prefix) store.leaveOutPrefix(Buffer.from(prefix), 0, prefix.length, 0);
    const builder = new GroupedByteKeyIndexBuilder(store, 8, round % 3 === 0);
    const groups = 1 + Math.floor(next() * 30);
    const all: { group: number; key: Buffer }[] = [];
    for (let group = 0; group < groups; group++) {
      const first = store.count;
      // Round 1's first group is larger than the regions probed from 12 bits of the hash (4096 slots).
      const count = round === 1 && group === 0 ? 3000 : Math.floor(next() * 40) + (group === 0 ? 1 : 0);
      const keys = randomKeys(next, count, prefix).map((key, i) =>
        count > 40 ? Buffer.concat([key, Buffer.from(`#${i}`)]) : key,
      );
      // Now and then a key again in its group.
      if (keys.length > 2 && next() < 0.15) keys.push(keys[Math.floor(next() * keys.length)]!);
      for (const key of keys) {
        store.addHashing(group, viewOf(key), 0, key.length, 0);
        all.push({ group, key });
      }
      builder.addGroup(first, store.count);
    }
    const built = builder.finish();
    const onePass = new GroupedByteKeyIndex(store, groups);
    const firstRepeat = onePass.repeats.reduce<{ entry: number; first: number } | undefined>(
      (a, b) => (a === undefined || b.entry < a.entry ? b : a),
      undefined,
    );
    assert.deepEqual(builder.repeat, firstRepeat, `round ${round}: first repeat`);
    for (const { group, key } of all) {
      const hash = hashBytes(key, 0, key.length, 0);
      const found = built.find(group, key, 0, key.length, hash);
      assert.equal(found, onePass.find(group, key, 0, key.length, hash), `round ${round}: ${key.toString('latin1')}`);
      assert.notEqual(found, -1);
      const absent = Buffer.concat([key, Buffer.from('!')]);
      if (!all.some((other) => other.group === group && other.key.equals(absent))) {
        const absentHash = hashBytes(absent, 0, absent.length, 0);
        assert.equal(built.find(group, absent, 0, absent.length, absentHash), -1, `round ${round}: absent`);
      }
    }
    assert.equal(built.find(groups, all[0]!.key, 0, all[0]!.key.length, 0), -1, 'a group never added');
  }
});
