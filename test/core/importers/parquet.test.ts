import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gzipSync, zstdCompressSync } from 'node:zlib';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { parquetImporter } from '../../../core/importers/parquet.ts';
import { importerFor, readImport } from '../../../core/importers/registry.ts';
import { collect, dataFile, importError } from './helpers.ts';

type WriteOptions = Parameters<typeof parquetWriteBuffer>[0];

function parquetFile(name: string, options: WriteOptions): string {
  return dataFile(name, new Uint8Array(parquetWriteBuffer(options)));
}

test('a Parquet corpus read row group by row group: columns through the mapping, the rest as metadata, rows as positions', async () => {
  const path = parquetFile('corpus.parquet', {
    columnData: [
      { name: 'doc_id', data: ['d1', 'd2', 'd3'], type: 'STRING' },
      { name: 'title', data: ['Rivers', null, 'Lakes'], type: 'STRING' },
      { name: 'contents', data: ['| river |', 'Nile', '| lake |'], type: 'STRING' },
      { name: 'year', data: [2019, 2020, 2021], type: 'INT32' },
    ],
    rowGroupSize: 2,
  });
  assert.equal((await importerFor(path, { target: 'corpus' })).id, 'parquet');
  const records = await collect(
    readImport(path, { target: 'corpus', mapping: { id: 'doc_id', body: 'contents' }, documentFormat: 'markdown' }),
  );
  assert.deepEqual(records, [
    {
      kind: 'document',
      docid: 'd1',
      body: '| river |',
      title: 'Rivers',
      format: 'markdown',
      metadata: { year: 2019 },
      at: { file: path, line: 1 },
    },
    {
      kind: 'document',
      docid: 'd2',
      body: 'Nile',
      format: 'markdown',
      metadata: { year: 2020 },
      at: { file: path, line: 2 },
    },
    {
      kind: 'document',
      docid: 'd3',
      body: '| lake |',
      title: 'Lakes',
      format: 'markdown',
      metadata: { year: 2021 },
      at: { file: path, line: 3 },
    },
  ]);
});

test('Parquet pages compressed with gzip and zstd; INT64 ids become their decimal text', async () => {
  const columnData: WriteOptions['columnData'] = [
    { name: 'qid', data: [19335n, 9007199254740993n], type: 'INT64' },
    { name: 'text', data: ['anthropological definition of environment', 'axon terminals'], type: 'STRING' },
  ];
  const codecs: [string, WriteOptions][] = [
    ['gzip', { columnData, codec: 'GZIP', compressors: { GZIP: (bytes) => new Uint8Array(gzipSync(bytes)) } }],
    ['zstd', { columnData, codec: 'ZSTD', compressors: { ZSTD: (bytes) => new Uint8Array(zstdCompressSync(bytes)) } }],
  ];
  for (const [codec, options] of codecs) {
    const path = parquetFile(`queries.${codec}.parquet`, options);
    const records = await collect(parquetImporter.read(path, { target: 'queries', mapping: { id: 'qid' } }));
    assert.deepEqual(
      records.map((r) => r.kind === 'query' && [r.qid, r.text]),
      [
        ['19335', 'anthropological definition of environment'],
        ['9007199254740993', 'axon terminals'],
      ],
      codec,
    );
  }
});

test('Parquet judgments: a label that is not an integer, at its row and column', async () => {
  const path = parquetFile('labels.parquet', {
    columnData: [
      { name: 'query_id', data: ['q1', 'q1', 'q2'], type: 'STRING' },
      { name: 'doc_id', data: ['d1', 'd2', 'd1'], type: 'STRING' },
      { name: 'annotator', data: ['alice', 'alice', 'bob'], type: 'STRING' },
      { name: 'label', data: [2, 0, 1.5], type: 'DOUBLE' },
    ],
  });
  const error = await importError(parquetImporter.read(path, { target: 'labels' }));
  assert.equal(error.message, `${path}:3: expected an integer label in 'label', found a number (1.5)`);
  assert.deepEqual(error.at, { file: path, line: 3, field: 'label' });
});

test('Parquet: a mapped column the file lacks is named with the columns it has', async () => {
  const path = parquetFile('q.parquet', {
    columnData: [
      { name: 'id', data: ['q1'], type: 'STRING' },
      { name: 'body', data: ['x'], type: 'STRING' },
    ],
  });
  assert.equal(
    (await importError(parquetImporter.read(path, { target: 'queries', mapping: { text: 'query' } }))).message,
    `${path}:1: expected a column 'query' (mapped to text), found columns 'id', 'body'`,
  );
});

test('a file that is not Parquet, a gzipped Parquet file, a broken footer: ImportErrors, never a crash', async () => {
  const csv = dataFile('fake.parquet', 'id,body\n');
  assert.equal(
    (await importError(parquetImporter.read(csv, { target: 'corpus' }))).message,
    `${csv}:1:1: expected a Parquet file (its first bytes are 'PAR1'), found 'id,b'`,
  );
  const good = parquetWriteBuffer({ columnData: [{ name: 'id', data: ['d1'], type: 'STRING' }] });
  const gz = dataFile('corpus.parquet.gz', gzipSync(new Uint8Array(good)));
  assert.match(
    (await importError(parquetImporter.read(gz, { target: 'corpus' }))).message,
    /:1:1: expected a Parquet file \(its first bytes are 'PAR1'\), found a gzip file/,
  );
  const broken = dataFile(
    'broken.parquet',
    Buffer.concat([Buffer.from('PAR1'), Buffer.alloc(32, 7), Buffer.from('PAR1')]),
  );
  const error = await importError(parquetImporter.read(broken, { target: 'corpus' }));
  assert.deepEqual(error.at, { file: broken, line: 1 });
  assert.equal(error.expected, 'a readable Parquet footer');
});
