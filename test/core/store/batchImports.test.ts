// stageFiles hands the staging batches bounded by bytes of record text, not only by a record count: a corpus of
// large documents must not be held 10,000 records at a time.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DocumentRecord, ImportedRecord } from '../../../core/importers/types.ts';
import { stagedRecordBytes, stageFiles } from '../../../core/store/batchImports.ts';

function document(i: number, bodyLength: number): DocumentRecord {
  return {
    kind: 'document',
    docid: `doc${i}`,
    body: 'x'.repeat(bodyLength),
    format: 'plain',
    metadata: {},
    at: { file: 'corpus.jsonl', line: i + 1 },
  };
}

async function* records(count: number, bodyLength: number): AsyncGenerator<ImportedRecord> {
  for (let i = 0; i < count; i++) yield document(i, bodyLength);
}

async function batchSizes(count: number, bodyLength: number, batchSize: number, batchBytes: number) {
  const sizes: number[] = [];
  const counted = await stageFiles(
    [{ records: records(count, bodyLength), origin: { file: 'corpus.jsonl', target: 'corpus', format: 'jsonl' } }],
    { startFile: () => {}, add: (batch) => void sizes.push(batch.length) },
    batchSize,
    () => {},
    batchBytes,
  );
  return { sizes, records: counted[0]!.records };
}

test('large records are staged a few at a time: the batch closes when its bytes pass the limit', async () => {
  const perRecord = stagedRecordBytes(document(0, 100_000));
  assert.ok(perRecord >= 100_000, 'a record counts at least its body');
  const { sizes, records: total } = await batchSizes(25, 100_000, 10_000, 1_000_000);
  assert.equal(total, 25);
  assert.deepEqual(sizes, [10, 10, 5]);
  for (const size of sizes.slice(0, -1)) assert.ok(size * perRecord >= 1_000_000);
});

test('small records still go by the record count', async () => {
  const { sizes } = await batchSizes(25, 10, 10, 1 << 20);
  assert.deepEqual(sizes, [10, 10, 5]);
});

test('a record larger than the limit is a batch alone, and the last batch may be empty', async () => {
  const { sizes } = await batchSizes(3, 2_000_000, 10_000, 1_000_000);
  assert.deepEqual(sizes, [1, 1, 1, 0]);
});

test('metadata counts: strings by length, other values by their JSON', () => {
  const plain = stagedRecordBytes(document(0, 10));
  const withMetadata = stagedRecordBytes({ ...document(0, 10), metadata: { lang: 'en', tags: ['a'.repeat(500)] } });
  assert.ok(withMetadata - plain >= 500 + 'lang'.length + 2);
});
