// The run reader scans blocks of lines itself and finds a document's line again only when an error needs it: the
// documents, scores, judgments, runid and every error position must be those of a line-by-line reading, whatever
// the file's form (plain, gzip: read line by line with positions recorded, a part of it, lines across blocks).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { FormatError } from '../../../core/formats/formatError.ts';
import { readQrels } from '../../../core/formats/trecQrels.ts';
import { QrelsJudgments, type RunQuery, readRunByQuery, readRunRange } from '../../../core/formats/trecRun.ts';
import { evaluateRunFile } from '../../../core/metrics/evaluate.ts';
import { selectMeasures } from '../../../core/metrics/measureSelection.ts';
import { scratchDir } from '../../helpers.ts';

interface Seen {
  qid: string;
  docids: string[];
  scores: number[];
  judgments: number[];
}

function write(name: string, content: string | Buffer): string {
  const file = join(scratchDir(), name);
  writeFileSync(file, content);
  return file;
}

async function readAll(
  qrelsText: string,
  run: string | Buffer,
  gzip = false,
): Promise<{ seen: Seen[]; runid: string }> {
  const qrels = await readQrels(write('qrels', qrelsText));
  const file = write(gzip ? 'run.gz' : 'run', gzip ? gzipSync(run) : run);
  const seen: Seen[] = [];
  const { runid } = await readRunByQuery(file, qrels, (query: RunQuery) => {
    seen.push({
      qid: qrels.queries[query.query]!.qid,
      docids: Array.from({ length: query.count }, (_, i) => query.documents.keyText(i)),
      scores: [...query.scores.data.subarray(0, query.count)],
      judgments: [...query.judgments.data.subarray(0, query.count)],
    });
  });
  return { seen, runid };
}

test('CRLF lines, tabs, extra fields, blank and comment lines, a last line without its newline', async () => {
  const qrels = 'q1 0 a 2\nq1 0 b 0\nq2 0 c -1\n';
  const run =
    '# a comment\r\nq1\tQ0 a 1 2.5 tagA extra fields\r\n\r\n   \nq1 Q0 x 2 1.25 tagA\r\n' +
    'q9 Q0 a 1 3 other\nq2 Q0 c 1 -0.5e1 last';
  for (const gzip of [false, true]) {
    const { seen, runid } = await readAll(qrels, run, gzip);
    assert.deepEqual(seen, [
      { qid: 'q1', docids: ['a', 'x'], scores: [2.5, 1.25], judgments: [2, -1] },
      { qid: 'q2', docids: ['c'], scores: [-5], judgments: [-2] },
    ]);
    assert.equal(runid, 'last', `gzip ${gzip}`);
  }
});

test('the runid is the last data line’s tag, also when that line’s query is not in the qrels', async () => {
  const { runid } = await readAll('q1 0 a 1\n', 'q1 Q0 a 1 1 first\nq7 Q0 b 1 1 second\n# comment tag\n\n');
  assert.equal(runid, 'second');
});

/** readLineBlocks' buffer (512 KiB). */
const blockBytes = 1 << 19;

