import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { FileReadError } from '../../../core/formats/lineReader.ts';
import { lineBatches, readHead } from '../../../core/importers/lineSource.ts';
import { dataFile } from './helpers.ts';

async function allLines(path: string): Promise<[number, string][]> {
  const lines: [number, string][] = [];
  for await (const batch of lineBatches(path)) {
    for (const line of batch) lines.push([line.number, line.bytes.toString('utf8', line.start, line.end)]);
  }
  return lines;
}

test('lines longer than a chunk, CR kept, the last line without its newline, in plain and gzip files alike', async () => {
  const long = 'x'.repeat(1_300_000);
  const content = `a\r\n${long}\n\nb${long}é\nlast`;
  const expected: [number, string][] = [
    [1, 'a\r'],
    [2, long],
    [3, ''],
    [4, `b${long}é`],
    [5, 'last'],
  ];
  assert.deepEqual(await allLines(dataFile('plain.txt', content)), expected);
  assert.deepEqual(await allLines(dataFile('packed.txt.gz', gzipSync(content))), expected);
  assert.deepEqual(await allLines(dataFile('ends.txt', 'a\nb\n')), [
    [1, 'a'],
    [2, 'b'],
  ]);
  assert.deepEqual(await allLines(dataFile('empty.txt', '')), []);
});

test('a truncated gzip stream is a FileReadError', async () => {
  const packed = gzipSync('x\n'.repeat(100_000));
  await assert.rejects(allLines(dataFile('cut.gz', packed.subarray(0, packed.length - 40))), FileReadError);
});

test('the head of a file for detection: decoded first lines, bounded, gzip-aware; Parquet by its magic bytes', async () => {
  const head = await readHead(dataFile('q.tsv.gz', gzipSync('\ufeffqid\ttext\r\nq1\tx\nq2\ty')), 2);
  assert.deepEqual(head.lines, ['qid\ttext', 'q1\tx']);
  assert.equal(head.gzip, true);
  const noNewline = await readHead(dataFile('one.bin', 'y'.repeat(200_000)), 20, 1000);
  assert.deepEqual(noNewline.lines, ['y'.repeat(1000)]);
  const parquet = await readHead(dataFile('t.parquet', Buffer.concat([Buffer.from('PAR1'), Buffer.alloc(100)])));
  assert.equal(parquet.lines[0]?.slice(0, 4), 'PAR1');
});
