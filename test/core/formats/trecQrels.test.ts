// The qrels reader against a plain reference reader written here (split on C's isspace, one line at a time): random
// files with every shape of line the reader's fast path must leave to its general one (comments, blank lines,
// tabs, runs of spaces, CRLF, leading and trailing whitespace, signed and zero-padded labels, wide labels, UTF-8
// and control bytes in ids, a last line without its newline), grouped by query or not, in one part or two, plain
// or gzip, larger than one read block; and each kind of bad line or duplicate at a random place.
import assert from 'node:assert/strict';
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { hashBytes } from '../../../core/formats/byteKeyTable.ts';
import { FormatError } from '../../../core/formats/formatError.ts';
import { type Qrels, readQrels, readQrelsPart } from '../../../core/formats/trecQrels.ts';
import { scratchDir, seededRandom } from '../../helpers.ts';

const isSpace = (byte: number): boolean => byte === 32 || (byte >= 9 && byte <= 13);

interface Expected {
  /** qid (latin1) → first line, label counts (label ≥ 0 → count), judgments (docid latin1 → label). */
  queries: Map<string, { firstLine: number; counts: Map<number, number>; judged: Map<string, number> }>;
  order: string[];
}

/** The reference reader: what trec_eval's rules say each line is (valid files only). */
function expectedOf(bytes: Buffer): Expected {
  const queries: Expected['queries'] = new Map();
  const order: string[] = [];
  let lineNumber = 0;
  for (let start = 0; start < bytes.length; ) {
    let end = bytes.indexOf(10, start);
    if (end === -1) end = bytes.length;
    lineNumber++;
    const fields: string[] = [];
    for (let i = start; i < end; ) {
      while (i < end && isSpace(bytes[i]!)) i++;
      const fieldStart = i;
      while (i < end && !isSpace(bytes[i]!)) i++;
      if (i > fieldStart) fields.push(bytes.toString('latin1', fieldStart, i));
    }
    const comment = bytes[start] === 35; // '#' as the line's first byte
    start = end + 1;
    if (fields.length === 0 || comment) continue;
    const [qid, , docid, labelText] = fields as [string, string, string, string];
    const label = Number.parseInt(labelText, 10);
    let query = queries.get(qid);
    if (!query) {
      query = { firstLine: lineNumber, counts: new Map(), judged: new Map() };
      queries.set(qid, query);
      order.push(qid);
    }
    query.judged.set(docid, label);
    if (label >= 0) query.counts.set(label, (query.counts.get(label) ?? 0) + 1);
  }
  return { queries, order };
}

function assertSameQrels(qrels: Qrels, expected: Expected, context: string): void {
  assert.deepEqual(
    qrels.queries.map((query) => query.qid),
    expected.order,
    `${context}: queries in order of first appearance`,
  );
  let judgments = 0;
  for (const [index, query] of qrels.queries.entries()) {
    const want = expected.queries.get(query.qid)!;
    assert.equal(query.firstLine, want.firstLine, `${context}: first line of ${query.qid}`);
    const labels = [...want.counts.keys()].sort((a, b) => a - b);
    assert.deepEqual(
      query.labelCounts,
      { labels, counts: labels.map((label) => want.counts.get(label)) },
      `${context}: label counts of ${query.qid}`,
    );
    for (const [docid, label] of want.judged) {
      const bytes = Buffer.from(docid, 'latin1');
      const entry = qrels.judgmentIndex.find(index, bytes, 0, bytes.length, hashBytes(bytes, 0, bytes.length, 0));
      assert.notEqual(entry, -1, `${context}: ${query.qid} ${docid} is found`);
      assert.equal(qrels.labels[entry], label < 0 ? -1 : label + 0, `${context}: label of ${query.qid} ${docid}`);
      assert.equal(qrels.judgments.keyText(entry), bytes.toString('utf8'));
      judgments++;
    }
    const unjudged = Buffer.from('never-judged');
    assert.equal(qrels.judgmentIndex.find(index, unjudged, 0, unjudged.length, hashBytes(unjudged, 0, 12, 0)), -1);
  }
  assert.equal(qrels.judgments.count, judgments, `${context}: one entry a judgment`);
}

