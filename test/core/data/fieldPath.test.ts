import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fieldValue, resolveFieldPath } from '../../../core/data/fieldPath.ts';

test('a field name is a top-level key first, then a dotted path into nested objects', () => {
  const record = { _id: 'q1', 'a.b': 1, metadata: { lang: 'en', deep: { x: 2 } }, list: [{ id: 1 }] };
  assert.deepEqual(resolveFieldPath(record, '_id'), ['_id']);
  assert.deepEqual(resolveFieldPath(record, 'a.b'), ['a.b']);
  assert.deepEqual(resolveFieldPath(record, 'metadata.lang'), ['metadata', 'lang']);
  assert.equal(fieldValue(record, 'metadata.deep.x'), 2);
  assert.equal(resolveFieldPath(record, 'metadata.url'), undefined);
  assert.equal(resolveFieldPath(record, 'list.0.id'), undefined);
  assert.equal(resolveFieldPath(record, 'toString'), undefined);
});
