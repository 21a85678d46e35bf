// One sending run per judge at a time in a VS Code window (extension/judge/judgeRunsInFlight.ts): an online run, an
// online retry, a batch submit and a batch retry of the same judge exclude each other until released; status and
// cancel start beside any of them; other judges (another place, another study) are not held.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JudgeAction } from '../../../extension/judge/judgeActions.ts';
import { JudgeRunsInFlight, judgeRunKey } from '../../../extension/judge/judgeRunsInFlight.ts';

const judge = judgeRunKey('/w/relevance/solar.assess', 'energy-dev', 'gpt-4.1-mini', 1);
const sending: JudgeAction[] = ['online', 'retry-online', 'batch', 'retry-batch'];

test('a sending run holds its judge until released; status and cancel are never held up', () => {
  for (const first of sending) {
    const runs = new JudgeRunsInFlight();
    const taken = runs.start(judge, first);
    assert.ok('release' in taken, first);
    for (const second of sending) {
      const refused = runs.start(judge, second);
      assert.ok('refusal' in refused, `${second} during ${first}`);
      assert.match(
        refused.refusal,
        /under way: wait for it to finish \(or cancel it\) before .* asked, and paid for, twice$/,
      );
    }
    for (const beside of ['batch-status', 'cancel-batches'] as const) assert.ok('release' in runs.start(judge, beside));
    // Another judge of the study (its place), the same judge of another study: not held.
    assert.ok(
      'release' in runs.start(judgeRunKey('/w/relevance/solar.assess', 'energy-dev', 'gpt-4.1-mini', 2), 'batch'),
    );
    assert.ok('release' in runs.start(judgeRunKey('/w/relevance/solar.assess', 'other', 'gpt-4.1-mini', 1), 'online'));
    taken.release();
    taken.release(); // twice is harmless: it does not free a later run's hold
    const next = runs.start(judge, 'batch');
    assert.ok('release' in next, `after ${first} ended`);
    taken.release();
    assert.ok('refusal' in runs.start(judge, 'online'), 'a stale release frees nothing');
  }
});

test('the refusal names both runs', () => {
  const runs = new JudgeRunsInFlight();
  runs.start(judge, 'online');
  const refused = runs.start(judge, 'batch');
  assert.ok('refusal' in refused);
  assert.match(refused.refusal, /^an online run of this judge is under way: .* before a batch submit — /);
});
