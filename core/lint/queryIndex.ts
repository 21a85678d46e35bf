// Query ids of the file being linted, interned to small integers from their bytes (no string per line), with the
// position of each query's first line for diagnostics that point at a query.
import { ByteKeyIndex, ByteKeyStore, hashBytes } from '../formats/byteKeyTable.ts';
import { growInt32, growUint8 } from '../formats/growableArrays.ts';
import type { LineView } from './lineView.ts';

export class QueryIndex {
  private readonly store = new ByteKeyStore(256);
  private readonly index = new ByteKeyIndex(this.store, 256);
  private lines = new Int32Array(1024);
  private columns = new Int32Array(1024);
  private endColumns = new Int32Array(1024);
  // Lines of one query usually follow each other: the last query's bytes answer most lookups without hashing.
  private last = -1;
  private lastBytes = new Uint8Array(64);
  private lastLength = -1;

  get count(): number {
    return this.store.count;
  }

  /** The index of the query id in field `field` of `line`, adding it on first sight. */
  intern(line: LineView, field: number): number {
    const bytes = line.bytes;
    const start = line.starts[field]!;
    const end = line.ends[field]!;
    const length = end - start;
    if (length === this.lastLength) {
      const last = this.lastBytes;
      let i = 0;
      while (i < length && last[i] === bytes[start + i]) i++;
      if (i === length) return this.last;
    }
    const hash = hashBytes(bytes, start, end, 0);
    let query = this.index.find(0, bytes, start, end, hash);
    if (query < 0) {
      query = this.store.add(0, bytes, start, end, hash);
      this.index.insert(query);
      this.lines = growInt32(this.lines, query + 1);
      this.columns = growInt32(this.columns, query + 1);
      this.endColumns = growInt32(this.endColumns, query + 1);
      this.lines[query] = line.number;
      this.columns[query] = line.column(start);
      this.endColumns[query] = line.column(end);
    }
    this.last = query;
    this.lastBytes = growUint8(this.lastBytes, length);
    this.lastBytes.set(bytes.subarray(start, end));
    this.lastLength = length;
    return query;
  }

  text(query: number): string {
    return this.store.keyText(query);
  }

  /** Where the query id first appears: line, column and end column. */
  firstLine(query: number): number {
    return this.lines[query]!;
  }

  firstColumn(query: number): number {
    return this.columns[query]!;
  }

  firstEndColumn(query: number): number {
    return this.endColumns[query]!;
  }
}
