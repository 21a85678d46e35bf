import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { FileReadError } from '../../../core/formats/lineReader.ts';
import { findImporter, importerFor, importers, readImport } from '../../../core/importers/registry.ts';
import { ImportError, type ImportTarget } from '../../../core/importers/types.ts';
import { scratchDir } from '../../helpers.ts';
import { collect, dataFile } from './helpers.ts';

test('every importer is registered once, by the ids --format takes', () => {
  assert.deepEqual(importers.map((i) => i.id).sort(), [
    'beir',
    'csv',
    'hf-viewer',
    'jsonl',
    'labels',
    'parquet',
    'trec-qrels',
    'trec-topics',
    'tsv',
  ]);
  assert.equal(
    findImporter('trec-qrels')?.targets.join(),
    'qrels,labels',
    'one person’s qrels are labels too (import --labels --annotator)',
  );
  assert.equal(findImporter('xml'), undefined);
});

test('detection by name (without .gz) and first lines, for the target asked', async () => {
  const dir = scratchDir();
  const cases: [string, string, ImportTarget, string][] = [
    ['corpus.jsonl.gz', '{"_id": "d1", "title": "", "text": "x"}\n', 'corpus', 'beir'],
    ['docs.jsonl', '{"id": "d1", "body": "x"}\n', 'corpus', 'jsonl'],
    ['docs.txt', '{"id": "d1", "body": "x"}\n', 'corpus', 'jsonl'],
    ['items.ndjson', '{"_id": "d1", "text": "x"}\n', 'queries', 'beir'],
    ['tables.csv', 'table_id,caption,table\nt1,c,x\n', 'corpus', 'csv'],
    ['q.tsv.gz', 'qid\tquery\nq1\tx\n', 'queries', 'tsv'],
    ['queries.dev.small.tsv.gz', "1048585\twhat is paula deen's brother\n", 'queries', 'trec-topics'],
    ['test.tsv', 'query-id\tcorpus-id\tscore\n1\t31715818\t1\n', 'qrels', 'beir'],
    ['qrels.miracl.tsv', '0\tQ0\t462221#4\t1\n', 'qrels', 'trec-qrels'],
    ['judged.csv', 'topic,doc,grade\n1,d1,2\n', 'qrels', 'csv'],
    ['export.csv', 'query_id,doc_id,annotator,label\nq1,d1,alice,1\n', 'labels', 'labels'],
    ['viewer.txt', 'text\nstring\nsource\nstring\nx\ny\n', 'corpus', 'hf-viewer'],
  ];
  for (const [name, content, target, id] of cases) {
    const path = join(dir, name);
    writeFileSync(path, name.endsWith('.gz') ? gzipSync(content) : content);
    assert.equal((await importerFor(path, { target })).id, id, name);
  }
});

test('--format wins over detection; an unknown format or one that does not read the target is an ImportError', async () => {
  const path = dataFile('data.txt', '{"id": "d1", "body": "x"}\n');
  assert.equal((await importerFor(path, { target: 'corpus', format: 'jsonl' })).id, 'jsonl');
  await assert.rejects(importerFor(path, { target: 'corpus', format: 'xml' }), {
    name: 'ImportError',
    message: `${path}:1: expected a format among parquet, hf-viewer, beir, trec-qrels, trec-topics, labels, jsonl, csv, tsv, found --format 'xml'`,
  });
  await assert.rejects(importerFor(path, { target: 'corpus', format: 'trec-topics' }), {
    message: `${path}:1: expected a format that reads corpus: parquet, hf-viewer, beir, jsonl, csv, tsv, found --format trec-topics, which reads queries`,
  });
});

test('a file no importer recognises: the error lists the formats for the target', async () => {
  const path = dataFile('notes.txt', 'hello world\n');
  const error = await importerFor(path, { target: 'qrels', name: 'notes.txt' }).catch((e: unknown) => e);
  assert.ok(error instanceof ImportError);
  assert.deepEqual(error.at, { file: 'notes.txt', line: 1 });
  assert.equal(error.found, "a file starting 'hello world'");
  for (const id of ['parquet', 'beir', 'trec-qrels', 'jsonl', 'csv', 'tsv'])
    assert.match(error.expected, new RegExp(`${id}: `));
  assert.doesNotMatch(error.expected, /trec-topics|hf-viewer/);
  const empty = dataFile('empty.txt', '');
  await assert.rejects(importerFor(empty, { target: 'corpus' }), { found: 'an empty file' });
});

test('a missing file or a directory is a FileReadError, from detection and from reading', async () => {
  const dir = scratchDir();
  const missing = join(dir, 'missing.jsonl');
  await assert.rejects(importerFor(missing, { target: 'corpus' }), FileReadError);
  await assert.rejects(collect(readImport(missing, { target: 'corpus', format: 'jsonl' })), {
    name: 'Error',
    message: `${missing}: cannot read: no such file`,
  });
  mkdirSync(join(dir, 'corpus.jsonl'));
  await assert.rejects(
    collect(readImport(join(dir, 'corpus.jsonl'), { target: 'corpus', format: 'beir' })),
    FileReadError,
  );
  await assert.rejects(collect(readImport(missing, { target: 'corpus', format: 'parquet' })), FileReadError);
  const broken = dataFile('docs.jsonl.gz', Buffer.concat([gzipSync('{"id": "d1", "body": "x"}\n').subarray(0, 20)]));
  await assert.rejects(collect(readImport(broken, { target: 'corpus' })), FileReadError);
});

test('records stream: the first ones arrive before the file is read to its end (a bad last line is never reached)', async () => {
  const lines: string[] = [];
  for (let i = 0; i < 100_000; i++) lines.push(JSON.stringify({ _id: `d${i}`, text: `passage ${i} `.repeat(8) }));
  lines.push('{not json');
  const path = dataFile('corpus.jsonl', `${lines.join('\n')}\n`);
  const first: string[] = [];
  for await (const record of readImport(path, { target: 'corpus' })) {
    if (record.kind === 'document') first.push(record.docid);
    if (first.length === 3) break;
  }
  assert.deepEqual(first, ['d0', 'd1', 'd2']);
  await assert.rejects(collect(readImport(path, { target: 'corpus' })), {
    at: { file: path, line: 100_001, column: 2 },
  });
});
