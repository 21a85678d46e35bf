// What "Run LLM judge" offers when a judge may go through the Batch API (extension/judge/judgeActions.ts): the
// QuickPick's items in order, with the judge block's mode first and the batches on record described, and when the
// command asks at all (an online judge with nothing on record judges at once, as before).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { asksForAction, judgeActionItems, judgeActionLabels } from '../../../extension/judge/judgeActions.ts';

test('the QuickPick: the declared mode first, then the other, status and cancel; asked when batch or batches exist', () => {
  const none = { open: 0, toCollect: 0 };
  assert.deepEqual(
    judgeActionItems({ model: 'm' }, none).map((i) => i.label),
    ['Judge online', 'Judge with the Batch API (half price, within 24 h)', 'Batch status', 'Cancel open batches'],
  );
  const batch = judgeActionItems({ model: 'm', mode: 'batch' }, { open: 2, toCollect: 1 });
  assert.deepEqual(
    batch.map((i) => i.action),
    ['batch', 'online', 'batch-status', 'cancel-batches'],
  );
  assert.equal(batch[0]!.label, judgeActionLabels.batch);
  assert.equal(batch[0]!.description, 'the judge block says mode batch');
  assert.equal(batch[2]!.description, '2 open, 1 finished to record');
  assert.equal(batch[3]!.description, '2 open');
  // An online judge with nothing on record judges at once (no question); batch mode, or batches on record, ask.
  assert.equal(asksForAction({ model: 'm' }, none), false);
  assert.equal(asksForAction({ model: 'm', mode: 'online' }, none), false);
  assert.equal(asksForAction({ model: 'm', mode: 'batch' }, none), true);
  assert.equal(asksForAction({ model: 'm' }, { open: 1, toCollect: 0 }), true);
  assert.equal(asksForAction({ model: 'm' }, { open: 0, toCollect: 1 }), true);
  assert.equal(asksForAction({ model: 'm' }, none, true), true);
});

test('votes batches left unanswered add the two retries, and make the command ask', () => {
  const left = { open: 0, toCollect: 0, unanswered: 3 };
  const items = judgeActionItems({ model: 'm' }, left);
  assert.deepEqual(
    items.map((i) => i.action),
    ['online', 'batch', 'batch-status', 'cancel-batches', 'retry-batch', 'retry-online'],
  );
  assert.equal(items[4]!.label, 'Retry what batches left unanswered, in a new batch');
  assert.equal(items[5]!.description, '3 votes failed or expired');
  assert.equal(asksForAction({ model: 'm' }, left), true);
  assert.equal(judgeActionItems({ model: 'm' }, { open: 0, toCollect: 0, unanswered: 0 }).length, 4);
});
