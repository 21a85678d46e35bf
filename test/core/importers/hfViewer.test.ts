import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { hfViewerImporter } from '../../../core/importers/hfViewer.ts';
import { importerFor, readImport } from '../../../core/importers/registry.ts';
import type { DocumentRecord } from '../../../core/importers/types.ts';
import { fixturesDir } from '../../helpers.ts';
import { collect, dataFile, importError } from './helpers.ts';

const seed = join(fixturesDir, 'seeds', 'hf-viewer-arxiv-chunks.txt');

test('the dataset-viewer copy of seed 003: 100 chunks of 5 sources, ids <source>#<ordinal>, text verbatim', async () => {
  assert.equal((await importerFor(seed, { target: 'corpus' })).id, 'hf-viewer');
  const records = (await collect(readImport(seed, { target: 'corpus' }))) as DocumentRecord[];
  assert.equal(records.length, 100);
  const perSource = new Map<string, number>();
  for (const record of records) {
    const source = record.metadata.source as string;
    assert.deepEqual(Object.keys(record.metadata), ['source']);
    assert.equal(record.docid, `${source}#${perSource.get(source) ?? 0}`);
    perSource.set(source, (perSource.get(source) ?? 0) + 1);
  }
  assert.deepEqual(Object.fromEntries(perSource), {
    'https://arxiv.org/abs/2505.15817v1': 2,
    'https://arxiv.org/abs/2505.15872v2': 32,
    'https://arxiv.org/abs/2505.15874v1': 32,
    'https://arxiv.org/abs/2505.15877v1': 24,
    'https://arxiv.org/abs/2505.15879v1': 10,
  });
  // Each body is its line of the file, byte for byte (the copy's `\n` stay two characters); the source the next.
  const lines = readFileSync(seed, 'utf8').split('\n');
  records.forEach((record, i) => {
    assert.deepEqual(record.at, { file: seed, line: 5 + 2 * i, column: 1 });
    assert.equal(record.body, lines[4 + 2 * i]);
    assert.equal(record.metadata.source, lines[5 + 2 * i]);
    assert.equal(record.format, 'plain');
  });
  assert.ok(records.some((record) => record.body.includes('\\n')));
  assert.equal(records[2]!.docid, 'https://arxiv.org/abs/2505.15872v2#0');
  assert.equal(records[99]!.docid, 'https://arxiv.org/abs/2505.15879v1#9');
});

test('ordinals count within each source, so interleaved sources keep stable ids; typed columns become numbers', async () => {
  const path = dataFile(
    'copy.txt',
    'text\nstring\nsource\nstring\npage\nint64\nalpha one\nA\n1\nbeta one\nB\n7\nalpha two\nA\nnull\n',
  );
  const records = (await collect(
    hfViewerImporter.read(path, { target: 'corpus', documentFormat: 'markdown' }),
  )) as DocumentRecord[];
  assert.deepEqual(
    records.map((r) => [r.docid, r.body, r.format, r.metadata]),
    [
      ['A#0', 'alpha one', 'markdown', { source: 'A', page: 1 }],
      ['B#0', 'beta one', 'markdown', { source: 'B', page: 7 }],
      ['A#1', 'alpha two', 'markdown', { source: 'A', page: null }],
    ],
  );
  const byColumn = (await collect(
    hfViewerImporter.read(path, { target: 'corpus', mapping: { id: 'text', body: 'source' } }),
  )) as DocumentRecord[];
  assert.deepEqual(
    byColumn.map((r) => [r.docid, r.body]),
    [
      ['alpha one', 'A'],
      ['beta one', 'B'],
      ['alpha two', 'A'],
    ],
  );
});

test('a value that does not fit its column type, at its line and column name', async () => {
  const path = dataFile('copy.txt', 'text\nstring\npage\nint64\nalpha\n1\nbeta\nseven\n');
  const error = await importError(hfViewerImporter.read(path, { target: 'corpus' }));
  assert.equal(error.message, `${path}:8:1: expected an int64 value for column 'page', found 'seven'`);
  assert.equal(error.at.field, 'page');
});

test('a copy cut in the middle of a record, a header name without a type', async () => {
  const cut = dataFile('copy.txt', 'text\nstring\nsource\nstring\nalpha\nA\nbeta\n');
  assert.equal(
    (await importError(hfViewerImporter.read(cut, { target: 'corpus' }))).message,
    `${cut}:7:1: expected 2 lines per record (text, source), found the end of the file after 1 line of the last record (line 7 on)`,
  );
  const untyped = dataFile('copy.txt', 'text\nsome text\n');
  assert.equal(
    (await importError(hfViewerImporter.read(untyped, { target: 'corpus' }))).message,
    `${untyped}:2:1: expected a column type (string, int64, float64, bool…) after the column name 'text', found 'some text'`,
  );
});

test('without a source column the id is the record position; a source mapped to a missing column is an error', async () => {
  const path = dataFile('copy.txt', 'text\nstring\norigin\nstring\nalpha\nA\nbeta\nB\n');
  const records = (await collect(hfViewerImporter.read(path, { target: 'corpus' }))) as DocumentRecord[];
  assert.deepEqual(
    records.map((r) => [r.docid, r.metadata]),
    [
      ['0', { origin: 'A' }],
      ['1', { origin: 'B' }],
    ],
  );
  const byOrigin = (await collect(
    hfViewerImporter.read(path, { target: 'corpus', mapping: { source: 'origin' } }),
  )) as DocumentRecord[];
  assert.deepEqual(
    byOrigin.map((r) => r.docid),
    ['A#0', 'B#0'],
  );
  assert.equal(
    (await importError(hfViewerImporter.read(path, { target: 'corpus', mapping: { source: 'url' } }))).message,
    `${path}:1:1: expected a column 'url' (mapped to source, the ids' prefix), found columns 'text', 'origin'`,
  );
});
