import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findings, where } from '../lintTestHelpers.ts';

test('trailing spaces and tabs: one hint on the first, with the count', () => {
  const [d, ...more] = findings('q1 0 d1 1\nq1 0 d2 0 \t\nq1 0 d3 0  \n', 'trailing-whitespace');
  assert.deepEqual(more, []);
  assert.equal(where(d!), '2:10-2:12 hint trailing-whitespace');
  assert.equal(d!.message, 'trailing whitespace on 2 lines');
});

test('clean lines: nothing', () => {
  assert.deepEqual(findings('q1 0 d1 1\nq1 0 d2 0\n', 'trailing-whitespace'), []);
});
