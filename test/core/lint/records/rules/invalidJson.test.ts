import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findings, summary, where } from '../recordLintHelpers.ts';

/** The one invalid-json diagnostic of a one-line file, as `where` plus message. */
function only(line: string): string {
  const found = findings(`${line}\n`, 'invalid-json');
  assert.equal(found.length, 1, line);
  return `${where(found[0]!)} ${found[0]!.message}`;
}

test('a missing comma is reported where the next token starts, saying what was expected', () => {
  assert.equal(
    only('{"_id": "q1" "text": "x"}'),
    `1:14-1:20 error invalid-json expected ',' or '}' after a property value, found '"text"'`,
  );
  assert.equal(
    only('{"_id": "q1", "text": "a" x}'),
    "1:27-1:28 error invalid-json expected ',' or '}' after a property value, found 'x'",
  );
  assert.equal(
    only('{"a": [1 2]}'),
    "1:10-1:11 error invalid-json expected ',' or ']' after an array element, found '2'",
  );
});

test('trailing commas are errors in strict JSON, pointed at the closing bracket', () => {
  assert.equal(
    only('{"a": 1,}'),
    "1:9-1:10 error invalid-json expected a property name in double quotes after ',', found '}' (JSON allows no trailing comma)",
  );
  assert.equal(
    only('{"a": [1,]}'),
    "1:10-1:11 error invalid-json expected a value after ',', found ']' (JSON allows no trailing comma)",
  );
});

test('comments, single quotes, unquoted names and Python literals say what they are', () => {
  assert.equal(
    only('{"a": 1} // note'),
    "1:10-1:17 error invalid-json expected JSON, found a comment '// note' (JSON has no comments)",
  );
  assert.equal(
    only("{'a': 1}"),
    "1:2-1:5 error invalid-json expected a property name in double quotes or '}', found ''a'' (JSON strings take double quotes)",
  );
  assert.equal(
    only('{a: 1}'),
    "1:2-1:3 error invalid-json expected a property name in double quotes or '}', found 'a' (property names take double quotes)",
  );
  assert.equal(
    only('{"a": True}'),
    "1:7-1:11 error invalid-json expected a value after ':', found 'True' (a Python literal: JSON has true, false, null)",
  );
  assert.match(
    only('{"score": NaN}'),
    /^1:11-1:14 error invalid-json expected a value after ':', found 'NaN' \(JSON has no NaN/,
  );
  assert.match(only('{"score": -Infinity}'), /^1:11-1:20 error invalid-json .*found '-Infinity'/);
});

test('the end of the line is where an unfinished record is reported, zero-width', () => {
  assert.equal(
    only('{"a": 1'),
    "1:8-1:8 error invalid-json expected ',' or '}' after a property value, found the end of the line",
  );
  assert.equal(
    only('{'),
    "1:2-1:2 error invalid-json expected a property name in double quotes or '}', found the end of the line",
  );
  assert.equal(only('{"a":'), "1:6-1:6 error invalid-json expected a value after ':', found the end of the line");
  assert.equal(
    only('{"a": "never closed'),
    `1:7-1:20 error invalid-json unterminated string: expected a closing '"' before the end of the line`,
  );
});

test('errors inside strings point at the character: raw tab, bad escape, bad \\u', () => {
  assert.equal(
    only('{"a": "x\ty"}'),
    "1:9-1:10 error invalid-json expected '\\t' (an escaped tab) inside a string, found a raw tab",
  );
  assert.equal(
    only('{"a": "c:\\dir"}'),
    "1:10-1:12 error invalid-json expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX after a backslash, found '\\d'",
  );
  assert.equal(
    only('{"a": "\\u12G4"}'),
    "1:8-1:14 error invalid-json expected 4 hex digits after '\\u', found '\\u12G4'",
  );
});

test('numbers: a missing digit, a leading zero', () => {
  assert.equal(only('{"a": 1.}'), "1:9-1:10 error invalid-json expected a digit after '1.', found '}'");
  assert.equal(
    only('{"a": 01}'),
    "1:8-1:9 error invalid-json expected ',' or '}' after a property value, found '1' (a JSON number cannot start with 0)",
  );
});

test('two records on one line, and junk after a record', () => {
  assert.equal(
    only('{"a": 1} {"b": 2}'),
    "1:10-1:11 error invalid-json expected the end of the line after the record, found '{' (two records on one line?)",
  );
  assert.equal(
    only('{"a": 1}}'),
    "1:9-1:10 error invalid-json expected the end of the line after the record, found '}'",
  );
});

test('one error per line, not the cascade the parser would go on to find', () => {
  assert.deepEqual(summary("{'a': 'b', 'c': NaN, d}\n{\"ok\": 1}\n"), ['1:2-1:5 error invalid-json']);
});

test('columns count characters: an emoji before the error is one column', () => {
  assert.equal(
    only('{"😀é": "x" "y": 1}'),
    `1:12-1:15 error invalid-json expected ',' or '}' after a property value, found '"y"'`,
  );
});

test('deep nesting the scanner cannot follow still gives a positioned error (JSON.parse says where)', () => {
  const line = `{"a": ${'['.repeat(100_000)}`;
  const [d] = findings(`${line}\n`, 'invalid-json');
  assert.equal(where(d!), `1:${line.length + 1}-1:${line.length + 1} error invalid-json`);
  assert.match(d!.message, /found the end of the line$/);
});

test('control characters and odd spaces are shown escaped in messages', () => {
  assert.equal(
    only('{"a": 1}\u00a0'),
    "1:9-1:10 error invalid-json expected the end of the line after the record, found '\\u00a0' (JSON allows only spaces, tabs and line breaks between values)",
  );
  assert.equal(
    only('{"a": "\u0000"}'),
    "1:8-1:9 error invalid-json expected '\\u0000' (an escaped NUL byte) inside a string, found a raw NUL byte",
  );
});
