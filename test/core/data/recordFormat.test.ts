import assert from 'node:assert/strict';
import { test } from 'node:test';
import { countSeparators, formatFromFileName } from '../../../core/data/recordFormat.ts';

test('file names suggest a format, through .gz too', () => {
  assert.equal(formatFromFileName('data/queries.jsonl'), 'jsonl');
  assert.equal(formatFromFileName('corpus.NDJSON'), 'jsonl');
  assert.equal(formatFromFileName('corpus.jsonl.gz'), 'jsonl');
  assert.equal(formatFromFileName('tables.csv'), 'csv');
  assert.equal(formatFromFileName('qrels/test.tsv'), 'tsv');
  assert.equal(formatFromFileName('qrels.txt'), undefined);
  assert.equal(formatFromFileName('queries.json'), undefined);
});

test('separators inside quotes do not count', () => {
  assert.deepEqual(countSeparators('"a,b",c\t"d\te"'), { commas: 1, tabs: 1 });
});
