// A run whose queries are interleaved is read in batches of queries (readRunByQuery's heldBytes): whatever the
// batch size, every query gets exactly the documents, scores and judgments it gets from the same run grouped.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { FormatError } from '../../../core/formats/formatError.ts';
import { readQrels } from '../../../core/formats/trecQrels.ts';
import { type RunQuery, readRunByQuery } from '../../../core/formats/trecRun.ts';
import { scratchDir } from '../../helpers.ts';

interface Seen {
  docids: string[];
  scores: number[];
  judgments: number[];
  lines: number[];
}

async function readByQuery(qrelsFile: string, runFile: string, heldBytes?: number): Promise<Map<number, Seen>> {
  const qrels = await readQrels(qrelsFile);
  const seen = new Map<number, Seen>();
  await readRunByQuery(
    runFile,
    qrels,
    (query: RunQuery) => {
      const docids: string[] = [];
      for (let i = 0; i < query.count; i++) docids.push(query.documents.keyText(i));
      seen.set(query.query, {
        docids,
        scores: [...query.scores.data.subarray(0, query.count)],
        judgments: [...query.judgments.data.subarray(0, query.count)],
        lines: Array.from({ length: query.count }, (_, i) => query.position(i).line),
      });
    },
    heldBytes,
  );
  return seen;
}

test('an interleaved run read in batches of any size gives each query what the grouped run gives it', async () => {
  const dir = scratchDir();
  const qrels = join(dir, 'qrels');
  const grouped = join(dir, 'grouped');
  const interleaved = join(dir, 'interleaved');
  const queries = ['q1', 'q10', 'q2', 'q3', 'q4'];
  writeFileSync(
    qrels,
    queries.flatMap((q, i) => [`${q} 0 doc-${i}-0 ${i % 3}`, `${q} 0 doc-${i}-2 -1`, `${q} 0 doc-${i}-4 1`]).join('\n'),
  );
  const line = (q: string, i: number, r: number): string =>
    `${q} Q0 doc-${i}-${r} ${r + 1} ${(10 - r / 2).toFixed(1)} tag`;
  // q3 retrieves nothing; an unknown query is interleaved too (skipped, as trec_eval does).
  const ranks = [0, 1, 2, 3, 4, 5];
  const groupedLines = queries.flatMap((q, i) => (q === 'q3' ? [] : ranks.map((r) => line(q, i, r))));
  const interleavedLines = ranks.flatMap((r) => [
    ...queries.flatMap((q, i) => (q === 'q3' ? [] : [line(q, i, r)])),
    `unknown Q0 doc-x-${r} ${r + 1} 1.0 tag`,
  ]);
  writeFileSync(grouped, `${groupedLines.join('\n')}\n`);
  writeFileSync(interleaved, `# comment\n${interleavedLines.join('\n')}\n`);

  const expected = await readByQuery(qrels, grouped);
  assert.equal(expected.size, 4);
  const byQuery = (seen: Map<number, Seen>) =>
    [...seen].sort(([a], [b]) => a - b).map(([q, s]) => [q, s.docids, s.scores, s.judgments] as const);
  // gzip is read line by line (positions recorded, not found again).
  const interleavedGzip = join(dir, 'interleaved.gz');
  writeFileSync(interleavedGzip, gzipSync(readFileSync(interleaved)));
  for (const file of [interleaved, interleavedGzip]) {
    for (const heldBytes of [1, 50, 200, 400, 1 << 20, undefined]) {
      const actual = await readByQuery(qrels, file, heldBytes);
      assert.deepEqual(byQuery(actual), byQuery(expected), `heldBytes ${heldBytes}`);
      // Line numbers are those of the interleaved file (error messages point at them).
      assert.deepEqual(actual.get(0)!.lines, [2, 7, 12, 17, 22, 27]);
    }
  }
});

test('a malformed line after the interleaving is found is the error, whatever the batch size', async () => {
  const dir = scratchDir();
  const qrels = join(dir, 'qrels');
  const run = join(dir, 'run');
  writeFileSync(qrels, 'q1 0 a 1\nq2 0 b 1\n');
  writeFileSync(run, 'q1 Q0 a 1 2.0 t\nq2 Q0 b 1 2.0 t\nq1 Q0 c 2 1.0 t\nq2 Q0 d 2 x t\n');
  for (const heldBytes of [1, undefined]) {
    await assert.rejects(readByQuery(qrels, run, heldBytes), (error: unknown) => {
      assert.ok(error instanceof FormatError);
      assert.match(error.message, /:4:.*expected a decimal score, found 'x'/);
      return true;
    });
  }
});

test('blank and comment lines between interleaved lines do not shift which query a line belongs to', async () => {
  const dir = scratchDir();
  const qrels = join(dir, 'qrels');
  const grouped = join(dir, 'grouped');
  const interleaved = join(dir, 'interleaved');
  writeFileSync(qrels, 'a 0 a1 1\nb 0 b2 1\nc 0 c1 2\n');
  writeFileSync(grouped, 'a Q0 a1 1 3 t\na Q0 a2 2 2 t\nb Q0 b1 1 3 t\nb Q0 b2 2 2 t\nc Q0 c1 1 1 t\n');
  writeFileSync(
    interleaved,
    'b Q0 b1 1 3 t\n\n# a comment\r\na Q0 a1 1 3 t\n  \t\nx Q0 x1 1 1 t\nc Q0 c1 1 1 t\r\n#\nb Q0 b2 2 2 t\na Q0 a2 2 2 t',
  );
  const expected = await readByQuery(qrels, grouped);
  const byQuery = (seen: Map<number, Seen>) =>
    [...seen].sort(([a], [b]) => a - b).map(([q, s]) => [q, s.docids, s.scores, s.judgments] as const);
  for (const heldBytes of [1, 60, undefined]) {
    const actual = await readByQuery(qrels, interleaved, heldBytes);
    assert.deepEqual(byQuery(actual), byQuery(expected), `heldBytes ${heldBytes}`);
    assert.deepEqual(actual.get(1)!.lines, [1, 9], `heldBytes ${heldBytes}`);
  }
});
