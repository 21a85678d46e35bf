import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { detectFileType } from '../../../core/lint/detectFileType.ts';
import { fixturesDir } from '../../helpers.ts';

function detect(text: string): string {
  const lines = text.split('\n').map((line, i) => ({ bytes: Buffer.from(line), number: i + 1 }));
  return detectFileType(lines.slice(0, 150)).type;
}

test('every real qrels file is detected as TREC qrels (tabs, Q0, URL-encoded ids, UUIDs, iter 0.5)', () => {
  const dir = join(fixturesDir, 'qrels-real');
  for (const name of readdirSync(dir)) assert.equal(detect(readFileSync(join(dir, name), 'utf8')), 'qrels', name);
});

test("trec_eval's test files: qrels with comments, runs with extra columns", () => {
  const dir = join(fixturesDir, 'trec_eval');
  for (const name of ['qrels.test', 'qrels.test.with-comments', 'qrels.comment.test', 'qrels.rel_level']) {
    assert.equal(detect(readFileSync(join(dir, name), 'utf8')), 'qrels', name);
  }
  for (const name of ['results.test', 'results.comment.test', 'results.trunc']) {
    assert.equal(detect(readFileSync(join(dir, name), 'utf8')), 'run', name);
  }
  assert.equal(detect(readFileSync(join(dir, 'out.test'), 'utf8')), 'unknown');
});

test('BEIR TSVs, with the standard header, another header, or none', () => {
  assert.equal(detect('query-id\tcorpus-id\tscore\n'), 'beir-qrels');
  assert.equal(detect('query-id\tcorpus-id\tscore\r\nq1\td1\t1.5\r\n'), 'beir-qrels');
  assert.equal(detect('qid\tdocid\trel\nq1\td1\t1\nq1\td2\t0\n'), 'beir-qrels');
  assert.equal(detect('q1\td1\t1\nq1\td2\t0\n'), 'beir-qrels');
  assert.equal(detect('q1 d1 1\nq1 d2 0\n'), 'unknown');
});

test('prels, empty files and a byte order mark', () => {
  assert.equal(detect('801 GX000-00-0000000 1 2 0.0123\n801 GX000-00-0000001 0 2 0.5\n'), 'prels');
  assert.equal(detect(''), 'empty');
  assert.equal(detect('# only a comment\n\n'), 'empty');
  assert.equal(detect('\ufeffq1 0 d1 1\n'), 'qrels');
});

test('a Hugging Face dataset-viewer copy is told by its name/type header, not read as one column', () => {
  const copy = readFileSync(join(fixturesDir, 'seeds', 'hf-viewer-arxiv-chunks.txt'), 'utf8');
  const lines = copy.split('\n').map((line, i) => ({ bytes: Buffer.from(line), number: i + 1 }));
  const detection = detectFileType(lines.slice(0, 150));
  assert.deepEqual([detection.type, detection.description], ['hf-viewer', 'columns text, source']);
  // A one-column file whose second line is no column type stays unknown.
  assert.equal(detect('text\nhello world\nsource\n'), 'unknown');
});