const separators = [' ', ' ', ' ', ' ', '\t', '  ', ' \t ', '\v'];
const labelTexts = [
  '0',
  '1',
  '2',
  '3',
  '-1',
  '-2',
  '4',
  '0',
  '1',
  '16',
  '17',
  '127',
  '128',
  '-0',
  '+3',
  '007',
  '1000000',
];
const idBytes = 'abcxyz0123456789_-.:/ÄéЖ';

/**
 * A random valid qrels text of `queries` queries; grouped (each query's lines together) or shuffled; with `prefix`,
 * most docids start with it (the reader leaves a common prefix out of the docids it stores), some with a part of it.
 */
function randomQrels(next: () => number, queries: number, perQuery: number, grouped: boolean, prefix = ''): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const id = (length: number): string => Array.from({ length }, () => pick([...idBytes])).join('');
  const lines: string[][] = [];
  for (let q = 0; q < queries; q++) {
    const qid = next() < 0.1 ? `q\u0001${q}` : next() < 0.2 ? `Ж${q}` : String(100000 + q);
    const docids = new Set<string>();
    const count = 1 + Math.floor(next() * perQuery);
    while (docids.size < count) {
      const start = next() < 0.85 ? prefix : prefix.slice(0, Math.floor(next() * prefix.length));
      docids.add(`${start}${id(Math.floor(next() * (prefix ? 8 : 35)))}${docids.size}`);
    }
    lines.push(
      [...docids].map((docid) => {
        const sep = (): string => (next() < 0.9 ? ' ' : pick(separators));
        const lead = next() < 0.03 ? pick([' ', '\t']) : '';
        const trail = next() < 0.03 ? pick([' ', '\t', '\r']) : '';
        return `${lead}${qid}${sep()}${pick(['0', 'Q0', '1'])}${sep()}${docid}${sep()}${pick(labelTexts)}${trail}`;
      }),
    );
  }
  let all = lines.flat();
  if (!grouped)
    all = all
      .map((line) => [next(), line] as const)
      .sort((a, b) => a[0] - b[0])
      .map(([, line]) => line);
  const out: string[] = [];
  for (const line of all) {
    if (next() < 0.02) out.push(pick(['# a comment', '#', '', '   ', '\t', '#x y z w v']));
    out.push(line);
  }
  const ending = next() < 0.2 ? '\r\n' : '\n';
  return out.join(ending) + (next() < 0.5 ? ending : '');
}

test('random qrels read as the reference reader reads them: grouped, shuffled, one part or two, gzip', async () => {
  const dir = scratchDir();
  const next = seededRandom(23);
  for (let round = 0; round < 24; round++) {
    const grouped = round % 3 !== 2;
    // Some rounds are larger than one read block (512 KiB): lines cut by a block's end.
    const big = round % 12 === 0;
    const prefix = round % 4 === 3 ? 'msmarco_passage_' : round % 4 === 2 ? 'clueweb09-en0000-0' : '';
    const text = randomQrels(next, big ? 2000 : 1 + Math.floor(next() * 40), big ? 40 : 12, grouped, prefix);
    const file = join(dir, `qrels${round}`);
    const bytes = Buffer.from(text, 'utf8');
    writeFileSync(file, bytes);
    const context = `round ${round} (${grouped ? 'grouped' : 'shuffled'}, ${bytes.length} bytes)`;
    assertSameQrels(await readQrels(file), expectedOf(bytes), context);
    if (round % 4 === 1) {
      writeFileSync(`${file}.gz`, gzipSync(bytes));
      assertSameQrels(await readQrels(`${file}.gz`), expectedOf(bytes), `${context}, gzip`);
    }
    // Two parts at a line boundary near the middle, as core/metrics/parallel cuts them; shared memory.
    const middle = bytes.indexOf(10, bytes.length >> 1) + 1;
    if (middle > 0 && middle < bytes.length) {
      const size = statSync(file).size;
      const first = await readQrelsPart(file, { start: 0, end: middle }, true);
      const second = await readQrelsPart(file, { start: middle, end: size }, true);
      assertSameQrels(first, expectedOf(bytes.subarray(0, middle)), `${context}, first part`);
      assertSameQrels(second, expectedOf(bytes.subarray(middle)), `${context}, second part`);
    }
  }
});

