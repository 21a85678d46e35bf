import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { readFieldNames } from '../../../core/data/fieldNames.ts';
import { scratchDir } from '../../helpers.ts';

test('JSONL: the union of keys over the first records, with nested metadata keys as dotted names', async () => {
  const file = join(scratchDir(), 'queries.jsonl');
  writeFileSync(
    file,
    '{"_id": "q1", "text": "a", "metadata": {"lang": "en"}}\nnot json\n\n{"_id": "q2", "text": "b", "instruction": "x", "metadata": {"url": "u"}}\n',
  );
  assert.deepEqual(await readFieldNames(file), {
    fields: ['_id', 'text', 'metadata', 'metadata.lang', 'instruction', 'metadata.url'],
  });
});

test('only the first N records are read', async () => {
  const file = join(scratchDir(), 'items.jsonl');
  writeFileSync(file, '{"a": 1}\n{"b": 1}\n{"c": 1}\n');
  assert.deepEqual(await readFieldNames(file, { sampleRecords: 2 }), { fields: ['a', 'b'] });
});

test('a nested object with many keys is data, not fields', async () => {
  const scores = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`d${i}`, i]));
  const file = join(scratchDir(), 'runs.jsonl');
  writeFileSync(file, `${JSON.stringify({ qid: 'q1', scores })}\n`);
  assert.deepEqual(await readFieldNames(file), { fields: ['qid', 'scores'] });
});

test('CSV and TSV: the header, quoted names unquoted; gzip read by its magic bytes', async () => {
  const dir = scratchDir();
  writeFileSync(join(dir, 'tables.csv'), '\ufefftable_id,"cap, tion",table\nt1,c,x\n');
  assert.deepEqual(await readFieldNames(join(dir, 'tables.csv')), { fields: ['table_id', 'cap, tion', 'table'] });
  writeFileSync(join(dir, 'q.tsv.gz'), gzipSync('qid\tquery\nq1\tx\n'));
  assert.deepEqual(await readFieldNames(join(dir, 'q.tsv.gz')), { fields: ['qid', 'query'] });
  writeFileSync(join(dir, 'forced.txt'), 'a|b\n');
  assert.deepEqual(await readFieldNames(join(dir, 'forced.txt'), { format: 'csv' }), { fields: ['a|b'] });
});

test('problems are user-facing messages, never rejections', async () => {
  const dir = scratchDir();
  assert.deepEqual(await readFieldNames(join(dir, 'missing.jsonl')), {
    problem: `${join(dir, 'missing.jsonl')}: cannot read: no such file`,
  });
  assert.deepEqual(await readFieldNames(dir), { problem: `${dir}: cannot read: is a directory` });
  writeFileSync(join(dir, 'empty.jsonl'), '\n\n');
  assert.deepEqual(await readFieldNames(join(dir, 'empty.jsonl')), {
    problem: `${join(dir, 'empty.jsonl')}: no records: the file is empty`,
  });
  writeFileSync(join(dir, 'qrels.txt'), 'q1 0 d1 1\n');
  assert.deepEqual(await readFieldNames(join(dir, 'qrels.txt')), {
    problem:
      `${join(dir, 'qrels.txt')}: cannot tell the format: line 1 is neither a JSON object (JSONL) nor a header ` +
      'with commas (CSV) or tabs (TSV)',
  });
  writeFileSync(join(dir, 'broken.jsonl'), '{"a" 1}\n[1]\n');
  assert.deepEqual(await readFieldNames(join(dir, 'broken.jsonl')), {
    problem: `${join(dir, 'broken.jsonl')}: no JSON object in the first 2 lines (line 1 is not one)`,
  });
  writeFileSync(join(dir, 'open.csv'), 'a,"b\n');
  assert.deepEqual(await readFieldNames(join(dir, 'open.csv')), {
    problem: `${join(dir, 'open.csv')}: the header's quoted field is never closed`,
  });
  writeFileSync(join(dir, 'truncated.jsonl.gz'), gzipSync('{"a": 1}\n'.repeat(1000)).subarray(0, 30));
  const truncated = await readFieldNames(join(dir, 'truncated.jsonl.gz'));
  assert.ok('problem' in truncated && truncated.problem.includes('cannot read'), JSON.stringify(truncated));
});
