import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { FileReadError } from '../../../../core/formats/lineReader.ts';
import { lintRecordFile } from '../../../../core/lint/records/lintRecordFile.ts';
import { lintRecordText } from '../../../../core/lint/records/lintRecordText.ts';
import { fixturesDir, scratchDir } from '../../../helpers.ts';
import { where } from './recordLintHelpers.ts';

const broken =
  '{"_id": "q1", "text": "a"}\n{"_id": "q1", "text": "b"}\r\n\n{"_id": "q3" "text": "c"}\n[1]\n{"_id": "é", "text": 2}';

test('a file on disk gives exactly what lintRecordText gives for its text, named as asked', async () => {
  const file = join(scratchDir(), 'queries.jsonl');
  writeFileSync(file, broken);
  const fromDisk = await lintRecordFile(file, { file: 'data/queries.jsonl' });
  assert.deepEqual(fromDisk, lintRecordText(broken, { file: 'data/queries.jsonl' }));
  assert.deepEqual(fromDisk.diagnostics.map(where), [
    '2:9-2:13 error duplicate-id',
    '2:27-2:28 hint crlf',
    '3:1-3:1 error blank-line',
    '4:14-4:20 error invalid-json',
    '5:1-5:4 error not-an-object',
    '6:24-6:24 hint missing-final-newline',
  ]);
  assert.equal((await lintRecordFile(file)).file, file);
});

test('a gzip file is read by its magic bytes, whatever its name; CSV too', async () => {
  const dir = scratchDir();
  const file = join(dir, 'queries.jsonl.gz');
  writeFileSync(file, gzipSync(broken));
  assert.deepEqual((await lintRecordFile(file)).diagnostics.map(where), lintRecordText(broken).diagnostics.map(where));
  const csv = join(dir, 'corpus.gz');
  writeFileSync(csv, gzipSync('_id,title,text\nd1,T,"a\nb"\nd1,T\n'));
  const result = await lintRecordFile(csv);
  assert.equal(result.format, 'csv');
  assert.deepEqual(result.diagnostics.map(where), ['4:1-4:3 error duplicate-id', '4:1-4:5 error csv-column-count']);
});

test('invalid UTF-8 bytes on disk never throw and are one column each', async () => {
  const file = join(scratchDir(), 'bad.jsonl');
  writeFileSync(
    file,
    Buffer.concat([Buffer.from('{"_id": "'), Buffer.from([0xff, 0xc3]), Buffer.from('", "text": "x" y}\n')]),
  );
  const result = await lintRecordFile(file);
  assert.deepEqual(result.diagnostics.map(where), ['1:27-1:28 error invalid-json']);
});

test('a file that cannot be read rejects with the reader error', async () => {
  await assert.rejects(lintRecordFile(join(scratchDir(), 'missing.jsonl')), (error: unknown) => {
    assert.ok(error instanceof FileReadError);
    assert.match(error.message, /missing\.jsonl: cannot read: no such file$/);
    return true;
  });
});

test('every real qrels file fed to the record linter is one file-level error, never a cascade', async () => {
  const dir = join(fixturesDir, 'qrels-real');
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    for (const format of [undefined, 'jsonl'] as const) {
      const result = await lintRecordFile(path, format ? { format } : {});
      assert.deepEqual(
        result.diagnostics.map((d) => d.rule),
        ['record-format'],
        `${name} ${format ?? 'detected'}: ${result.diagnostics
          .slice(0, 3)
          .map((d) => d.message)
          .join(' | ')}`,
      );
      assert.match(result.diagnostics[0]!.message, /(TREC qrels|TREC run|BEIR qrels)/, name);
    }
    assert.ok(readFileSync(path).length > 0);
  }
});
