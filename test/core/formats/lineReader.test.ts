import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { estimateLineCount, FileReadError, readLineBlocks, readLines } from '../../../core/formats/lineReader.ts';
import { readQrels } from '../../../core/formats/trecQrels.ts';
import { scratchDir } from '../../helpers.ts';

const qrels = 'q1 0 d1 1\nq1 0 d2 0\nq2 0 d1 2\nq2 0 d3 1\n';

// `eval <(zcat qrels.gz) run` or a named pipe: the line count is only a sizing guess, and taking it must not consume
// the pipe (it used to open and close it unread: the writer's text was lost and the read then waited forever).
test('a named pipe is read whole: the line-count estimate does not open it', { timeout: 20_000 }, async () => {
  const dir = scratchDir();
  const source = join(dir, 'source.qrels');
  writeFileSync(source, qrels);
  const fifo = join(dir, 'qrels.fifo');
  assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
  const writer = spawn('sh', ['-c', 'cat "$1" > "$2"', 'sh', source, fifo], { stdio: 'ignore' });
  const exited = new Promise((resolve) => writer.on('exit', resolve));
  assert.equal(estimateLineCount(fifo), undefined);
  const fromPipe = await readQrels(fifo);
  await exited;
  const fromFile = await readQrels(source);
  assert.deepEqual(
    fromPipe.queries.map((q) => [q.qid, q.labelCounts]),
    fromFile.queries.map((q) => [q.qid, q.labelCounts]),
  );
  assert.equal(fromPipe.queries.length, 2);
});

test('a regular file: the estimate counts its lines', () => {
  const file = join(scratchDir(), 'small.qrels');
  writeFileSync(file, qrels);
  assert.equal(estimateLineCount(file), 4);
});

/** Every block readLineBlocks hands over, copied (its buffer is reused). */
async function blocksOf(
  file: string,
  range?: { start: number; end: number },
): Promise<{
  blocks: string[];
  summary: Awaited<ReturnType<typeof readLineBlocks>>;
}> {
  const blocks: string[] = [];
  const summary = await readLineBlocks(
    file,
    (bytes, start, end) => void blocks.push(bytes.toString('latin1', start, end)),
    range,
  );
  return { blocks, summary };
}

test('readLineBlocks: blocks of whole lines that make up the file, the last line without its newline alone', async () => {
  const dir = scratchDir();
  const file = join(dir, 'lines.txt');
  // Lines of every length up to 3000 bytes, so block ends fall everywhere; ~1.5 MB, several blocks.
  const lines = Array.from({ length: 1000 }, (_, i) => `${i} ${'x'.repeat((i * 7919) % 3000)}`);
  writeFileSync(file, `${lines.join('\n')}`);
  const { blocks, summary } = await blocksOf(file);
  assert.ok(blocks.length > 2, `${blocks.length} blocks`);
  assert.equal(blocks.join(''), lines.join('\n'));
  for (const block of blocks.slice(0, -1)) assert.ok(block.endsWith('\n'));
  assert.equal(blocks.at(-1), lines.at(-1), 'the unterminated last line comes alone');
  assert.deepEqual(summary, { endsWithNewline: false, stopped: false });

  writeFileSync(file, `${lines.join('\n')}\n`);
  const terminated = await blocksOf(file);
  assert.equal(terminated.blocks.join(''), `${lines.join('\n')}\n`);
  assert.ok(terminated.blocks.at(-1)!.endsWith('\n'));
  assert.equal(terminated.summary?.endsWithNewline, true);

  writeFileSync(file, '');
  assert.deepEqual(await blocksOf(file), { blocks: [], summary: { endsWithNewline: true, stopped: false } });
});

test('readLineBlocks: a line longer than the buffer grows it, whole', async () => {
  const file = join(scratchDir(), 'long.txt');
  const long = 'y'.repeat(3 << 20);
  writeFileSync(file, `a\n${long}\nb\n`);
  const { blocks } = await blocksOf(file);
  assert.equal(blocks.join(''), `a\n${long}\nb\n`);
  assert.ok(blocks.some((block) => block.includes(`${long}\n`)));
});

test('readLineBlocks: a byte range is read alone', async () => {
  const file = join(scratchDir(), 'range.txt');
  writeFileSync(file, 'one\ntwo\nthree\nfour');
  assert.deepEqual((await blocksOf(file, { start: 4, end: 14 })).blocks, ['two\nthree\n']);
  assert.deepEqual((await blocksOf(file, { start: 14, end: 18 })).blocks, ['four']);
  assert.deepEqual((await blocksOf(file, { start: 4, end: 4 })).blocks, []);
});

test('readLineBlocks: returning false stops the reading', async () => {
  const file = join(scratchDir(), 'stop.txt');
  writeFileSync(file, `${'line\n'.repeat(300_000)}last`);
  let calls = 0;
  const summary = await readLineBlocks(file, () => {
    calls++;
    return false;
  });
  assert.equal(calls, 1);
  assert.equal(summary?.stopped, true);
});

test('readLineBlocks: gzip and a named pipe are left to readLines (undefined), the pipe unopened', {
  timeout: 20_000,
}, async () => {
  const dir = scratchDir();
  const gz = join(dir, 'lines.gz');
  writeFileSync(gz, gzipSync('a\nb\n'));
  assert.equal(await readLineBlocks(gz, () => assert.fail('no block of a gzip file')), undefined);
  const fifo = join(dir, 'lines.fifo');
  assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
  const writer = spawn('sh', ['-c', 'printf "a\\nb\\n" > "$1"', 'sh', fifo], { stdio: 'ignore' });
  const exited = new Promise((resolve) => writer.on('exit', resolve));
  assert.equal(await readLineBlocks(fifo, () => assert.fail('no block of a pipe')), undefined);
  const lines: string[] = [];
  await readLines(fifo, (bytes, start, end) => void lines.push(bytes.toString('latin1', start, end)));
  await exited;
  assert.deepEqual(lines, ['a', 'b'], 'the writer is still there: the pipe was not opened');
});

test('readLineBlocks: a missing file is a FileReadError, a handler error passes through', async () => {
  const dir = scratchDir();
  await assert.rejects(
    readLineBlocks(join(dir, 'missing.txt'), () => {}),
    (error: unknown) => {
      assert.ok(error instanceof FileReadError);
      assert.match(error.message, /missing\.txt: cannot read: no such file/);
      return true;
    },
  );
  const file = join(dir, 'x.txt');
  writeFileSync(file, 'x\n');
  await assert.rejects(
    readLineBlocks(file, () => {
      throw new RangeError('from the handler');
    }),
    /^RangeError: from the handler$/,
  );
});

test('readLineBlocks: the event loop runs while a large file is read', async () => {
  const file = join(scratchDir(), 'large.txt');
  writeFileSync(file, 'z'.repeat(99).concat('\n').repeat(200_000)); // 20 MB
  let blocks = 0;
  let ticksSeen = 0;
  let ticks = 0;
  const ticking = setInterval(() => ticks++, 0);
  try {
    await readLineBlocks(file, () => {
      blocks++;
      ticksSeen = ticks;
    });
  } finally {
    clearInterval(ticking);
  }
  assert.ok(blocks >= 38, `${blocks} blocks`);
  assert.ok(ticksSeen > 0, 'a timer ran between two blocks');
});
