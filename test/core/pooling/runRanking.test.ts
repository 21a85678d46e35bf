// A run as pooling reads it: each query's top documents in trec_eval's order, cut at a depth.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { FormatError } from '../../../core/formats/formatError.ts';
import { judgedAtK } from '../../../core/pooling/judgedAtK.ts';
import { readRunRanking } from '../../../core/pooling/runRanking.ts';
import { scratchDir } from '../../helpers.ts';

function runFile(text: string): string {
  const file = join(scratchDir(), 'run.trec');
  writeFileSync(file, text);
  return file;
}

const ids = (ranking: Awaited<ReturnType<typeof readRunRanking>>, qid: string) =>
  ranking.queries.get(qid)!.map((d) => `${d.rank}:${d.docid}`);

test("trec_eval's order: score descending, ties by docid descending, the rank column ignored; cut at the depth", async () => {
  const ranking = await readRunRanking(
    runFile('q1 Q0 a 1 1.0 r\nq1 Q0 c 2 2.0 r\nq1 Q0 b 3 2.0 r\nq1 Q0 d 4 0.5 r\n# a comment\nq2 Q0 x 1 3 r\n'),
    3,
  );
  assert.deepEqual(ids(ranking, 'q1'), ['1:c', '2:b', '3:a']);
  assert.deepEqual(ids(ranking, 'q2'), ['1:x']);
  assert.equal(ranking.tag, 'r');
  assert.equal(ranking.lines, 5);
});

test('a long query is cut back as it is read, with the same result as sorting it whole', async () => {
  let text = '';
  const scores: [string, number][] = [];
  for (let i = 0; i < 5000; i++) {
    const score = (i * 7919) % 1000;
    scores.push([`d${i}`, score]);
    text += `q1 Q0 d${i} ${i + 1} ${score} r\n`;
  }
  const ranking = await readRunRanking(runFile(text), 10);
  const expected = scores
    .sort((a, b) => b[1] - a[1] || Buffer.compare(Buffer.from(b[0]), Buffer.from(a[0])))
    .slice(0, 10)
    .map(([id], i) => `${i + 1}:${id}`);
  assert.deepEqual(ids(ranking, 'q1'), expected);
});

test('a docid ranked twice in a query is an error at its line; a query that comes back keeps one ranking of it', async () => {
  await assert.rejects(
    readRunRanking(runFile('q1 Q0 d1 1 2 r\nq1 Q0 d2 2 1 r\nq1 Q0 d1 3 0 r\n'), 10),
    (error: unknown) =>
      error instanceof FormatError &&
      error.line === 3 &&
      error.column === 7 &&
      /document 'd1' is ranked again for query 'q1' \(first on line 1\)/.test(error.message),
  );
  const back = await readRunRanking(runFile('q1 Q0 d1 1 2 r\nq2 Q0 d9 1 1 r\nq1 Q0 d1 2 5 r\n'), 10);
  assert.deepEqual(ids(back, 'q1'), ['1:d1']);
});

test('a malformed line and an empty run are errors at their positions', async () => {
  await assert.rejects(readRunRanking(runFile('q1 Q0 d1 1 2 r\nq1 Q0 d2 2\n'), 5), /expected 6 fields/);
  await assert.rejects(readRunRanking(runFile('q1 Q0 d1 1 high r\n'), 5), /expected a decimal score, found 'high'/);
  await assert.rejects(readRunRanking(runFile('# only a comment\n'), 5), /the run has no results/);
});

test('judged@k divides by k, as trec_eval P@k, and averages over the run queries', async () => {
  const ranking = await readRunRanking(runFile('q1 Q0 a 1 3 r\nq1 Q0 b 2 2 r\nq2 Q0 c 1 1 r\n'), 4);
  const judged = new Set(['q1/a', 'q2/c']);
  const result = judgedAtK(ranking, 4, (q, d) => judged.has(`${q}/${d}`));
  assert.deepEqual(
    result.queries.map((q) => [q.qid, q.judged, q.value]),
    [
      ['q1', 1, 0.25],
      ['q2', 1, 0.25],
    ],
  );
  assert.equal(result.mean, 0.25);
});

test('ids are read whole, however long: two docids alike in their first 60 bytes stay two', async () => {
  const stem = `doc-${'é'.repeat(40)}`;
  const ranking = await readRunRanking(runFile(`q1 Q0 ${stem}-1 1 2 r\nq1 Q0 ${stem}-2 2 1 r\n`), 10);
  assert.deepEqual(ids(ranking, 'q1'), [`1:${stem}-1`, `2:${stem}-2`]);
});
