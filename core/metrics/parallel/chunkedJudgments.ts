// The qrels read in chunks by two threads (queryChunks), as one qrels for a run's reader: every chunk's judgments
// stay on the SharedArrayBuffers its thread read them into, so both threads look up any query without a copy.
import { ByteKeyStore, GroupedByteKeyIndex } from '../../formats/byteKeyTable.ts';
import type { QrelsQuery } from '../../formats/trecQrels.ts';
import { judgedNegative, notJudged, type RunJudgments } from '../../formats/trecRun.ts';
import type { SharedQrelsPart } from './qrelsParts.ts';

/** A query's place while chunks are still coming: chunk × this + its index in the chunk. */
const perChunk = 2 ** 26;

/**
 * The qrels chunks as each becomes known (read here or received), in any order: the qid index is built as they
 * come, while the other thread is still reading, not after the last.
 */
export class QrelsChunks {
  private readonly parts: SharedQrelsPart[] = [];
  private readonly places = new Map<string, number>();
  private repeated = false;
  private known = 0;
  readonly count: number;

  constructor(count: number) {
    this.count = count;
  }

  get complete(): boolean {
    return this.known === this.count;
  }

  add(chunk: number, part: SharedQrelsPart): void {
    this.parts[chunk] = part;
    this.known++;
    const queries = part.queries;
    for (let i = 0; i < queries.length; i++) {
      if (this.places.has(queries[i]!.qid)) this.repeated = true;
      else this.places.set(queries[i]!.qid, chunk * perChunk + i);
    }
  }

  /** Every chunk as one qrels; undefined when a qid is in two chunks (the file is not grouped by query: that
   * query's judgments would be split). */
  judgments(): ChunkedJudgments | undefined {
    if (!this.complete) throw new Error(`${this.known} of ${this.count} qrels chunks`);
    return this.repeated ? undefined : new ChunkedJudgments(this.parts, this.places);
  }
}

interface Chunk {
  index: GroupedByteKeyIndex;
  labels: Int8Array | Int32Array;
  /** The chunk's first query among all queries. */
  firstQuery: number;
}

export class ChunkedJudgments implements RunJudgments {
  readonly queryCount: number;
  /** Every query, chunk after chunk (file order): the index a run's reader gives. */
  readonly queries: QrelsQuery[] = [];
  private readonly places: Map<string, number>;
  private readonly chunks: Chunk[];
  /** Per query, its chunk. */
  private readonly chunkOfQuery: Int32Array;

  constructor(parts: readonly SharedQrelsPart[], places: Map<string, number>) {
    this.places = places;
    this.chunks = parts.map((part) => {
      const store = ByteKeyStore.fromShared(part.judgments);
      const chunk = { index: GroupedByteKeyIndex.fromShared(store, part.index), labels: part.labels };
      const firstQuery = this.queries.length;
      for (const query of part.queries) this.queries.push(query);
      return { ...chunk, firstQuery };
    });
    this.queryCount = this.queries.length;
    this.chunkOfQuery = new Int32Array(this.queryCount);
    for (const [c, chunk] of this.chunks.entries()) {
      this.chunkOfQuery.fill(c, chunk.firstQuery, this.chunks[c + 1]?.firstQuery ?? this.queryCount);
    }
  }

  queryOf(qid: string): number {
    const place = this.places.get(qid);
    if (place === undefined) return -1;
    const chunk = Math.floor(place / perChunk);
    return this.chunks[chunk]!.firstQuery + (place - chunk * perChunk);
  }

  judgment(query: number, bytes: Uint8Array, start: number, end: number, hash: number): number {
    const chunk = this.chunks[this.chunkOfQuery[query]!]!;
    const judged = chunk.index.find(query - chunk.firstQuery, bytes, start, end, hash);
    if (judged === -1) return notJudged;
    const label = chunk.labels[judged]!;
    return label < 0 ? judgedNegative : label;
  }
}
