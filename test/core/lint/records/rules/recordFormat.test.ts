import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lintRecordText } from '../../../../../core/lint/records/lintRecordText.ts';
import { summary, where } from '../recordLintHelpers.ts';

const qrels = 'q1 0 d1 1\nq1 0 d2 0\n'.repeat(50);

test('TREC qrels given to the record linter: one file-level error naming what it is', () => {
  const result = lintRecordText(qrels);
  assert.equal(result.format, 'unknown');
  assert.deepEqual(result.diagnostics.map(where), ['1:1-1:10 error record-format']);
  assert.equal(
    result.diagnostics[0]!.message,
    'this is TREC qrels (4 columns), not one record per line with named fields; lint it as that instead',
  );
  // Tab-separated qrels look like a TSV with a header: still recognised.
  assert.deepEqual(summary(qrels.replaceAll(' ', '\t')), ['1:1-1:10 error record-format']);
});

test('TREC qrels forced as JSONL: the cascade guard says so once, naming the first problem', () => {
  const result = lintRecordText(qrels, { format: 'jsonl' });
  assert.equal(result.format, 'jsonl');
  assert.deepEqual(result.diagnostics.map(where), ['1:1-1:3 error record-format']);
  assert.equal(
    result.diagnostics[0]!.message,
    "100 of the first 100 lines are not JSON objects (line 1: expected a JSON object ('{'), found 'q1'); it looks " +
      'like TREC qrels (4 columns); not JSONL records, the rest of the file is not linted',
  );
});

test('pretty-printed JSON is recognised as such', () => {
  const pretty = '{\n  "_id": "q1",\n  "text": "a"\n}\n'.repeat(5);
  const [d, ...more] = lintRecordText(pretty, { format: 'jsonl' }).diagnostics;
  assert.deepEqual(more, []);
  assert.equal(where(d!), '1:2-1:2 error record-format');
  assert.match(d!.message, /it looks like pretty-printed JSON \(one value over many lines\), not JSONL/);
});

test('a JSON array file and an undetectable file are one error each', () => {
  assert.deepEqual(
    lintRecordText('[{"_id": "q1"},\n{"_id": "q2"}]\n').diagnostics.map((d) => `${where(d)} ${d.message}`),
    [
      "1:1-1:16 error record-format cannot lint as records: the file starts with '[', a JSON array (a .json file); " +
        'expected JSONL, one JSON object per line',
    ],
  );
  assert.deepEqual(
    lintRecordText('hello world\nfoo bar baz\n').diagnostics.map((d) => `${where(d)} ${d.message}`),
    [
      '1:1-1:12 error record-format cannot tell the record format: line 1 is not a JSON object (JSONL) and has no ' +
        'commas (CSV) or tabs (TSV); not linted',
    ],
  );
});

test('a few bad lines in a short file are listed one by one (someone is typing it)', () => {
  assert.deepEqual(summary('{"_id": "q1" "text": "a"}\n{"_id": "q2", "text": "b",}\n'), [
    '1:14-1:20 error invalid-json',
    '2:27-2:28 error invalid-json',
  ]);
});

test('a mostly-good file is linted line by line, not given up on', () => {
  let text = '';
  for (let i = 0; i < 300; i++)
    text += i % 3 === 0 ? `{"_id": "q${i}", "text": NaN}\n` : `{"_id": "q${i}", "text": "t"}\n`;
  assert.equal(summary(text).length, 100);
});

test('a CSV whose rows mostly disagree with the header trips the guard', () => {
  const rows = Array.from({ length: 50 }, (_, i) => `q${i},a,b,c`).join('\n');
  const result = lintRecordText(`_id,text\n${rows}\n`);
  assert.deepEqual(result.diagnostics.map(where), ['2:6-2:9 error record-format']);
  assert.match(result.diagnostics[0]!.message, /^50 of the first 50 rows do not have the header's 2 fields \(line 2: /);
});
