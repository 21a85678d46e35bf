import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findings, runLines, where } from '../lintTestHelpers.ts';

test('run lines with fields after the tag: one warning at the first, with the count', () => {
  const text = `${runLines('q1', 2)}q1 Q0 d3 3 0.1 tag junk here\nq1 Q0 d4 4 0.0 tag more\n`;
  const [d, ...more] = findings(text, 'extra-columns');
  assert.deepEqual(more, []);
  assert.equal(where(d!), '3:20-3:29 warning extra-columns');
  assert.match(
    d!.message,
    /8 columns where 6 columns .* trec_eval ignores everything after the tag \(2 lines like this\)/,
  );
});

test('a BEIR row with a fourth field is a warning (the loader reads three)', () => {
  const [d] = findings('query-id\tcorpus-id\tscore\nq1\td1\t1\tnote\n', 'extra-columns');
  assert.equal(where(d!), '2:9-2:13 warning extra-columns');
});

test('six-column runs have no extra columns', () => {
  assert.deepEqual(findings(runLines('q1', 3), 'extra-columns'), []);
});
