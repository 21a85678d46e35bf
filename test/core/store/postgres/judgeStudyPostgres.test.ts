// An LLM judge run (core/judge/judgeStudy.ts) on each store of test/storeKinds.ts — SQLite, and a PostgreSQL
// database — through the real `openai` SDK against an OpenAI-compatible server on 127.0.0.1: every vote is on
// record, a pair's votes become one suggestion naming each vote's call, a call that got no answer is asked again by
// the next run and only it, a finished run asks nothing when run again (0 requests), and both stores end with the
// same suggestions, calls and totals.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createChatClient } from '../../../../core/judge/chatClient.ts';
import { judgeStudy } from '../../../../core/judge/judgeStudy.ts';
import { promptTemplate } from '../../../../core/judge/promptTemplate.ts';
import type { JudgePort } from '../../../../core/store/port/judgePort.ts';
import { openTestStore, type StoreKind, storeKinds } from '../../../storeKinds.ts';
import { startOpenAiServer } from '../../judge/openAiServer.ts';
import { plainStudy } from '../../labelling/labellingStudy.ts';
import { seedStudy } from './seedStudy.ts';

const prompt = {
  ...promptTemplate('prompts/judge.md', 'Query: {{query}}\nDocument: {{document}}\n{{scale}}\n'),
  output: 'label' as const,
};

/**
 * A judge's suggestions and calls as both backends must have them: call ids and times aside (calls end in any
 * order), and the endpoint — in the cache key and in failures' messages (each store's runs had a server of their own,
 * on another port).
 */
async function recordOf(judge: JudgePort, studyId: number, name: string, baseURL: string) {
  const suggestions = (await judge.suggestions(studyId, name)).map((s) => ({
    ...s,
    votes: s.votes.map(({ callId: _, ...vote }) => vote),
  }));
  const calls = (await judge.calls(studyId, name))
    .map(({ id: _, latencyMs: __, createdAt: ___, endpoint: ____, cacheKey: _____, ...call }) => ({
      ...call,
      error: call.error?.replaceAll(baseURL, '<endpoint>') ?? null,
    }))
    .sort((a, b) =>
      `${a.docid}/${a.voteIndex}/${a.errorKind}`.localeCompare(`${b.docid}/${b.voteIndex}/${b.errorKind}`),
    );
  const { cost: _, ...totals } = await judge.callTotals(studyId, name);
  return { suggestions, calls, totals };
}

const records = new Map<StoreKind, unknown>();

for (const kind of storeKinds) {
  test(`a judge run: votes on record, one suggestion per pair, resume asks only what failed, then nothing (${kind})`, async (t) => {
    const store = await openTestStore(kind);
    t.after(() => store.close());
    const { study, studyId } = await seedStudy(store, {
      ...plainStudy(2, 3),
      extra: '  judge "judge-p" { votes 3  seed 1 }',
    });

    // The first run: d1-2's first vote gets a server error (no answer: on record, never served from the cache).
    let failing = true;
    const server = await startOpenAiServer({
      respond: ({ body }) => {
        const d = /Document: document (\d+) for query (\d+)/.exec(body.messages![0]!.content)!;
        const seed = body.seed as number;
        if (failing && d[1] === '2' && d[2] === '1' && seed === 1) return { status: 500, body: 'boom' };
        return {
          content: JSON.stringify({ rationale: `seed ${seed}`, label: (Number(d[1]) + seed) % 3 }),
          latencyMs: 30 - 10 * (seed % 3),
        };
      },
    });
    t.after(() => server.close());
    const client = createChatClient({ baseURL: server.baseURL, apiKey: 'sk-test', maxAttempts: 1 });
    const options = {
      concurrency: 4,
      client,
      prompt,
      prices: { 'judge-p': { inputPerMillion: 1, outputPerMillion: 2 } },
    };

    const first = await judgeStudy(store, study, options);
    assert.deepEqual([first.total, first.requests, first.failures, first.suggestions], [18, 18, 1, 6]);
    const name = first.judge;
    const calls = await store.judge.calls(studyId, name);
    assert.equal(calls.length, 18);
    const suggestions = await store.judge.suggestions(studyId, name);
    assert.equal(suggestions.length, 6);
    for (const suggestion of suggestions) {
      for (const vote of suggestion.votes) {
        const call = calls.find((c) => c.id === vote.callId)!;
        assert.deepEqual(
          [call.docid, call.voteIndex, call.parsedLabel],
          [suggestion.docid, vote.voteIndex, vote.label],
          'each vote names its own call',
        );
      }
    }

    // Resume: only the call that got no answer is asked again.
    failing = false;
    const second = await judgeStudy(store, study, options);
    assert.deepEqual([second.cached, second.requests, second.failures], [17, 1, 0]);
    assert.equal(server.requests(), 19);
    const mended = (await store.judge.suggestions(studyId, name)).find((s) => s.docid === 'd1-2')!;
    assert.deepEqual(
      mended.votes.map((v) => v.voteIndex),
      [0, 1, 2],
    );

    // Finished: a third run makes no request at all.
    const third = await judgeStudy(store, study, options);
    assert.deepEqual([third.cached, third.requests, third.failures, third.suggestions], [18, 0, 0, 6]);
    assert.equal(server.requests(), 19);
    assert.equal((await store.judge.calls(studyId, name)).length, 19, 'no call recorded twice');
    records.set(kind, await recordOf(store.judge, studyId, name, server.baseURL));
  });
}

test('the judge runs leave the same suggestions, calls and totals in SQLite and PostgreSQL', () => {
  assert.equal(records.size, storeKinds.length, 'every kind ran');
  assert.deepEqual(records.get('postgres'), records.get('sqlite'));
});
