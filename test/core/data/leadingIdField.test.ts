import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeId, LeadingIdField } from '../../../core/data/leadingIdField.ts';

function leadingId(line: string, key = '_id'): string | undefined {
  const bytes = Buffer.from(line);
  const range = { idStart: 0, idEnd: 0 };
  return new LeadingIdField(key).match(bytes, 0, bytes.length, range)
    ? decodeId(bytes, range.idStart, range.idEnd)
    : undefined;
}

test('the id is read from the bytes when the line starts with the id field', () => {
  assert.equal(leadingId('{"_id": "d1", "text": "x"}'), 'd1');
  assert.equal(leadingId(' {  "_id" :"dé😀"}'), 'dé😀');
  assert.equal(leadingId('{"qid": "q1"}', 'qid'), 'q1');
});

test('anything it cannot read safely is left to a full parse', () => {
  assert.equal(leadingId('{"text": "x", "_id": "d1"}'), undefined);
  assert.equal(leadingId('{"_id": "d\\u00e9"}'), undefined);
  assert.equal(leadingId('{"_id": 3}'), undefined);
  assert.equal(leadingId('{"_id": "d1" "x": 1}'), undefined);
  assert.equal(leadingId('{"_id": "d1'), undefined);
  assert.equal(leadingId('{"_idx": "d1"}'), undefined);
  assert.equal(leadingId('{"a\\"b": "d1"}', 'a"b'), undefined);
});
