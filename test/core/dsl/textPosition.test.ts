import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatRange, offsetToLineColumn } from '../../../core/dsl/textPosition.ts';

test('lines and columns are 1-based; columns count code points, not UTF-16 units', () => {
  const text = 'ab\n😀x\r\nend';
  assert.deepEqual(offsetToLineColumn(text, 0), { line: 1, column: 1 });
  assert.deepEqual(offsetToLineColumn(text, 2), { line: 1, column: 3 });
  assert.deepEqual(offsetToLineColumn(text, 3), { line: 2, column: 1 });
  // 😀 is two UTF-16 units and one column.
  assert.deepEqual(offsetToLineColumn(text, 5), { line: 2, column: 2 });
  assert.deepEqual(offsetToLineColumn(text, 6), { line: 2, column: 3 });
  assert.deepEqual(offsetToLineColumn(text, 8), { line: 3, column: 1 });
  assert.deepEqual(offsetToLineColumn(text, text.length), { line: 3, column: 4 });
});

test('offsets outside the text are clamped', () => {
  assert.deepEqual(offsetToLineColumn('ab', -5), { line: 1, column: 1 });
  assert.deepEqual(offsetToLineColumn('ab', 99), { line: 1, column: 3 });
  assert.deepEqual(offsetToLineColumn('', 0), { line: 1, column: 1 });
});

test('formatRange gives line:col-line:col', () => {
  assert.equal(formatRange('ab\ncd', { start: 1, end: 4 }), '1:2-2:2');
});
