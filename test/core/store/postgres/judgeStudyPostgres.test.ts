// An LLM judge run (core/judge/judgeStudy.ts) whose record is a PostgreSQL database, through the real `openai` SDK
// against an OpenAI-compatible server on 127.0.0.1: every vote is on record, a pair's votes become one suggestion
// naming each vote's call, a call that got no answer is asked again by the next run and only it, a finished run asks
// nothing when run again (0 requests) — and the suggestions and totals are those the same run records in SQLite.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createChatClient } from '../../../../core/judge/chatClient.ts';
import { judgeStudy } from '../../../../core/judge/judgeStudy.ts';
import { promptTemplate } from '../../../../core/judge/promptTemplate.ts';
import type { JudgePort } from '../../../../core/store/port/judgePort.ts';
import { studyIdPg } from '../../../../core/store/postgres/judge/pgRules.ts';
import type { PostgresContext } from '../../../../core/store/postgres/postgresContext.ts';
import { PostgresJudge } from '../../../../core/store/postgres/postgresJudge.ts';
import type { StudyStore } from '../../../../core/store/studyStore.ts';
import { startOpenAiServer } from '../../judge/openAiServer.ts';
import { labellingStudy, plainStudy } from '../../labelling/labellingStudy.ts';
import { postgresCopy } from './labelsFixture.ts';

const prompt = {
  ...promptTemplate('prompts/judge.md', 'Query: {{query}}\nDocument: {{document}}\n{{scale}}\n'),
  output: 'label' as const,
};

/** What judgeStudy asks of a store: the judge's area, and the study's id. */
function judgeStore(context: PostgresContext): StudyStore {
  const studies = {
    studyId: (name: string) => context.transaction((client) => studyIdPg(client, context.location, name)),
  };
  return { location: context.location, judge: new PostgresJudge(context), studies } as unknown as StudyStore;
}

/** A judge's suggestions and calls as both backends must have them (call ids aside: calls end in any order). */
async function recordOf(judge: JudgePort, studyId: number, name: string) {
  const suggestions = (await judge.suggestions(studyId, name)).map((s) => ({
    ...s,
    votes: s.votes.map(({ callId: _, ...vote }) => vote),
  }));
  const calls = (await judge.calls(studyId, name))
    .map(({ id: _, latencyMs: __, createdAt: ___, ...call }) => call)
    .sort((a, b) =>
      `${a.docid}/${a.voteIndex}/${a.errorKind}`.localeCompare(`${b.docid}/${b.voteIndex}/${b.errorKind}`),
    );
  const { cost: _, ...totals } = await judge.callTotals(studyId, name);
  return { suggestions, calls, totals };
}

test('a judge run on a PostgreSQL store: votes on record, one suggestion per pair, resume asks only what failed, then nothing', async (t) => {
  const study = await labellingStudy({ ...plainStudy(2, 3), extra: '  judge "judge-p" { votes 3  seed 1 }' });
  t.after(() => study.close());
  const { pool, context } = await postgresCopy(study.db);
  t.after(() => pool.end());
  const store = judgeStore(context);

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

  const first = await judgeStudy(store, study.study, options);
  assert.deepEqual([first.total, first.requests, first.failures, first.suggestions], [18, 18, 1, 6]);
  const name = first.judge;
  const judge = store.judge;
  assert.equal((await judge.calls(study.studyId, name)).length, 18);
  const suggestions = await judge.suggestions(study.studyId, name);
  assert.equal(suggestions.length, 6);
  const calls = await judge.calls(study.studyId, name);
  for (const suggestion of suggestions) {
    for (const vote of suggestion.votes) {
      const call = calls.find((c) => c.id === vote.callId)!;
      assert.deepEqual([call.docid, call.voteIndex, call.parsedLabel], [suggestion.docid, vote.voteIndex, vote.label]);
    }
  }

  // Resume: only the call that got no answer is asked again.
  failing = false;
  const second = await judgeStudy(store, study.study, options);
  assert.deepEqual([second.cached, second.requests, second.failures], [17, 1, 0]);
  assert.equal(server.requests(), 19);
  const mended = (await judge.suggestions(study.studyId, name)).find((s) => s.docid === 'd1-2')!;
  assert.deepEqual(
    mended.votes.map((v) => v.voteIndex),
    [0, 1, 2],
  );

  // Finished: a third run makes no request at all.
  const third = await judgeStudy(store, study.study, options);
  assert.deepEqual([third.cached, third.requests, third.failures, third.suggestions], [18, 0, 0, 6]);
  assert.equal(server.requests(), 19);
  assert.equal((await judge.calls(study.studyId, name)).length, 19, 'no call recorded twice');

  // The same three runs on the SQLite store record the same.
  failing = true;
  await judgeStudy(study.store, study.study, options);
  failing = false;
  await judgeStudy(study.store, study.study, options);
  const sqliteThird = await judgeStudy(study.store, study.study, options);
  assert.deepEqual([sqliteThird.cached, sqliteThird.requests], [18, 0]);
  assert.deepEqual(await recordOf(judge, study.studyId, name), await recordOf(study.store.judge, study.studyId, name));
});
