// parseJsonTable is pure: tested in Node. (Its rendering is tested in Chromium, documentRendering.test.ts.)
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { jsonErrorOffset, parseJsonTable } from '../../../webview/label/document/jsonTable.ts';

test('TARGET nested arrays: the first row is the header, the rest are rows', () => {
  const body = JSON.stringify([
    ['Year', 'Host city', 'Nations'],
    [2008, 'Beijing', 204],
    [2012, 'London', 204],
  ]);
  assert.deepEqual(parseJsonTable(body), {
    header: ['Year', 'Host city', 'Nations'],
    rows: [
      ['2008', 'Beijing', '204'],
      ['2012', 'London', '204'],
    ],
  });
});

test('cells of every JSON type become text: null empty, booleans and numbers as written, objects as JSON', () => {
  const body = '[["a","b","c","d","e"],[null,true,1.5e3,{"x":[1,2]},["p","q"]]]';
  assert.deepEqual(parseJsonTable(body), {
    header: ['a', 'b', 'c', 'd', 'e'],
    rows: [['', 'true', '1500', '{"x":[1,2]}', '["p","q"]']],
  });
});

test('ragged rows are padded; a row wider than the header widens the header with empty names', () => {
  assert.deepEqual(parseJsonTable('[["a","b"],["1"],["1","2","3"]]'), {
    header: ['a', 'b', ''],
    rows: [
      ['1', '', ''],
      ['1', '2', '3'],
    ],
  });
});

test('a header-only table has no rows', () => {
  assert.deepEqual(parseJsonTable('[["a","b"]]'), { header: ['a', 'b'], rows: [] });
});

test('{"header", "rows"} and {"columns", "data"} (pandas split orient, extra keys ignored) are accepted', () => {
  assert.deepEqual(parseJsonTable('{"header":["x","y"],"rows":[[1,2],[3]]}'), {
    header: ['x', 'y'],
    rows: [
      ['1', '2'],
      ['3', ''],
    ],
  });
  assert.deepEqual(parseJsonTable('{"columns":["x"],"index":[0,1],"data":[["u"],["v"]]}'), {
    header: ['x'],
    rows: [['u'], ['v']],
  });
});

test('a large table (52k rows, like BIRD) parses in one go', () => {
  const rows = Array.from({ length: 52_000 }, (_, i) => [i, `name ${i}`]);
  const parsed = parseJsonTable(JSON.stringify([['id', 'name'], ...rows]));
  assert.ok(!('error' in parsed));
  assert.equal(parsed.rows.length, 52_000);
  assert.deepEqual(parsed.rows[51_999], ['51999', 'name 51999']);
});

/** Bad bodies and the error each must give (a pattern: V8 words JSON.parse's message itself). */
const errors: { name: string; body: string; error: RegExp }[] = [
  {
    name: 'invalid JSON: JSON.parse position included',
    body: '[["a","b"],[1,2,]]',
    error: /^not valid JSON at line 1, column 17 \(offset 16\): /,
  },
  {
    name: 'invalid JSON on a later line',
    body: '[\n  ["a", "b"],\n  [1, tru]\n]',
    error: /^not valid JSON at line 3, column 7 \(offset 22\): /,
  },
  { name: 'empty body', body: '', error: /^not valid JSON at line 1, column 1 \(offset 0\): / },
  { name: 'text after the table', body: '[["a"]] x', error: /^not valid JSON at line 1, column 9 \(offset 8\): / },
  { name: 'an empty array', body: '[]', error: /^an empty array: a table needs at least a header row$/ },
  { name: 'a row that is not an array', body: '[["a"],["1"],7]', error: /^row 3 is a number, not an array of cells$/ },
  {
    name: 'an array of objects (records)',
    body: '[{"a":1}]',
    error: /^row 1 is an object, not an array of cells$/,
  },
  { name: 'a bare string', body: '"hello"', error: /^expected an array of rows .*; found a string$/ },
  { name: 'null', body: 'null', error: /found null$/ },
  {
    name: 'an object of another shape',
    body: '{"title":"t","cells":[]}',
    error: /found an object with keys title, cells$/,
  },
  { name: 'header that is not an array', body: '{"header":"a","rows":[]}', error: /^"header" must be an array/ },
  { name: 'rows missing', body: '{"header":["a"]}', error: /^"rows" must be an array of rows, found nothing$/ },
  {
    name: 'a data row that is not an array',
    body: '{"columns":["a"],"data":[["1"],{"a":2}]}',
    error: /^"data" row 2 is an object, not an array of cells$/,
  },
];

for (const { name, body, error } of errors) {
  test(`error: ${name}`, () => {
    const parsed = parseJsonTable(body);
    assert.ok('error' in parsed, `expected an error, got ${JSON.stringify(parsed)}`);
    assert.match(parsed.error, error);
  });
}

test('jsonErrorOffset agrees with JSON.parse on what is valid, for JSON and for JSON with one character changed', () => {
  const validity = (text: string) => {
    try {
      JSON.parse(text);
      return true;
    } catch {
      return false;
    }
  };
  const mutated = fc
    .tuple(fc.json(), fc.nat(), fc.constantFrom(...',:[]{}"\\ 0-.eEtfnu'.split('')), fc.boolean())
    .map(([text, at, c, insert]) => {
      const i = at % (text.length + 1);
      return text.slice(0, i) + c + text.slice(insert ? i : i + 1);
    });
  fc.assert(
    fc.property(fc.oneof(fc.json(), mutated), (text) => {
      assert.equal(jsonErrorOffset(text) === -1, validity(text), text);
    }),
    { numRuns: 5000 },
  );
});

test('jsonErrorOffset: truncated input fails at its end; deep nesting does not overflow the stack', () => {
  assert.equal(jsonErrorOffset('[["a", 1'), 8);
  assert.equal(jsonErrorOffset('{"a": "b\\x"}'), 8);
  const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
  assert.equal(jsonErrorOffset(deep), -1);
  assert.equal(jsonErrorOffset(`${deep}]`), 400_000);
});
