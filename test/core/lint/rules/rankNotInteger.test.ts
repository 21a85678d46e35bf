import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findings, runLines, where } from '../lintTestHelpers.ts';

test('non-integer ranks: one warning at the first, with the count', () => {
  const text = `${runLines('q1', 2)}q1 Q0 d3 3.0 0.1 tag\nq1 Q0 d4 four 0.05 tag\n`;
  const [d, ...more] = findings(text, 'rank-not-integer');
  assert.deepEqual(more, []);
  assert.equal(where(d!), '3:10-3:13 warning rank-not-integer');
  assert.match(d!.message, /^rank '3.0' is not an integer \(2 lines like this\)/);
});

test('integer ranks, including 0, are fine', () => {
  assert.deepEqual(findings('q1 Q0 d1 0 0.5 t\nq1 Q0 d2 1 0.4 t\n', 'rank-not-integer'), []);
});
