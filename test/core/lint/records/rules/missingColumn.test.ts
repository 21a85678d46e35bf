import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findings, where } from '../recordLintHelpers.ts';

test('a mapped field missing from the header is an error on the header line', () => {
  const found = findings('qid,query\nq1,a\n', 'missing-column', {
    mapping: { id: 'qid', text: 'query', instruction: 'instr' },
  });
  assert.deepEqual(found.map(where), ['1:1-1:10 error missing-column']);
  assert.equal(
    found[0]!.message,
    "expected a column 'instr' (mapped to instruction in the study), found only 'qid', 'query'",
  );
});

test('a BEIR-shaped TSV needs its fields; a full header passes', () => {
  assert.deepEqual(findings('_id\ttitle\ttext\nd1\tT\tx\n', 'missing-column'), []);
  assert.deepEqual(
    findings('_id\ttext\nq1\tx\n', 'missing-column', { kind: 'beir-corpus' }).map((d) => d.message),
    ["expected a column 'title' (a BEIR corpus record has _id, title and text), found only '_id', 'text'"],
  );
});

test('a long header is listed shortly', () => {
  const names = Array.from({ length: 30 }, (_, i) => `c${i}`);
  const [d] = findings(`${names.join(',')}\n`, 'missing-column', { mapping: { id: 'qid' } });
  assert.match(d!.message, /'c9', and 20 more$/);
});
