import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { FileReadError } from '../../../core/formats/lineReader.ts';
import { lintFile } from '../../../core/lint/lintFile.ts';
import { lintText } from '../../../core/lint/lintText.ts';
import { fixturesDir, scratchDir } from '../../helpers.ts';
import { where } from './lintTestHelpers.ts';

const broken = 'q1 0 d1 1\nq1 0 d2\nq1 0 d1 2\nq2 0 d1 0\r\nq2 0 d2 x';

test('a file on disk gives exactly what lintText gives for its text, named as asked', async () => {
  const file = join(scratchDir(), 'broken.qrels');
  writeFileSync(file, broken);
  const fromDisk = await lintFile(file, { name: 'broken.qrels' });
  const fromText = lintText(broken, undefined, 'broken.qrels');
  assert.deepEqual(fromDisk, fromText);
  assert.deepEqual(fromDisk.diagnostics.map(where), [
    '2:1-2:8 error column-count',
    '3:6-3:8 error duplicate-pair',
    '4:1-4:3 hint no-relevant-document',
    '4:10-4:11 hint crlf',
    '5:9-5:10 error non-integer-label',
    '5:10-5:10 hint missing-final-newline',
  ]);
  assert.equal(fromDisk.diagnostics[0]!.file, 'broken.qrels');
});

test('a gzip file is read by its magic bytes, whatever its name', async () => {
  const dir = scratchDir();
  const file = join(dir, 'broken.txt');
  writeFileSync(file, gzipSync(broken));
  assert.deepEqual((await lintFile(file)).diagnostics.map(where), lintText(broken).diagnostics.map(where));
  const run = join(dir, 'run.gz');
  writeFileSync(run, gzipSync('q1 Q0 d1 1 0.5 a\nq1 Q0 d1 2 0.4 a\n'));
  const result = await lintFile(run, { type: 'run' });
  assert.equal(result.type, 'run');
  assert.deepEqual(result.diagnostics.map(where), ['2:7-2:9 error duplicate-docid']);
});

test('a pipe (process substitution) is read once, plain or gzip', async () => {
  const dir = scratchDir();
  for (const [name, content] of [
    ['plain', Buffer.from(broken)],
    ['gzip', gzipSync(broken)],
  ] as const) {
    const source = join(dir, `${name}.src`);
    writeFileSync(source, content);
    const fifo = join(dir, `${name}.fifo`);
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
    const writer = spawn('sh', ['-c', 'cat "$1" > "$2"', 'sh', source, fifo], { stdio: 'ignore' });
    const exited = new Promise((resolve) => writer.on('exit', resolve));
    const result = await lintFile(fifo, { name: 'broken.qrels' });
    await exited;
    assert.deepEqual(result, lintText(broken, undefined, 'broken.qrels'), name);
  }
});

test('lines across read chunks and duplicates megabytes apart are found', async () => {
  let text = '';
  for (let q = 0; q < 400; q++) for (let d = 0; d < 300; d++) text += `query-${q} 0 document-${q}-${d} ${d % 4}\n`;
  text += 'query-7 0 document-7-123 1\n';
  assert.ok(text.length > 3 << 20);
  const file = join(scratchDir(), 'big.qrels');
  writeFileSync(file, text);
  const result = await lintFile(file);
  assert.deepEqual(
    result.diagnostics.map((d) => [d.line, d.rule, d.related?.line]),
    [[120001, 'duplicate-pair', 7 * 300 + 124]],
  );
});

test('a missing file rejects with a FileReadError that says so', async () => {
  await assert.rejects(lintFile(join(scratchDir(), 'nope.qrels')), (error: unknown) => {
    assert.ok(error instanceof FileReadError);
    assert.match(error.message, /nope\.qrels: cannot read: no such file$/);
    return true;
  });
});

test('zero errors on every real qrels file (hints and warnings only if true)', async () => {
  const dir = join(fixturesDir, 'qrels-real');
  for (const name of readdirSync(dir)) {
    const result = await lintFile(join(dir, name));
    assert.equal(result.type, 'qrels', name);
    const found = result.diagnostics.map((d) => `${d.rule}@${d.line}`);
    if (name === 'qrels.ciral-v1.0-ha-dev.tsv') {
      assert.ok(!readFileSync(join(dir, name), 'utf8').endsWith('\n'));
      assert.deepEqual(found, ['missing-final-newline@165'], name);
    } else {
      assert.deepEqual(found, [], name);
    }
  }
});

test("trec_eval's own test files: comments are not errors, and ties ordered against trec_eval are flagged", async () => {
  const dir = join(fixturesDir, 'trec_eval');
  for (const name of ['qrels.test', 'qrels.test.with-comments', 'qrels.rel_level', 'results.test']) {
    assert.deepEqual((await lintFile(join(dir, name))).diagnostics, [], name);
  }
  const comments = await lintFile(join(dir, 'qrels.comment.test'));
  assert.deepEqual(
    comments.diagnostics.map((d) => d.rule),
    ['no-relevant-document'],
  );
  const runs = await lintFile(join(dir, 'results.comment.test'));
  assert.ok(runs.diagnostics.length > 0);
  assert.ok(runs.diagnostics.every((d) => d.rule === 'rank-score-disagreement' && /ties with rank/.test(d.message)));
});
