import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lintText } from '../../../../core/lint/lintText.ts';
import { where } from '../lintTestHelpers.ts';

test('an empty file, or one with only comments and blank lines, is a warning', () => {
  for (const text of ['', '\n\n', '# nothing yet\n\n']) {
    const result = lintText(text);
    assert.equal(result.type, 'empty');
    assert.deepEqual(result.diagnostics.map(where), ['1:1-1:1 warning empty-file']);
  }
});

test('one judgment is not empty', () => {
  assert.deepEqual(lintText('q1 0 d1 1\n').diagnostics, []);
});
