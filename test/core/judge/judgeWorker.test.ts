// The judge through the study store in a worker thread, as the extension host runs it: every JudgePort method crosses
// the thread as plain data, a pair's votes finishing out of order still make one suggestion naming each vote's call,
// each vote is on record (seen from another connection) once its progress is reported, and a second run asks
// nothing.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { createChatClient } from '../../../core/judge/chatClient.ts';
import { judgeStudy } from '../../../core/judge/judgeStudy.ts';
import { promptTemplate } from '../../../core/judge/promptTemplate.ts';
import { openWorkerStudyStore } from '../../../core/worker/workerStudyStore.ts';
import { repoRoot } from '../../helpers.ts';
import { labellingStudy, nativeBinding, plainStudy } from '../labelling/labellingStudy.ts';
import { startOpenAiServer } from './openAiServer.ts';

const prompt = {
  ...promptTemplate('prompts/judge.md', 'Query: {{query}}\nDocument: {{document}}\n{{scale}}\n'),
  output: 'label' as const,
};

test('a judge run through the worker store records every vote as it ends and one suggestion per pair', async (t) => {
  const study = await labellingStudy({ ...plainStudy(2, 3), extra: '  judge "judge-w" { votes 3  seed 1 }' });
  t.after(() => study.close());
  // Later votes answer sooner, so a pair's votes finish out of order.
  const server = await startOpenAiServer({
    respond: ({ body }) => {
      const d = Number(/Document: document (\d+)/.exec(body.messages![0]!.content)![1]);
      const seed = body.seed as number;
      return {
        content: JSON.stringify({ rationale: `seed ${seed}`, label: (d + seed) % 3 }),
        latencyMs: 40 - 10 * seed,
      };
    },
  });
  t.after(() => server.close());
  const store = await openWorkerStudyStore(study.store.location, {
    nativeBinding,
    workerScript: join(repoRoot, 'core', 'worker', 'studyWorker.ts'),
  });
  t.after(() => store.close());
  const client = createChatClient({ baseURL: server.baseURL, apiKey: 'sk-test', maxAttempts: 1 });
  const seen: Promise<void>[] = [];
  const report = await judgeStudy(store, study.study, {
    concurrency: 4,
    client,
    prompt,
    prices: {},
    onProgress: (progress) => {
      seen.push(
        study.store.judge.calls(study.studyId).then((calls) => {
          assert.ok(calls.length >= progress.done, `${calls.length} calls on record at ${progress.done} done`);
        }),
      );
    },
  });
  await Promise.all(seen);
  assert.equal(seen.length, 18);
  assert.deepEqual([report.total, report.done, report.requests, report.suggestions], [18, 18, 18, 6]);

  const calls = await study.store.judge.calls(study.studyId, report.judge);
  assert.equal(calls.length, 18);
  const suggestions = await study.store.judge.suggestions(study.studyId, report.judge);
  assert.equal(suggestions.length, 6);
  for (const suggestion of suggestions) {
    assert.deepEqual(
      suggestion.votes.map((v) => v.voteIndex),
      [0, 1, 2],
    );
    for (const vote of suggestion.votes) {
      const call = calls.find((c) => c.id === vote.callId)!;
      assert.deepEqual(
        [call.docid, call.voteIndex, call.parsedLabel],
        [suggestion.docid, vote.voteIndex, vote.label],
        'each vote names its own call',
      );
    }
  }
  const totals = await store.judge.callTotals(study.studyId, report.judge);
  assert.deepEqual([totals.calls, totals.answered, totals.failed], [18, 18, 0]);

  const again = await judgeStudy(store, study.study, { concurrency: 4, client, prompt, prices: {} });
  assert.deepEqual([again.cached, again.requests], [18, 0]);
  assert.equal(server.requests(), 18);
  assert.equal((await study.store.judge.calls(study.studyId)).length, 18, 'no call recorded twice');
});

test('a call and the suggestion it completes are one transaction; a person’s name is no judge', async (t) => {
  const study = await labellingStudy({ ...plainStudy(1, 1), extra: '  judge "judge-t" {}' });
  t.after(() => study.close());
  const store = await openWorkerStudyStore(study.store.location, {
    nativeBinding,
    workerScript: join(repoRoot, 'core', 'worker', 'studyWorker.ts'),
  });
  t.after(() => store.close());
  const judge = 'llm:judge-t@01234567';
  const call = {
    cacheKey: 'key',
    request: { endpoint: 'http://127.0.0.1:1/v1', model: 'judge-t', parameters: '{}', promptHash: 'ph', voteIndex: 0 },
    promptTemplateHash: 'th',
    studyId: study.studyId,
    pairId: study.pairId('q1', 'd1-1'),
    judge,
    rawOutput: '{"label": 1}',
    parsedLabel: 1,
    attempts: 1,
    createdAt: '2026-03-04T05:06:07.000Z',
  };
  const suggestion = {
    pairId: call.pairId,
    judge,
    label: 1,
    callId: null,
    votes: [{ voteIndex: 0, callId: null, label: 1 }],
    createdAt: call.createdAt,
  };
  // A suggestion for a pair that is not there: neither it nor its call is written.
  await assert.rejects(store.judge.recordCall(call, { ...suggestion, pairId: 999_999 }), /FOREIGN KEY/);
  assert.deepEqual(await store.judge.calls(study.studyId), []);
  assert.equal(await store.judge.cachedCall('key'), undefined);

  const id = await store.judge.recordCall(call, suggestion);
  assert.deepEqual((await store.judge.cachedCall('key'))?.id, id);
  assert.deepEqual(
    (await study.store.judge.suggestions(study.studyId, judge)).map((s) => [s.docid, s.label, s.votes]),
    [['d1-1', 1, [{ voteIndex: 0, callId: id, label: 1, rawOutput: '{"label": 1}' }]]],
  );

  await study.store.studies.ensureAnnotator('alice', 'human');
  await assert.rejects(store.judge.judgeAnnotator('alice'), {
    name: 'StoreError',
    message: `'alice' is a person in ${study.store.location}, not an LLM judge`,
  });
});
