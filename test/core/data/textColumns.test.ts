import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TextColumns } from '../../../core/data/textColumns.ts';

test('columns count code points: a surrogate pair is one column', () => {
  const columns = new TextColumns();
  columns.reset('a😀b', false);
  assert.deepEqual(
    [0, 1, 3, 4].map((offset) => columns.column(offset)),
    [1, 2, 3, 4],
  );
  assert.equal(columns.endColumn(), 4);
});

test('positions asked in any order give the same columns as a fresh count', () => {
  const text = 'é😀x'.repeat(5000);
  const columns = new TextColumns();
  columns.reset(text, false);
  const offsets = [14_000, 3, 9_999, 14_999, 0, 8_192, 4_097, 12_288, 15_000];
  for (const offset of offsets) {
    const fresh = new TextColumns();
    fresh.reset(text, false);
    assert.equal(columns.column(offset), fresh.column(offset), String(offset));
  }
  // Every 4 code units hold 3 characters.
  assert.equal(columns.column(15_000), 11_251);
});

test('an ASCII line is counted without walking', () => {
  const columns = new TextColumns();
  columns.reset('abc', true);
  assert.equal(columns.column(2), 3);
  assert.equal(columns.column(99), 4);
});
