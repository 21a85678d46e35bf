import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findings, where } from '../recordLintHelpers.ts';

test('a row with more fields than the header: error from the first extra field to the end of the row', () => {
  const found = findings('_id,title,text\nd1,T,x\nd2,T,a, b\n', 'csv-column-count');
  assert.deepEqual(found.map(where), ['3:8-3:10 error csv-column-count']);
  assert.equal(
    found[0]!.message,
    'expected 3 fields as in the header, found 4 (an unquoted comma inside a value?): pandas refuses the row, ' +
      'csv.DictReader files the extra values under the key None',
  );
});

test('a row with fewer fields: error over the whole row', () => {
  const found = findings('_id\ttitle\ttext\nd1\tT\n', 'csv-column-count');
  assert.deepEqual(found.map(where), ['2:1-2:5 error csv-column-count']);
  assert.equal(
    found[0]!.message,
    'expected 3 fields as in the header, found 2: the missing ones read as empty (NaN in pandas, None in csv.DictReader)',
  );
});

test('quoted separators, doubled quotes and quoted newlines do not split fields', () => {
  const text = '_id,title,text\nd1,"a, b","say ""hi"", ok"\nd2,"two\nlines",x\nd3,T,x\n';
  assert.deepEqual(findings(text, 'csv-column-count'), []);
});

test('a row spanning lines is reported over all its lines', () => {
  const found = findings('_id,text\nd1,"line one\nline two",extra\n', 'csv-column-count');
  assert.deepEqual(found.map(where), ['3:11-3:16 error csv-column-count']);
  const fewer = findings('_id,title,text\n"d1\nd1b",x\n', 'csv-column-count');
  assert.deepEqual(fewer.map(where), ['2:1-3:7 error csv-column-count']);
  assert.equal(fewer[0]!.endLine, 3);
});

test('a tab inside a TSV value is suggested as the cause', () => {
  const [d] = findings('_id\ttext\nq1\tfirst\tsecond\n', 'csv-column-count');
  assert.equal(where(d!), '2:10-2:16 error csv-column-count');
  assert.match(d!.message, /\(a tab inside a value\?\)/);
});

test('columns count characters in non-ASCII rows', () => {
  const [d] = findings('_id,text\nd😀,é,x\n', 'csv-column-count');
  assert.equal(where(d!), '2:6-2:7 error csv-column-count');
});
