// Label files for `agree`: CSV (RFC 4180, quoted newlines), TSV, JSONL; extra columns ignored; adjudicated rows left
// out; every problem an error at its line and column.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { readLabelFile } from '../../../core/agreement/labelFile.ts';
import { scratchDir } from '../../helpers.ts';

function file(name: string, text: string): string {
  const path = join(scratchDir(), name);
  writeFileSync(path, text);
  return path;
}

async function rejects(text: string, name: string, pattern: RegExp): Promise<void> {
  const path = file(name, text);
  await assert.rejects(readLabelFile(path, { name }), (error: Error) => {
    assert.match(error.message, pattern);
    return true;
  });
}

test('CSV as export --labels writes it: quoted multi-line rationales, adjudicated rows left out', async () => {
  const path = file(
    'labels.csv',
    'query_id,doc_id,annotator,label,created_at,source,rationale,shown_label\n' +
      'q1,d1,ann,2,2026-01-01T00:00:00.000Z,manual,"line one\nline ""two""",\n' +
      'q1,d1,ben,1,2026-01-01T00:00:00.000Z,manual,,\n' +
      'q1,d1,judy,2,2026-01-02T00:00:00.000Z,adjudicated,settled,\n' +
      'q1,d2,ann,0,2026-01-01T00:00:00.000Z,manual,,\n',
  );
  const read = await readLabelFile(path, { scale: [0, 1, 2] });
  assert.equal(read.format, 'csv');
  assert.equal(read.labels, 3);
  assert.equal(read.adjudicated, 1);
  assert.deepEqual(
    read.data.annotators.map((a) => a.name),
    ['ann', 'ben'],
  );
  assert.deepEqual(
    [...read.data.qids.keys()].map((u) => `${read.data.qids[u]}/${read.data.docids[u]}`),
    ['q1/d1', 'q1/d2'],
  );
  assert.deepEqual(read.data.values, [0, 1, 2]);
});

test('TSV with columns in any order and extra ones; JSONL with extra keys', async () => {
  const tsv = await readLabelFile(
    file('l.tsv', 'label\textra\tannotator\tdoc_id\tquery_id\n1\tx\tann\td1\tq1\n0\ty\tben\td1\tq1\n'),
  );
  assert.equal(tsv.format, 'tsv');
  assert.equal(tsv.labels, 2);
  const jsonl = await readLabelFile(
    file(
      'l.jsonl',
      '{"query_id":"q1","doc_id":"d1","annotator":"ann","label":1,"note":"x"}\n\n{"query_id":"q1","doc_id":"d1","annotator":"llm:gpt","label":"2"}\n',
    ),
  );
  assert.equal(jsonl.format, 'jsonl');
  assert.deepEqual(jsonl.data.annotators, [
    { name: 'ann', kind: 'human' },
    { name: 'llm:gpt', kind: 'llm' },
  ]);
  assert.deepEqual(jsonl.data.values, [1, 2]);
});

test('errors at their line and column', async () => {
  await rejects('query_id,doc_id,label\nq1,d1,1\n', 'a.csv', /^a\.csv:1:1: .*annotator/);
  await rejects('query_id,doc_id,annotator,label\nq1,d1,ann,high\n', 'b.csv', /^b\.csv:2:\d+: expected .*found .*high/);
  await rejects('query_id,doc_id,annotator,label\nq1,d1,,1\n', 'c.csv', /^c\.csv:2:\d+: expected .*annotator/);
  await rejects('query_id,doc_id,annotator,label\nq1,d1,ann\n', 'd.csv', /^d\.csv:2:\d+: expected 4 fields/);
  await rejects(
    '{"query_id":"q1","doc_id":"d1","annotator":"ann","label":1}\n{"query_id":"q1",\n',
    'e.jsonl',
    /^e\.jsonl:2:\d+: expected/,
  );
  await rejects('{"query_id":"q1","doc_id":"d1","label":1}\n', 'f.jsonl', /^f\.jsonl:1:\d+: .*annotator/);
  await rejects(
    'query_id,doc_id,annotator,label\nq1,d1,ann,1\nq1,d2,ann,1\nq1,d1,ann,2\n',
    'g.csv',
    /^g\.csv:4:1: expected one label per annotator for each query and document, found a second label by 'ann' for query 'q1', document 'd1' \(the first on line 2\)/,
  );
});
