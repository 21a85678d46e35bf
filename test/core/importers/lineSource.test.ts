import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { FileReadError } from '../../../core/formats/lineReader.ts';
import { lineBatches, lineBlocks, readHead } from '../../../core/importers/lineSource.ts';
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

test('blocks of whole lines: the same lines as lineBatches, each block ending with a newline but the last', async () => {
  const long = 'x'.repeat(1_300_000);
  const lines = Array.from({ length: 200_000 }, (_, i) => (i % 50_000 === 1 ? `${long}${i}` : `line ${i}é\r`));
  for (const content of [lines.join('\n'), `${lines.join('\n')}\n`, '\n\n', 'one', '']) {
    for (const path of [dataFile('plain.txt', content), dataFile('packed.txt.gz', gzipSync(content))]) {
      const blocks: string[] = [];
      for await (const { bytes, start, end } of lineBlocks(path)) blocks.push(bytes.toString('utf8', start, end));
      for (const block of blocks.slice(0, -1)) assert.ok(block.endsWith('\n'));
      assert.ok(blocks.every((block) => block.length > 0));
      const fromBlocks = blocks.join('').split('\n');
      if (content.endsWith('\n') || content === '') fromBlocks.pop();
      assert.deepEqual(
        fromBlocks.map((text, i) => [i + 1, text]),
        await allLines(path),
      );
    }
  }
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
