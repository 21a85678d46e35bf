import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DelimitedRowSplitter, splitDelimitedText } from '../../../core/data/delimitedRows.ts';

test('fields split as Python csv reads them: quotes, doubled quotes, text after a closing quote', () => {
  assert.deepEqual(splitDelimitedText('a,"b, c","say ""hi""",', ','), ['a', 'b, c', 'say "hi"', '']);
  assert.deepEqual(splitDelimitedText('"ab"cd,5" screen,x"y', ','), ['abcd', '5" screen', 'x"y']);
  assert.deepEqual(splitDelimitedText('', ','), ['']);
  assert.deepEqual(splitDelimitedText('a\t"b\tc"\t', '\t'), ['a', 'b\tc', '']);
});

test('a quoted newline joins lines into one row; CRLF inside is kept, at the end it is not', () => {
  assert.deepEqual(splitDelimitedText('q1,"line one\r\nline two",x\r', ','), ['q1', 'line one\r\nline two', 'x']);
});

test('the splitter reports positions as lines and character columns, quotes included', () => {
  const rows = new DelimitedRowSplitter(',');
  rows.captureField = 1;
  assert.equal(rows.addLine('é😀,"a', false, 4, false), false);
  assert.equal(rows.open, true);
  assert.equal(rows.addLine('b",c', true, 5, false), true);
  assert.equal(rows.fieldCount, 3);
  assert.deepEqual([rows.values[0], rows.values[1], rows.values.length], [undefined, 'a\nb', 2]);
  assert.deepEqual([rows.firstLine, rows.lastLine], [4, 5]);
  assert.deepEqual(rows.startLines, [4, 4, 5]);
  assert.deepEqual(rows.startColumns, [1, 4, 4]);
  assert.deepEqual(rows.endLines, [4, 5, 5]);
  assert.deepEqual(rows.endColumns, [3, 3, 5]);
  assert.equal(rows.rowEndColumn, 5);
});

test('an unterminated quote stays open and remembers where it opened', () => {
  const rows = new DelimitedRowSplitter('\t');
  assert.equal(rows.addLine('q1\t"open', true, 2, false), false);
  assert.equal(rows.addLine('more', true, 3, false), false);
  assert.deepEqual([rows.quoteLine, rows.quoteColumn, rows.quoteLineEndColumn], [2, 4, 9]);
});

test('captured values are cut at the limit', () => {
  const rows = new DelimitedRowSplitter(',');
  rows.captureAll = true;
  rows.captureLimit = 3;
  rows.addLine('abcdef,"ghijkl"', true, 1, false);
  assert.deepEqual(rows.capturedValues(), ['abc', 'ghi']);
});
