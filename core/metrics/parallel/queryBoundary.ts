// Where to cut a TREC file (qrels or run) into chunks for two threads: at line starts whose qid is not the qid of
// the line before, so that a file grouped by query gives each query to one chunk. Files that are not grouped are
// cut anyway: the caller then sees a query in two chunks and evaluates on one thread instead.
import { closeSync, openSync, readSync } from 'node:fs';
import type { ByteRange } from '../../formats/lineReader.ts';

/** How far past a place a boundary is looked for: a small window first (a query's lines rarely take more), then a
 * large one. */
const windows = [1 << 16, 1 << 20];

/**
 * The byte ranges a file of `size` bytes is cut into at query boundaries, in file order: a quarter of what is left
 * each, but at least 1/32 of the file (guided self-scheduling: the chunks shrink towards the end, so the thread that
 * takes the last one keeps the other waiting only briefly, while the first ones are large enough that the work of
 * starting a chunk stays small). One range when the file has no boundary where one is looked for.
 */
export function queryChunks(file: string, size: number): ByteRange[] {
  const cuts = [0];
  if (size >= 4) {
    const smallest = Math.max(1, Math.floor(size / 32));
    const fd = openSync(file, 'r');
    try {
      for (let at = 0; ; ) {
        const remaining = size - at;
        const step = Math.max(Math.floor(remaining / 4), smallest);
        if (remaining < step + smallest / 2) break; // what would be left after this cut: too little for a chunk
        const cut = boundaryAfter(fd, size, at + step);
        if (cut === undefined) break;
        cuts.push(cut);
        at = cut;
      }
    } finally {
      closeSync(fd);
    }
  }
  return cuts.map((start, i) => ({ start, end: cuts[i + 1] ?? size }));
}

/** Byte offset of the first line start at or past `place` that begins a new qid, or undefined (none in the window:
 * one huge query, or the end of the file). */
function boundaryAfter(fd: number, size: number, place: number): number | undefined {
  for (const window of windows) {
    // From the byte before `place`: a newline there makes `place` a line start.
    const buffer = Buffer.allocUnsafe(Math.min(window, size - place + 1));
    const read = readSync(fd, buffer, 0, buffer.length, place - 1);
    const found = boundaryIn(buffer, read);
    if (found !== undefined) return place - 1 + found;
    if (place - 1 + read >= size) return undefined;
  }
  return undefined;
}

/** Index of the first line start in bytes[1, read) that follows a data line of another qid (bytes[0] is the byte
 * before the place asked for), or undefined. */
function boundaryIn(bytes: Buffer, read: number): number | undefined {
  let start = bytes.indexOf(10) + 1;
  if (start === 0) return undefined;
  let previousStart = -1;
  let previousEnd = -1;
  while (start < read) {
    const end = bytes.indexOf(10, start);
    if (end === -1 || end >= read) return undefined; // the line is not whole in the window
    const qidStart = fieldStart(bytes, start, end);
    const qidEnd = fieldEnd(bytes, qidStart, end);
    if (isData(bytes, qidStart, qidEnd)) {
      if (previousStart !== -1 && !sameBytes(bytes, previousStart, previousEnd, qidStart, qidEnd)) return start;
      previousStart = qidStart;
      previousEnd = qidEnd;
    }
    start = end + 1;
  }
  return undefined;
}

/**
 * False when the file's first 64 KiB show a qid coming back after another one, or — for a run (`run`) — a new qid
 * on most lines (a run written rank by rank, whose first lines are each another query's first result): its chunks
 * would share queries, and the caller evaluates on one thread without trying two. A qrels file may well have one
 * line a query (MS MARCO's), so only a qid coming back tells there.
 */
export function groupedByQuery(file: string, run = false): boolean {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.allocUnsafe(windows[0]!);
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    // Only the qids a change of qid leaves behind become strings.
    const finished = new Set<string>();
    let previousStart = -1;
    let previousEnd = -1;
    let lines = 0;
    for (
      let start = 0, end = buffer.indexOf(10);
      end !== -1 && end < read;
      start = end + 1, end = buffer.indexOf(10, start)
    ) {
      const qidStart = fieldStart(buffer, start, end);
      const qidEnd = fieldEnd(buffer, qidStart, end);
      if (!isData(buffer, qidStart, qidEnd)) continue;
      lines++;
      if (previousStart !== -1 && !sameBytes(buffer, previousStart, previousEnd, qidStart, qidEnd)) {
        finished.add(buffer.toString('latin1', previousStart, previousEnd));
        if (finished.has(buffer.toString('latin1', qidStart, qidEnd))) return false;
      }
      previousStart = qidStart;
      previousEnd = qidEnd;
    }
    return !run || lines < 32 || finished.size <= lines / 2;
  } finally {
    closeSync(fd);
  }
}

/** Blank and comment lines ('#') belong to no query. */
function isData(bytes: Buffer, start: number, end: number): boolean {
  return end > start && bytes[start] !== 35;
}

/** Where the first field of the line bytes[start, end) starts (end if it has none)… */
function fieldStart(bytes: Buffer, start: number, end: number): number {
  let i = start;
  while (i < end && isSpace(bytes[i]!)) i++;
  return i;
}

/** …and where the field starting at `start` ends. */
function fieldEnd(bytes: Buffer, start: number, end: number): number {
  let i = start;
  while (i < end && !isSpace(bytes[i]!)) i++;
  return i;
}

function sameBytes(bytes: Buffer, aStart: number, aEnd: number, bStart: number, bEnd: number): boolean {
  if (aEnd - aStart !== bEnd - bStart) return false;
  for (let k = 0; k < aEnd - aStart; k++) if (bytes[aStart + k] !== bytes[bStart + k]) return false;
  return true;
}

function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}
