import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lintRecordText } from '../../../../../core/lint/records/lintRecordText.ts';
import { summary, where } from '../recordLintHelpers.ts';

test('an empty file, or one of blank lines, is one warning and nothing else', () => {
  assert.deepEqual(
    lintRecordText('').diagnostics.map((d) => `${where(d)} ${d.message}`),
    ['1:1-1:1 warning no-records no records: the file is empty'],
  );
  assert.deepEqual(summary('\n  \n\n', { format: 'jsonl' }), ['1:1-1:1 warning no-records']);
});

test('a CSV header without rows is a warning on the header', () => {
  assert.deepEqual(
    lintRecordText('_id,text\n').diagnostics.map((d) => `${where(d)} ${d.message}`),
    ['1:1-1:9 warning no-records no records: the file has a header and no rows'],
  );
});

test('records after many leading blank lines are still found', () => {
  const text = `${'\n'.repeat(3000)}{"_id": "q1", "text": "a"}\n`;
  const result = lintRecordText(text);
  assert.equal(result.kind, 'beir-queries');
  assert.equal(result.diagnostics.length, 3000);
  assert.ok(result.diagnostics.every((d) => d.rule === 'blank-line'));
});
