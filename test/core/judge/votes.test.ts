import assert from 'node:assert/strict';
import { test } from 'node:test';
import { summariseVotes } from '../../../core/judge/votes.ts';

test('the majority of the votes wins, with its share as confidence', () => {
  assert.deepEqual(summariseVotes([2, 1, 2]), {
    label: 2,
    spread: { 1: 1, 2: 2 },
    parsed: 3,
    failed: 0,
    confidence: 2 / 3,
  });
});

test('a unanimous vote has confidence 1', () => {
  assert.deepEqual(summariseVotes([0, 0, 0, 0, 0]), {
    label: 0,
    spread: { 0: 5 },
    parsed: 5,
    failed: 0,
    confidence: 1,
  });
});

test('a tie goes to the lower label, like the store majority', () => {
  assert.equal(summariseVotes([2, 1]).label, 1);
  assert.equal(summariseVotes([1, 2]).label, 1);
  assert.equal(summariseVotes([3, 0, 1, 3, 0, 1]).label, 0);
  assert.equal(summariseVotes([1, -1]).label, -1);
});

test('failed votes are counted, not read: the majority is over parsed votes only', () => {
  assert.deepEqual(summariseVotes([null, 2, 1, null, 1]), {
    label: 1,
    spread: { 1: 2, 2: 1 },
    parsed: 3,
    failed: 2,
    confidence: 2 / 3,
  });
  // Two failures do not outvote a single parsed label.
  assert.equal(summariseVotes([null, null, 2]).label, 2);
});

test('a tie after failures still goes to the lower label, confidence one half', () => {
  const summary = summariseVotes([2, null, 1, 2, 1]);
  assert.equal(summary.label, 1);
  assert.equal(summary.confidence, 0.5);
});

test('no parsed vote: label null, no confidence', () => {
  assert.deepEqual(summariseVotes([null, null, null]), { label: null, spread: {}, parsed: 0, failed: 3 });
  assert.deepEqual(summariseVotes([]), { label: null, spread: {}, parsed: 0, failed: 0 });
  assert.equal('confidence' in summariseVotes([null]), false);
});