/** A run of `queries` queries × `perQuery` documents with long docids: a few MB, so lines cross block boundaries. */
function bigRun(queries: number, perQuery: number, tagOf: (q: number) => string): string {
  const lines: string[] = [];
  for (let q = 0; q < queries; q++) {
    for (let d = 0; d < perQuery; d++) {
      lines.push(`query-${q} Q0 doc-${q}-${d}-${'x'.repeat((q * 31 + d * 7) % 50)} ${d + 1} ${1000 - d} ${tagOf(q)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

test('lines across blocks: every document, score and judgment of a multi-block run, and a range of it', async () => {
  const queries = 300;
  const perQuery = 100;
  const run = bigRun(queries, perQuery, (q) => `tag${q}`);
  assert.ok(run.length > 3 * blockBytes, `${run.length} bytes`);
  const qrelsText = Array.from(
    { length: queries },
    (_, q) => `query-${q} 0 doc-${q}-${q % perQuery}-${'x'.repeat((q * 31 + (q % perQuery) * 7) % 50)} ${q % 3}\n`,
  ).join('');
  const { seen, runid } = await readAll(qrelsText, run);
  assert.equal(runid, `tag${queries - 1}`);
  assert.equal(seen.length, queries);
  for (const [q, query] of seen.entries()) {
    assert.equal(query.qid, `query-${q}`);
    assert.equal(query.docids.length, perQuery);
    assert.equal(query.docids[17], `doc-${q}-17-${'x'.repeat((q * 31 + 17 * 7) % 50)}`);
    assert.deepEqual(query.scores.slice(0, 3), [1000, 999, 998]);
    assert.deepEqual(
      query.judgments.map((j, d) => (j === -1 ? -1 : d)),
      query.judgments.map((_, d) => (d === q % perQuery ? d : -1)),
    );
    assert.equal(query.judgments[q % perQuery], q % 3);
  }
  // A part starting at a query's first line: its queries whole, its last tag.
  const file = write('run', run);
  const qrels = await readQrels(write('qrels', qrelsText));
  const start = run.indexOf('query-100 Q0');
  const end = run.indexOf('query-200 Q0');
  const parts: number[] = [];
  const part = await readRunRange(file, new QrelsJudgments(qrels), { start, end }, (query) => {
    assert.equal(query.count, perQuery);
    parts.push(query.query);
  });
  assert.deepEqual(
    parts,
    Array.from({ length: 100 }, (_, i) => qrels.queryIndex.get(`query-${100 + i}`)!),
  );
  assert.deepEqual(part, { runid: 'tag199', dataLines: 100 * perQuery });
});

async function rejection(qrelsText: string, run: string | Buffer, gzip = false): Promise<FormatError> {
  const qrels = await readQrels(write('qrels', qrelsText));
  const file = write(gzip ? 'run.gz' : 'run', gzip ? gzipSync(run) : run);
  try {
    await evaluateRunFile(qrels, file, {
      measures: selectMeasures(['map']).measures,
      relevanceLevel: 1,
      maxRetrieved: Number.POSITIVE_INFINITY,
      complete: true,
    });
  } catch (error) {
    assert.ok(error instanceof FormatError, String(error));
    return error;
  }
  assert.fail('no error');
}

test('a duplicate far into a multi-block run is found again at its line and column (plain, gzip, interleaved)', async () => {
  const queries = 300;
  const lines = bigRun(queries, 100, () => 't').split('\n');
  // Query 250's 60th document repeats its 3rd, with a comment, a blank line and a query the qrels do not have
  // between them; the qid of the unknown query has the same length.
  const at = 250 * 100;
  const repeated = lines[at + 2]!.split(' ')[2]!;
  lines.splice(at + 40, 0, '# between', '', 'query-X Q0 other 1 1 t');
  lines[at + 59 + 3] = `query-250  Q0\t${repeated} 60 1.5 t`;
  const qrelsText = `query-250 0 ${repeated} 1\n`;
  const expected = {
    line: at + 63,
    column: 15,
    related: { line: at + 3, column: 14, message: 'first retrieval' },
  };
  for (const gzip of [false, true]) {
    const error = await rejection(qrelsText, lines.join('\n'), gzip);
    assert.deepEqual({ line: error.line, column: error.column, related: error.related }, expected, `gzip ${gzip}`);
    assert.match(error.message, new RegExp(`retrieved twice for query 'query-250' \\(first on line ${at + 3}\\)`));
  }
  // The same lines with a line of another qrels query moved to the end: the run is read again in held batches.
  const moved = lines.splice(5, 1)[0]!;
  lines.push(moved);
  const interleaved = await rejection(`${qrelsText}query-0 0 ${moved.split(' ')[2]} 1\n`, lines.join('\n'));
  assert.deepEqual(
    { line: interleaved.line, column: interleaved.column, related: interleaved.related },
    { line: expected.line - 1, column: 15, related: { ...expected.related, line: expected.related.line - 1 } },
  );
});

test('a malformed line past the first block, or last without its newline, is reported at its line', async () => {
  const lines = bigRun(100, 100, () => 't').split('\n');
  const qrelsText = 'query-0 0 a 1\n';
  lines[9000] = 'query-90 Q0 doc 1 1e999 t';
  let error = await rejection(qrelsText, lines.join('\n'));
  assert.match(error.message, /:9001:19: error: score '1e999' is beyond the range of a double/);
  lines[9000] = 'query-90 Q0 doc 1 abc t';
  error = await rejection(qrelsText, lines.join('\n'));
  assert.match(error.message, /:9001:19: error: expected a decimal score, found 'abc'/);
  lines[9000] = 'query-90 Q0 doc 1 2 t';
  const last = `${lines.slice(0, -1).join('\n')}\nquery-99 Q0 doc 7`;
  error = await rejection(qrelsText, last);
  assert.match(error.message, /:10001:18: error: expected 6 fields 'qid Q0 docid rank score tag', found 4/);
});
