// Where to cut a TREC file (qrels or run) in two for two threads: at the first line, past a point (the middle, say), whose qid is
// not the qid of the line before it, so that a file grouped by query gives each query to one part. Files that are
// not grouped are cut anyway: the caller sees a query in both parts and evaluates on one thread instead.
import { closeSync, openSync, readSync } from 'node:fs';

/** How far past the middle a boundary is looked for (a query's lines rarely take more). */
const window = 1 << 20;

/** Byte offset of a line start past `fraction` of the file that begins a new qid, or undefined (no such line near
 * there: one huge query, or a file too small). */
export function queryBoundary(file: string, size: number, fraction = 0.5): number | undefined {
  if (size < 4) return undefined;
  const middle = Math.max(1, Math.floor(size * fraction));
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.allocUnsafe(Math.min(window, size - middle));
    const read = readSync(fd, buffer, 0, buffer.length, middle);
    // The middle may fall inside a line: the first whole line starts after the next newline (the byte before the
    // middle being a newline means the middle is a line start itself).
    let start: number;
    const before = Buffer.alloc(1);
    readSync(fd, before, 0, 1, middle - 1);
    if (before[0] === 10) start = 0;
    else {
      const newline = buffer.indexOf(10);
      if (newline === -1 || newline + 1 >= read) return undefined;
      start = newline + 1;
    }
    let previous: Buffer | undefined;
    while (start < read) {
      const end = buffer.indexOf(10, start);
      if (end === -1 || end >= read) return undefined; // the line is not whole in the window
      const qid = firstField(buffer, start, end);
      if (isData(qid)) {
        if (previous !== undefined && !qid.equals(previous)) return middle + start;
        previous = qid;
      }
      start = end + 1;
    }
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** False when the file's first MiB shows a qid coming back after another one (a run written rank by rank, say):
 * its halves would share queries, and the caller evaluates on one thread without trying two. */
export function groupedByQuery(file: string): boolean {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.allocUnsafe(window);
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    const finished = new Set<string>();
    let previous: Buffer | undefined;
    for (
      let start = 0, end = buffer.indexOf(10);
      end !== -1 && end < read;
      start = end + 1, end = buffer.indexOf(10, start)
    ) {
      const qid = firstField(buffer, start, end);
      if (!isData(qid)) continue;
      if (previous !== undefined && !qid.equals(previous)) {
        finished.add(previous.toString('latin1'));
        if (finished.has(qid.toString('latin1'))) return false;
      }
      previous = qid;
    }
    return true;
  } finally {
    closeSync(fd);
  }
}

/** Blank and comment lines ('#') belong to no query. */
function isData(qid: Buffer): boolean {
  return qid.length > 0 && qid[0] !== 35;
}

function firstField(bytes: Buffer, start: number, end: number): Buffer {
  let i = start;
  while (i < end && isSpace(bytes[i]!)) i++;
  let j = i;
  while (j < end && !isSpace(bytes[j]!)) j++;
  return bytes.subarray(i, j);
}

function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}
