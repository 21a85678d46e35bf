import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lintText } from '../../../core/lint/lintText.ts';
import { where } from './lintTestHelpers.ts';

test('lintText reports the detected type, the file name given, and diagnostics sorted by position', () => {
  const result = lintText('q1 Q0 d1 1 0.5 a\nq1 Q0 d1 2 x b\n', undefined, 'editor://run');
  assert.equal(result.type, 'run');
  assert.equal(result.file, 'editor://run');
  assert.deepEqual(result.diagnostics.map(where), [
    '2:7-2:9 error duplicate-docid',
    '2:12-2:13 error score-not-number',
    '2:14-2:15 warning mixed-run-tags',
  ]);
  assert.equal(lintText('q1 0 d1 1\n').diagnostics.length, 0);
  assert.equal(lintText('q1 0 d1 1\n').file, '<text>');
});

test('a forced type wins over detection', () => {
  const result = lintText('query-id\tcorpus-id\tscore\nq1\td1\t1\n', 'qrels');
  assert.equal(result.type, 'qrels');
  assert.deepEqual(result.diagnostics.map(where), ['1:1-1:25 error column-count', '2:1-2:8 error column-count']);
});

test('columns count code points, not bytes: ü is one column', () => {
  assert.deepEqual(lintText('qü 0 d1 1\nqü 0 d1 x\n').diagnostics.map(where), [
    '2:6-2:8 error duplicate-pair',
    '2:9-2:10 error non-integer-label',
  ]);
});
