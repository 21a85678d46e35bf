import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { lintRunFile, nodeStudyHost, readDataFileFields } from '../../../core/dsl/studyHost.ts';
import { scratchDir } from '../../helpers.ts';

function file(name: string, content: string | Buffer): string {
  const path = join(scratchDir('dsl-host-'), name);
  writeFileSync(path, content);
  return path;
}

test('JSONL: the keys of the first records, in order of first appearance', async () => {
  const path = file('c.jsonl', '{"_id": "d1", "text": "a"}\n\n{"_id": "d2", "title": "t", "text": "b"}\n');
  assert.deepEqual(await readDataFileFields(path), { fields: ['_id', 'text', 'title'] });
});

test('CSV and TSV: the header, quoted cells and a BOM handled', async () => {
  assert.deepEqual(await readDataFileFields(file('q.csv', '\ufeffqid,"query, text",type\r\n1,"a, b",x\n')), {
    fields: ['qid', 'query, text', 'type'],
  });
  assert.deepEqual(await readDataFileFields(file('q.tsv', 'query-id\tcorpus-id\tscore\nq1\td1\t1\n')), {
    fields: ['query-id', 'corpus-id', 'score'],
  });
});

test('gzip files are read through gunzip', async () => {
  const path = file('c.jsonl.gz', gzipSync('{"docid": "d1", "body": "x"}\n'));
  assert.deepEqual(await readDataFileFields(path), { fields: ['docid', 'body'] });
});

test('no extension: JSONL when the first line is an object, TSV with tabs, CSV otherwise', async () => {
  assert.deepEqual(await readDataFileFields(file('data', '{"a": 1}\n')), { fields: ['a'] });
  assert.deepEqual(await readDataFileFields(file('data', 'a\tb\n')), { fields: ['a', 'b'] });
  assert.deepEqual(await readDataFileFields(file('data', 'a,b\n')), { fields: ['a', 'b'] });
});

test("problems: no JSON object, an empty file, a missing file; a broken line among records is the linter's", async () => {
  // Fields come from the records that parse; the broken line is the record linter's to report.
  assert.deepEqual(await readDataFileFields(file('x.jsonl', '{"a": 1}\n{oops\n')), { fields: ['a'] });
  assert.deepEqual(await readDataFileFields(file('x.jsonl', '[1, 2]\n')), {
    problem: 'no JSON object in the first line (line 1 is not one)',
  });
  assert.deepEqual(await readDataFileFields(file('x.jsonl', '\n\n')), { problem: 'no records: the file is empty' });
  assert.deepEqual(await readDataFileFields('/nonexistent/x.jsonl'), { problem: 'cannot read: no such file' });
});

test('a huge first line is read without reading the rest of the file', async () => {
  const big = `{"id": "t1", "table": "${'x'.repeat(2_000_000)}"}\n`;
  assert.deepEqual(await readDataFileFields(file('big.jsonl', big.repeat(3))), { fields: ['id', 'table'] });
});

test('nodeStudyHost: exists and readText answer from disk', async () => {
  const path = file('p.md', 'Judge {{text}}');
  const host = nodeStudyHost();
  assert.equal(await host.exists(path), true);
  assert.equal(await host.exists(`${path}.missing`), false);
  assert.equal(await host.readText(path), 'Judge {{text}}');
  assert.equal(await host.readText(`${path}.missing`), undefined);
});

test('lintRunFile: core/lint on a run file; a missing file is one error, not a throw', async () => {
  assert.deepEqual(await lintRunFile(file('ok.trec', 'q1 Q0 d1 1 2.0 t\nq1 Q0 d2 2 1.0 t\n')), { errors: 0 });
  const broken = await lintRunFile(file('bad.trec', 'q1 Q0 d1 1 2.0 t\nq1 Q0 d2\n'));
  assert.equal(broken.errors, 1);
  assert.equal(broken.first!.line, 2);
  const missing = await lintRunFile('/nonexistent/run.trec');
  assert.equal(missing.errors, 1);
});
