import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findings, summary, where } from '../recordLintHelpers.ts';

test('a well-formed CRUMB run passes clean', () => {
  const text =
    '{"query": {"id": "q1", "text": "what is bm25"}, "items": [{"id": "d3", "score": 12.5}, {"id": "d1:0", "score": 11}]}\n' +
    '{"query": {"id": "q2"}, "items": []}\n';
  assert.deepEqual(summary(text), []);
});

test('query.id not a string: error on the id value', () => {
  const found = findings('{"query": {"id": 7}, "items": []}\n', 'crumb-run-shape');
  assert.deepEqual(found.map(where), ['1:18-1:19 error crumb-run-shape']);
  assert.equal(found[0]!.message, 'expected query.id to be a string, found a number (7)');
});

test('query not an object, or without an id: error on the query value', () => {
  assert.deepEqual(
    findings('{"query": "q1", "items": []}\n', 'crumb-run-shape').map((d) => `${where(d)} ${d.message}`),
    ["1:11-1:15 error crumb-run-shape expected 'query' to be an object with a string 'id', found a string ('q1')"],
  );
  assert.deepEqual(
    findings('{"query": {"text": "x"}, "items": []}\n', 'crumb-run-shape').map((d) => `${where(d)} ${d.message}`),
    ["1:11-1:24 error crumb-run-shape expected 'query' to have a string 'id', found none"],
  );
  assert.deepEqual(findings('{"query": {"id": ""}, "items": []}\n', 'crumb-run-shape').map(where), [
    '1:18-1:20 error crumb-run-shape',
  ]);
});

test('items not an array: error on the items value', () => {
  const found = findings('{"query": {"id": "q1"}, "items": {"d1": 1}}\n', 'crumb-run-shape');
  assert.deepEqual(found.map(where), ['1:34-1:43 error crumb-run-shape']);
  assert.equal(found[0]!.message, `expected 'items' to be an array of {"id", "score"}, found an object`);
});

test('each bad item is reported on the offending value', () => {
  const line =
    '{"query": {"id": "q1"}, "items": [{"id": "d1", "score": "9.5"}, ["d2", 1], {"id": 3, "score": 1}, {"id": "d4"}]}\n';
  assert.deepEqual(
    findings(line, 'crumb-run-shape').map((d) => `${where(d)} ${d.message}`),
    [
      "1:57-1:62 error crumb-run-shape expected items[0].score to be a number, found a string ('9.5')",
      '1:65-1:74 error crumb-run-shape expected items[1] to be an object {"id", "score"}, found an array',
      '1:83-1:84 error crumb-run-shape expected items[2].id to be a string, found a number (3)',
      "1:99-1:111 error crumb-run-shape expected items[3] to have a number 'score', found none",
    ],
  );
});

test('missing query or items are missing-field errors, not shape errors', () => {
  const text = '{"query": {"id": "q1"}, "items": []}\n{"query": {"id": "q2"}}\n';
  assert.deepEqual(summary(text), ['2:1-2:24 error missing-field']);
});

test('positions inside a long non-ASCII ranking are exact', () => {
  const items = Array.from({ length: 3000 }, (_, i) => `{"id": "dé${i}", "score": ${i === 2999 ? '"x"' : i}}`);
  const line = `{"query": {"id": "q😀"}, "items": [${items.join(', ')}]}`;
  const [d] = findings(`${line}\n`, 'crumb-run-shape');
  const offset = line.lastIndexOf('"x"');
  // One emoji (two UTF-16 code units) before the value.
  assert.equal(where(d!), `1:${offset}-1:${offset + 3} error crumb-run-shape`);
});
