import assert from 'node:assert/strict';
import { test } from 'node:test';
import { detectRecordFormat, detectRecordKind } from '../../../../core/lint/records/detectRecordFormat.ts';
import { lintRecordText } from '../../../../core/lint/records/lintRecordText.ts';

test('the format comes from the first non-blank line: {, a header with commas, a header with tabs', () => {
  assert.equal(detectRecordFormat(['', '  {"_id": "q1"}']), 'jsonl');
  assert.equal(detectRecordFormat(['\ufeff{"_id": "q1"}']), 'jsonl');
  assert.equal(detectRecordFormat(['_id,title,text']), 'csv');
  assert.equal(detectRecordFormat(['_id\ttitle\ttext']), 'tsv');
  assert.equal(detectRecordFormat(['id\tnote, with comma']), 'tsv');
  assert.equal(detectRecordFormat(['"a,b"\tc']), 'tsv');
});

test('no format when it cannot tell: a JSON array, no separator, nothing', () => {
  assert.equal(detectRecordFormat(['[{"_id": "q1"}]']), undefined);
  assert.equal(detectRecordFormat(['q1 0 d1 1']), undefined);
  assert.equal(detectRecordFormat(['', '   ']), undefined);
  assert.equal(detectRecordFormat([]), undefined);
});

test('a broken first record does not make a JSONL file a CSV', () => {
  assert.equal(
    detectRecordFormat(['"_id": "q1", "text": "a"}', '{"_id": "q2", "text": "b"}', '{"_id": "q3"}']),
    'jsonl',
  );
});

test('the kind comes from the field names', () => {
  assert.equal(detectRecordKind(['_id', 'title', 'text', 'metadata']), 'beir-corpus');
  assert.equal(detectRecordKind(['_id', 'text']), 'beir-queries');
  assert.equal(detectRecordKind(['query', 'items']), 'crumb-run');
  assert.equal(detectRecordKind(['qid', 'query', 'instruction']), 'records');
});

test('lintRecordText reports the format and kind it detected, and honours forced ones', () => {
  const corpus = '{"_id": "d1", "title": "T", "text": "x"}\n';
  assert.deepEqual(pick(lintRecordText(corpus)), ['jsonl', 'beir-corpus']);
  assert.deepEqual(pick(lintRecordText('_id\ttext\nq1\tx\n')), ['tsv', 'beir-queries']);
  assert.deepEqual(pick(lintRecordText('{"query": {"id": "q1"}, "items": []}\n')), ['jsonl', 'crumb-run']);
  assert.deepEqual(pick(lintRecordText(corpus, { kind: 'records' })), ['jsonl', 'records']);
  assert.deepEqual(pick(lintRecordText('only\n', { file: 'data/ids.csv' })), ['csv', 'records']);
});

function pick(result: { format: string; kind: string }): string[] {
  return [result.format, result.kind];
}