/** The error readQrels gives, as `line:column: message`. */
async function errorOf(file: string): Promise<string> {
  try {
    await readQrels(file);
  } catch (error) {
    assert.ok(error instanceof FormatError, String(error));
    return `${error.line}:${error.column}: ${error.message.replace(/^.*?:\d+:\d+: error: /, '')}`;
  }
  return 'no error';
}

test('a bad line or a duplicate anywhere in a random file is reported at its line and column', async () => {
  const dir = scratchDir();
  const next = seededRandom(6);
  const faults = [
    { line: 'q7 0 doc', expect: (n: number) => `${n}:9: expected 4 fields 'qid iter docid rel', found 3` },
    { line: 'q7 0 doc 1 extra', expect: (n: number) => `${n}:12: expected 4 fields` },
    { line: 'q7\t0\tdoc\t1\tx\r', expect: (n: number) => `${n}:12: expected 4 fields` },
    { line: 'q7 0 doc 1.5', expect: (n: number) => `${n}:10: expected an integer relevance label` },
    { line: 'q7 0 doc x', expect: (n: number) => `${n}:10: expected an integer relevance label` },
    { line: 'q7 0 doc 3000000000', expect: (n: number) => `${n}:10: expected an integer relevance label` },
    { line: 'q7 0 doc --1', expect: (n: number) => `${n}:10: expected an integer relevance label` },
  ];
  for (let round = 0; round < 28; round++) {
    const grouped = round % 2 === 0;
    const lines = randomQrels(next, 2 + Math.floor(next() * 30), 10, grouped)
      .replace(/\r?\n$/, '')
      .split(/\r?\n/);
    const at = Math.floor(next() * (lines.length + 1));
    const file = join(dir, `bad${round}`);
    if (round % 7 === 6) {
      // A duplicate: a copy of an earlier data line (label changed), placed later.
      const dataLines = lines
        .map((line, index) => [line, index] as const)
        .filter(([line]) => /\S/.test(line) && !/^#/.test(line));
      const [line, index] = dataLines[Math.floor(next() * dataLines.length)]!;
      const fields = line.trim().split(/[ \t\r\v]+/);
      const copy = `${fields[0]} 0 ${fields[2]} 9`;
      const place = index + 1 + Math.floor(next() * (lines.length - index));
      lines.splice(place, 0, copy);
      writeFileSync(file, `${lines.join('\n')}\n`);
      const message = await errorOf(file);
      const prefix = `${place + 1}:${fields[0]!.length + 4}: duplicate judgment of document '${fields[2]}'`;
      assert.ok(message.startsWith(prefix), `round ${round}: ${message} starts with ${prefix}`);
      assert.match(message, new RegExp(`\\(first on line ${index + 1}\\)`), `round ${round}`);
      continue;
    }
    const fault = faults[round % faults.length]!;
    lines.splice(at, 0, fault.line);
    writeFileSync(file, `${lines.join('\n')}${next() < 0.5 ? '\n' : ''}`);
    const message = await errorOf(file);
    assert.ok(
      message.startsWith(fault.expect(at + 1)),
      `round ${round}: '${message}' starts with '${fault.expect(at + 1)}'`,
    );
  }
});

test('the first duplicate in file order is the one reported, in a grouped file and in a shuffled one', async () => {
  const dir = scratchDir();
  const grouped = join(dir, 'grouped');
  writeFileSync(grouped, 'a 0 d1 1\na 0 d2 1\nb 0 d1 1\nb 0 d3 0\nb 0 d1 2\nc 0 x 1\nc 0 x 0\n');
  assert.match(await errorOf(grouped), /^5:5: duplicate judgment of document 'd1' for query 'b' \(first on line 3\)/);
  const shuffled = join(dir, 'shuffled');
  writeFileSync(shuffled, 'a 0 d1 1\nb 0 d1 1\na 0 d2 1\nb 0 d1 2\na 0 d1 0\n');
  assert.match(await errorOf(shuffled), /^4:5: duplicate judgment of document 'd1' for query 'b' \(first on line 2\)/);
  // A bad line after a duplicate is what is reported: the duplicates are looked at once the file is read.
  const both = join(dir, 'both');
  writeFileSync(both, 'a 0 d1 1\na 0 d1 1\nb 0 d2\n');
  assert.match(await errorOf(both), /^3:7: expected 4 fields/);
});
