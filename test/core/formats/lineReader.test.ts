import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { estimateLineCount } from '../../../core/formats/lineReader.ts';
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
