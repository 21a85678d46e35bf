// An LLM judge run over a real study record (SQLite in a scratch folder, and PostgreSQL), through the real `openai` SDK
// (createChatClient) against an OpenAI-compatible server on 127.0.0.1 whose answers each test decides: labels
// become the judge's suggestions (read back through the storage port and a labelling session), votes become a majority
// with its spread and confidence, every failure is recorded with what came back and never becomes a label, a
// finished run asks nothing and writes nothing when run again, cancelling stops within one round of calls in flight, and --limit,
// --only-unlabelled and several judges select what is judged and by whom.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type ChatClientOptions, createChatClient } from '../../../core/judge/chatClient.ts';
import {
  type JudgeProgress,
  JudgeSetupError,
  type JudgeStudyOptions,
  judgeAnnotatorName,
  judgeStudy,
} from '../../../core/judge/judgeStudy.ts';
import { promptTemplate, sha256 } from '../../../core/judge/promptTemplate.ts';
import type { CallToRecord, JudgePort, SuggestionRecord } from '../../../core/store/port/judgePort.ts';
import type { StudyStore } from '../../../core/store/studyStore.ts';
import { storeKinds } from '../../storeKinds.ts';
import { type LabellingStudy, labellingStudy, plainStudy } from '../labelling/labellingStudy.ts';
import { type Behaviour, type ChatBody, type OpenAiServer, startOpenAiServer } from './openAiServer.ts';

const promptText = `Judge the document for the query.
Query: {{query}}
Document: {{document}}
Grades:
{{scale}}
Answer with a JSON object: {"rationale": "…", "label": N}.
`;
const prompt = { ...promptTemplate('prompts/judge.md', promptText), output: 'label' as const };

/** The pair a request is about, read back from the rendered prompt ("document D for query Q"). */
function pairOf(body: ChatBody): { q: number; d: number } {
  const match = /Document: document (\d+) for query (\d+)/.exec(body.messages?.[0]?.content ?? '');
  assert.ok(match, `a prompt names its document: ${body.messages?.[0]?.content}`);
  return { d: Number(match[1]), q: Number(match[2]) };
}

const answer = (label: unknown, rationale = 'said so') => JSON.stringify({ rationale, label });

function clientFor(server: OpenAiServer, options: Partial<ChatClientOptions> = {}) {
  return createChatClient({
    baseURL: server.baseURL,
    apiKey: 'sk-test-0123456789',
    timeoutMs: 2_000,
    maxAttempts: 3,
    backoff: { baseMs: 1, maxMs: 5 },
    breaker: { failures: 1_000, pauseMs: 1_000 },
    ...options,
  });
}

function run(study: LabellingStudy, server: OpenAiServer, options: Partial<JudgeStudyOptions> = {}) {
  return judgeStudy(study.store, study.study, {
    concurrency: 4,
    client: clientFor(server),
    prompt,
    prices: {},
    ...options,
  });
}

/** Each pair's current suggestion by `judge`, in query order. */
async function suggestionsOf(study: LabellingStudy, judge: string) {
  return (await study.store.judge.suggestions(study.studyId, judge)).map(
    ({ qid, docid, label, rationale, confidence }) => ({ qid, docid, label, rationale, confidence }),
  );
}

/** The calls recorded for the study, by query and document. */
async function callsOf(study: LabellingStudy) {
  return (await study.store.judge.calls(study.studyId)).sort(
    (a, b) => (a.qid ?? '').localeCompare(b.qid ?? '') || (a.docid ?? '').localeCompare(b.docid ?? ''),
  );
}

for (const kind of storeKinds)
  test(`labels become suggestions of the judge annotator, with every call recorded: request, answer, tokens, cost (${kind})`, async (t) => {
    const study = await labellingStudy(
      {
        ...plainStudy(3, 2),
        extra: '  judge "judge-a" { temperature 0  max_tokens 64 }',
      },
      kind,
    );
    const labelFor = (q: number, d: number) => (q + d) % 3;
    const server = await startOpenAiServer({
      respond: ({ body }) => {
        const { q, d } = pairOf(body);
        t.after(() => server.close());
        return { content: answer(labelFor(q, d), `q${q} d${d}`), usage: { prompt_tokens: 100, completion_tokens: 10 } };
      },
    });
    const at = new Date('2026-03-04T05:06:07.000Z');
    const progress: JudgeProgress[] = [];
    const report = await run(study, server, {
      prices: { 'judge-a': { inputPerMillion: 1, outputPerMillion: 2 } },
      now: () => at,
      onProgress: (p) => progress.push(p),
    });
    const judge = judgeAnnotatorName('judge-a', prompt.hash);
    assert.equal(judge, `llm:judge-a@${sha256(promptText).slice(0, 8)}`);
    assert.equal(report.judge, judge);
    assert.deepEqual(
      [
        report.total,
        report.done,
        report.cached,
        report.requests,
        report.failures,
        report.suggestions,
        report.cancelled,
      ],
      [6, 6, 0, 6, 0, 6, false],
    );
    assert.deepEqual([report.inputTokens, report.outputTokens], [600, 60]);
    assert.ok(Math.abs(report.cost - (6 * (100 * 1 + 10 * 2)) / 1e6) < 1e-12, `cost ${report.cost}`);
    assert.deepEqual(
      progress.map((p) => p.done),
      [1, 2, 3, 4, 5, 6],
    );
    assert.equal(server.requests(), 6);

    const expected = [1, 2, 3].flatMap((q) =>
      [1, 2].map((d) => ({
        qid: `q${q}`,
        docid: `d${q}-${d}`,
        label: labelFor(q, d),
        rationale: `q${q} d${d}`,
        confidence: null,
      })),
    );
    assert.deepEqual(await suggestionsOf(study, judge), expected);
    // Recorded as an LLM judge: a person cannot use the name.
    await assert.rejects(study.store.studies.ensureAnnotator(judge, 'human'), /is an LLM judge/);

    // Every call: what was asked (and exactly what the server got), what came back, what it cost.
    const calls = await callsOf(study);
    assert.equal(calls.length, 6);
    const sent = new Map(server.bodies().map((b) => [`q${pairOf(b).q}/d${pairOf(b).q}-${pairOf(b).d}`, b]));
    for (const call of calls) {
      const body = sent.get(`${call.qid}/${call.docid}`)!;
      const content = body.messages![0]!.content;
      assert.equal(body.model, 'judge-a');
      assert.equal(body.temperature, 0);
      assert.equal(body.max_tokens, 64);
      assert.equal((body.response_format as { type: string }).type, 'json_schema');
      assert.match(content, /Grades:\n2 = Highly\n1 = Relevant\n0 = Not relevant\n/);
      const parameters = JSON.parse(call.parameters);
      assert.deepEqual(
        [parameters.temperature, parameters.max_tokens, parameters.response_format],
        [0, 64, body.response_format],
      );
      const { q, d } = pairOf(body);
      assert.deepEqual(
        {
          endpoint: call.endpoint,
          model: call.model,
          prompt_template_hash: call.promptTemplateHash,
          prompt_hash: call.promptHash,
          vote_index: call.voteIndex,
          judge: call.judge,
          raw_output: call.rawOutput,
          parsed_label: call.parsedLabel,
          rationale: call.rationale,
          error: call.error,
          input_tokens: call.inputTokens,
          output_tokens: call.outputTokens,
          attempts: call.attempts,
          cost: call.cost,
          created_at: call.createdAt,
          study_id: call.studyId,
        },
        {
          endpoint: server.baseURL,
          model: 'judge-a',
          prompt_template_hash: prompt.hash,
          prompt_hash: sha256(content),
          vote_index: 0,
          judge,
          raw_output: answer(labelFor(q, d), `q${q} d${d}`),
          parsed_label: labelFor(q, d),
          rationale: `q${q} d${d}`,
          error: null,
          input_tokens: 100,
          output_tokens: 10,
          attempts: 1,
          cost: (100 * 1 + 10 * 2) / 1e6,
          created_at: at.toISOString(),
          study_id: study.studyId,
        },
      );
      assert.ok(typeof call.latencyMs === 'number' && call.latencyMs >= 0);
    }
    const totals = await study.store.judge.callTotals(study.studyId, judge);
    assert.deepEqual([totals.calls, totals.answered, totals.failed, totals.inputTokens], [6, 6, 0, 600]);

    // The Label view shows them as the judge's suggestions (no confidence: the judge did not vote).
    const session = await study.session('alice');
    const first = (await session.pairAt(0, session.state().queue.version, false))!;
    assert.deepEqual(first.suggestions, [{ judge, label: labelFor(1, 1), rationale: 'q1 d1' }]);
    await study.close();
  });

for (const kind of storeKinds)
  test(`votes 3: the majority is the suggestion, with its confidence, the spread kept per vote; a tie goes lower (${kind})`, async (t) => {
    const study = await labellingStudy(
      {
        ...plainStudy(1, 3),
        extra: '  judge "judge-v" { votes 3  seed 7  temperature 0.7 }',
      },
      kind,
    );
    // Vote i is asked with seed 7 + i. Document 1: 2, 1, 2. Document 2: 0, 0, 0. Document 3: 1, unparseable, 2.
    const votes: Record<number, Record<number, string>> = {
      1: { 7: answer(2, 'first two'), 8: answer(1, 'one'), 9: answer(2, 'second two') },
      2: { 7: answer(0, 'no'), 8: answer(0, 'no'), 9: answer(0, 'no') },
      3: { 7: answer(1, 'low'), 8: 'I would rather not say.', 9: answer(2, 'high') },
    };
    const server = await startOpenAiServer({
      respond: ({ body }) => ({ content: votes[pairOf(body).d]![body.seed as number]! }),
    });
    t.after(() => server.close());
    const report = await run(study, server);
    assert.deepEqual([report.total, report.requests, report.failures, report.failuresByKind], [9, 9, 1, { parse: 1 }]);
    assert.deepEqual(
      server.bodies().map((b) => b.temperature),
      Array(9).fill(0.7),
    );
    const judge = report.judge;
    assert.deepEqual(await suggestionsOf(study, judge), [
      { qid: 'q1', docid: 'd1-1', label: 2, rationale: 'first two', confidence: 2 / 3 },
      { qid: 'q1', docid: 'd1-2', label: 0, rationale: 'no', confidence: 1 },
      // 1 and 2 tie: the lower label; the unparseable vote is a vote that failed, not a label.
      { qid: 'q1', docid: 'd1-3', label: 1, rationale: 'low', confidence: 0.5 },
    ]);
    const spread = (await study.store.judge.suggestions(study.studyId, judge)).flatMap((s) =>
      s.votes.map((v) => ({ docid: s.docid, ...v })),
    );
    assert.deepEqual(
      spread.map((v) => [v.docid, v.voteIndex, v.label]),
      [
        ['d1-1', 0, 2],
        ['d1-1', 1, 1],
        ['d1-1', 2, 2],
        ['d1-2', 0, 0],
        ['d1-2', 1, 0],
        ['d1-2', 2, 0],
        ['d1-3', 0, 1],
        ['d1-3', 1, null],
        ['d1-3', 2, 2],
      ],
    );
    assert.equal(spread[7]!.rawOutput, 'I would rather not say.');
    const session = await study.session('alice');
    const version = session.state().queue.version;
    assert.deepEqual((await session.pairAt(0, version, false))!.suggestions, [
      { judge, label: 2, rationale: 'first two', confidence: 2 / 3 },
    ]);
    await study.close();
  });

for (const kind of storeKinds)
  test(`failures are recorded with what came back and never become a label; only answered calls are cached (${kind})`, async (t) => {
    const study = await labellingStudy({ ...plainStudy(1, 7), extra: '  judge "judge-f" {}' }, kind);
    const seen = new Map<number, number>();
    // Document → what the server does with every request about it (document 4: a 429 first, then an answer).
    const behaviours: Record<number, (attempt: number) => Behaviour> = {
      1: () => ({ content: 'This document seems relevant, I guess.' }),
      2: () => ({ content: answer(7, 'off the scale') }),
      3: () => ({ status: 500 }),
      4: (attempt) => (attempt === 1 ? { status: 429, retryAfterMs: 20 } : { content: answer(1, 'after waiting') }),
      5: () => ({ drop: true }),
      6: () => ({ hang: true }),
      7: () => ({ malformed: true }),
    };
    const server = await startOpenAiServer({
      respond: ({ body }) => {
        const { d } = pairOf(body);
        t.after(() => server.close());
        seen.set(d, (seen.get(d) ?? 0) + 1);
        return behaviours[d]!(seen.get(d)!);
      },
    });
    const client = clientFor(server, { timeoutMs: 300, maxAttempts: 2 });
    const report = await run(study, server, { client });
    assert.deepEqual(report.failuresByKind, { parse: 2, server: 2, connection: 1, timeout: 1 });
    assert.deepEqual([report.done, report.failures, report.suggestions], [7, 6, 3]);

    const calls = await callsOf(study);
    assert.deepEqual(
      calls.map((c) => [c.docid, c.rawOutput, c.parsedLabel, c.errorKind, c.attempts]),
      [
        ['d1-1', 'This document seems relevant, I guess.', null, 'parse', 1],
        ['d1-2', answer(7, 'off the scale'), null, 'parse', 1],
        ['d1-3', '', null, 'server', 2],
        ['d1-4', answer(1, 'after waiting'), 1, null, 2],
        ['d1-5', '', null, 'connection', 2],
        ['d1-6', '', null, 'timeout', 2],
        ['d1-7', '', null, 'server', 2],
      ],
    );
    assert.match(calls[1]!.error!, /Expected a label on the scale \(0, 1, 2\), found 7/);
    assert.match(calls[2]!.error!, /answered 500/);
    for (const call of calls) assert.equal(call.error === null, call.errorKind === null);
    // Answers that did not parse are the judge's "could not decide" (label NULL); calls without an answer say nothing.
    assert.deepEqual(
      (await suggestionsOf(study, report.judge)).map((s) => [s.docid, s.label]),
      [
        ['d1-1', null],
        ['d1-2', null],
        ['d1-4', 1],
      ],
    );
    const scale = new Set([0, 1, 2]);
    for (const s of await suggestionsOf(study, report.judge)) assert.ok(s.label === null || scale.has(s.label));

    // Run again: the calls that got no answer are asked again, the answered ones (parsed or not) are not.
    seen.clear();
    const again = await run(study, server, { client });
    assert.deepEqual([...seen.keys()].sort(), [3, 5, 6, 7]);
    assert.deepEqual([again.cached, again.done], [3, 7]);
    await study.close();
  });

for (const kind of storeKinds)
  test(`a finished run run again makes zero requests and leaves one suggestion per pair and judge (${kind})`, async (t) => {
    const study = await labellingStudy({ ...plainStudy(2, 3), extra: '  judge "judge-r" { votes 3  seed 1 }' }, kind);
    const server = await startOpenAiServer({
      respond: ({ body }) => ({ content: answer((pairOf(body).d + (body.seed as number)) % 3) }),
    });
    t.after(() => server.close());
    const first = await run(study, server);
    assert.equal(server.requests(), 18);
    const before = await suggestionsOf(study, first.judge);
    // The port as the re-runs see it, counting their writes.
    const port = study.store.judge;
    const written: CallToRecord[][] = [];
    const counting: JudgePort = Object.assign(Object.create(port) as JudgePort, {
      recordCalls: (calls: readonly CallToRecord[]) => {
        written.push([...calls]);
        return port.recordCalls(calls);
      },
      replaceSuggestion: (suggestion: SuggestionRecord) => {
        written.push([{ suggestion }]);
        return port.replaceSuggestion(suggestion);
      },
    });
    const store = Object.assign(Object.create(study.store) as StudyStore, { judge: counting });
    const rerun = () =>
      judgeStudy(store, study.study, { concurrency: 4, client: clientFor(server), prompt, prices: {} });
    const second = await rerun();
    assert.equal(server.requests(), 18, 'no request the second time');
    // Every vote from the cache, every suggestion the same as on record: nothing is written.
    assert.deepEqual(written, []);
    assert.equal(second.suggestions, 6);
    assert.deepEqual(
      [second.total, second.done, second.cached, second.requests, second.inputTokens, second.cost],
      [18, 18, 18, 0, 0, 0],
    );
    assert.deepEqual(await suggestionsOf(study, first.judge), before);
    const stored = await study.store.judge.suggestions(study.studyId, first.judge);
    assert.equal(stored.length, 6);
    assert.equal(
      stored.reduce((n, s) => n + s.votes.length, 0),
      18,
    );
    assert.equal((await study.store.judge.calls(study.studyId)).length, 18);
    // What the re-run compares with: each pair's suggestion's votes on record (none for a judge without any).
    const pairIds = stored.map((s) => s.pairId);
    const onRecord = await port.currentSuggestionVotes(first.judge, [...pairIds, 999_999]);
    assert.deepEqual(
      [...onRecord.entries()].sort(([a], [b]) => a - b),
      stored
        .map((s) => [s.pairId, s.votes.map(({ voteIndex, callId, label }) => ({ voteIndex, callId, label }))] as const)
        .sort(([a], [b]) => a - b),
    );
    assert.equal((await port.currentSuggestionVotes('llm:nobody@00000000', pairIds)).size, 0);
    // A suggestion that differs from what the votes say (here: from two of its votes) is written again, alone.
    const changed = stored[2]!;
    await port.replaceSuggestion({
      pairId: changed.pairId,
      judge: first.judge,
      label: changed.votes[0]!.label,
      callId: changed.votes[0]!.callId,
      votes: changed.votes.slice(0, 2).map(({ voteIndex, callId, label }) => ({ voteIndex, callId, label })),
      createdAt: new Date().toISOString(),
    });
    const third = await rerun();
    assert.equal(third.requests, 0);
    assert.deepEqual(
      (written as CallToRecord[][]).map((group) =>
        group.map((entry) => [entry.call !== undefined, entry.suggestion?.pairId]),
      ),
      [[[false, changed.pairId]]],
    );
    assert.deepEqual(await suggestionsOf(study, first.judge), before);
    // A re-run cancelled part way through a pair's votes leaves its suggestion (from all of them) as it is.
    written.length = 0;
    const controller = new AbortController();
    const cancelled = await judgeStudy(store, study.study, {
      concurrency: 4,
      client: clientFor(server),
      prompt,
      prices: {},
      signal: controller.signal,
      onProgress: () => controller.abort(),
    });
    assert.ok(cancelled.cancelled && cancelled.done < 18, `stopped early: ${cancelled.done} votes`);
    assert.deepEqual(written, []);
    assert.deepEqual(await suggestionsOf(study, first.judge), before);
    await study.close();
  });

for (const kind of storeKinds)
  test(`cancel: no call starts after it, calls in flight are recorded as cancelled and asked again next time (${kind})`, async (t) => {
    const study = await labellingStudy({ ...plainStudy(1, 40), extra: '  judge "judge-c" {}' }, kind);
    const server = await startOpenAiServer({
      respond: ({ body }) => ({ content: answer(pairOf(body).d % 3), latencyMs: 150 }),
    });
    t.after(() => server.close());
    const controller = new AbortController();
    const concurrency = 4;
    const report = await run(study, server, {
      concurrency,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.done >= 6) controller.abort();
      },
    });
    assert.equal(report.cancelled, true);
    assert.ok(server.requests() <= report.done + concurrency, `${server.requests()} requests, ${report.done} done`);
    assert.ok(report.notStarted > 0);
    assert.equal(report.done + report.notStarted, report.total);
    const recorded = await study.store.judge.calls(study.studyId);
    assert.equal(recorded.length, report.done, 'every finished call is recorded');
    const cancelled = report.failuresByKind.cancelled ?? 0;
    assert.equal(recorded.filter((c) => c.errorKind === 'cancelled').length, cancelled);
    assert.equal(report.suggestions, report.done - cancelled);

    // The rest, and the cancelled ones, are asked next time; nothing answered is asked twice.
    const requestsBefore = server.requests();
    const rest = await run(study, server, { concurrency: 8 });
    assert.equal(rest.cached, report.done - cancelled);
    assert.equal(server.requests() - requestsBefore, 40 - (report.done - cancelled));
    assert.equal((await suggestionsOf(study, rest.judge)).length, 40);
    await study.close();
  });

for (const kind of storeKinds)
  test(`--limit judges the first pairs in query order; --only-unlabelled skips pairs a person has labelled (${kind})`, async (t) => {
    const study = await labellingStudy({ ...plainStudy(2, 3), extra: '  judge "judge-l" {}' }, kind);
    const server = await startOpenAiServer({ respond: ({ body }) => ({ content: answer(pairOf(body).d % 3) }) });
    t.after(() => server.close());
    const limited = await run(study, server, { limit: 4 });
    assert.deepEqual(
      (await suggestionsOf(study, limited.judge)).map((s) => s.docid),
      ['d1-1', 'd1-2', 'd1-3', 'd2-1'],
    );
    assert.equal(server.requests(), 4);

    // alice labels d1-1 and d2-2, then takes back d2-2; an LLM judgment is not a person's label.
    const session = await study.session('alice');
    const version = session.state().queue.version;
    for (const position of [0, 4]) {
      const pair = (await session.pairAt(position, version, false))!;
      await session.commit({ position, pairId: pair.pairId, label: 1, queueVersion: version });
    }
    await session.undo();
    await study.store.labels.addJudgment({
      study: 's',
      qid: 'q2',
      docid: 'd2-3',
      annotator: limited.judge,
      label: 2,
      source: 'imported',
    });
    const unlabelled = await run(study, server, { onlyUnlabelled: true });
    assert.equal(unlabelled.pairs, 5);
    assert.equal(unlabelled.cached, 3, 'd1-2, d1-3 and d2-1 were judged already');
    assert.deepEqual(
      (await suggestionsOf(study, limited.judge)).map((s) => s.docid),
      ['d1-1', 'd1-2', 'd1-3', 'd2-1', 'd2-2', 'd2-3'],
    );
    assert.equal(server.requests(), 4 + 2);
    await study.close();
  });

for (const kind of storeKinds)
  test(`two judges of one study are two annotators, run one at a time by model or place, compared side by side (${kind})`, async (t) => {
    const study = await labellingStudy(
      {
        ...plainStudy(1, 2),
        extra: '  judge "model-a" { temperature 0 }\n  judge "model-b" { temperature 0 }',
      },
      kind,
    );
    const server = await startOpenAiServer({
      respond: ({ body }) => ({ content: answer(body.model === 'model-a' ? 0 : 2) }),
    });
    t.after(() => server.close());
    await assert.rejects(run(study, server), {
      name: 'JudgeSetupError',
      message: "study 's' has 2 judges (1. model-a, 2. model-b): name the one to run",
    });
    await assert.rejects(run(study, server, { judge: 'model-c' }), {
      message: "study 's' has no judge 'model-c' (its judges: 1. model-a, 2. model-b)",
    });
    assert.equal(server.requests(), 0);
    const a = await run(study, server, { judge: 'model-a' });
    const b = await run(study, server, { judge: '2' });
    assert.deepEqual(
      [a.judge, b.judge],
      [judgeAnnotatorName('model-a', prompt.hash), judgeAnnotatorName('model-b', prompt.hash)],
    );
    assert.deepEqual(Object.fromEntries(server.requestsByModel()), { 'model-a': 2, 'model-b': 2 });
    const session = await study.session('alice');
    assert.deepEqual(
      (await session.pairAt(0, session.state().queue.version, false))!.suggestions.map((s) => [s.judge, s.label]),
      [
        [a.judge, 0],
        [b.judge, 2],
      ],
    );
    // The same model with another prompt is another judge.
    const other = { ...promptTemplate('prompts/other.md', `${promptText}Be strict.\n`), output: 'label' as const };
    const c = await run(study, server, { judge: 'model-a', prompt: other });
    assert.notEqual(c.judge, a.judge);
    assert.equal(c.requests, 2);
    await study.close();
  });

for (const kind of storeKinds)
  test(`a conditions judge answers per condition; the study derives the label; a query without conditions is skipped (${kind})`, async (t) => {
    const study = await labellingStudy(
      {
        queries: [
          { qid: 'q1', text: 'medal tables', instruction: '1. after 2000 2. in Europe' },
          { qid: 'q2', text: 'rivers' },
        ],
        documents: [
          { docid: 'a', body: 'document 1 for query 1' },
          { docid: 'b', body: 'document 2 for query 1' },
          { docid: 'c', body: 'document 3 for query 2' },
        ],
        ranking: { q1: ['a', 'b'], q2: ['c'] },
        extra:
          '  conditions from instruction\n  derive label = all(conditions) ? 2 : any(conditions) ? 1 : 0\n  judge "judge-k" {}',
      },
      kind,
    );
    const conditionsPrompt = {
      ...promptTemplate(
        'prompts/conditions.md',
        'Query: {{query}}\nDocument: {{document}}\nConditions:\n{{conditions}}\n',
      ),
      output: 'conditions' as const,
    };
    const server = await startOpenAiServer({
      respond: ({ body }) => {
        assert.match(body.messages![0]!.content, /Conditions:\n1\. after 2000\n2\. in Europe\n/);
        t.after(() => server.close());
        const conditions = pairOf(body).d === 1 ? [true, true] : [true, false];
        return { content: JSON.stringify({ rationale: 'checked', conditions }) };
      },
    });
    const report = await run(study, server, { prompt: conditionsPrompt });
    assert.deepEqual(report.skipped, [{ qid: 'q2', docid: 'c', reason: "query 'q2' has no conditions to check" }]);
    assert.deepEqual(
      (await suggestionsOf(study, report.judge)).map((s) => [s.docid, s.label]),
      [
        ['a', 2],
        ['b', 1],
      ],
    );
    assert.deepEqual(
      (await study.store.judge.calls(study.studyId))
        .sort((x, y) => x.pairId! - y.pairId!)
        .map((c) => c.parsedConditions),
      [
        [true, true],
        [true, false],
      ],
    );
    await study.close();
  });

for (const kind of storeKinds)
  test(`a prompt with an unknown variable is refused at its position before any request (${kind})`, async (t) => {
    const study = await labellingStudy({ ...plainStudy(1, 1), extra: '  judge "judge-p" {}' }, kind);
    const server = await startOpenAiServer();
    t.after(() => server.close());
    const broken = {
      ...promptTemplate('prompts/broken.md', 'Query: {{query}}\nDoc: {{ documnet }}\n'),
      output: 'label' as const,
    };
    await assert.rejects(run(study, server, { prompt: broken }), (error: Error) => {
      assert.ok(error instanceof JudgeSetupError);
      assert.match(
        error.message,
        /^prompts\/broken\.md:2:6: unknown variable \{\{documnet\}\}.*did you mean \{\{document\}\}/,
      );
      return true;
    });
    assert.equal(server.requests(), 0);
    await study.close();
  });

for (const kind of storeKinds)
  test(`two pairs whose requests are identical are asked once, each vote recorded for its own pair (${kind})`, async (t) => {
    // q1's documents 2 and 4 are document 1's text under other ids: three pairs, one request between them.
    const options = plainStudy(1, 5);
    for (const document of options.documents) {
      if (document.docid === 'd1-2' || document.docid === 'd1-4') document.body = 'document 1 for query 1';
    }
    const study = await labellingStudy({ ...options, extra: '  judge "judge-d" { votes 2  seed 1 }' }, kind);
    const server = await startOpenAiServer({
      respond: ({ body }) => ({ content: answer((pairOf(body).d + (body.seed as number)) % 3), latencyMs: 20 }),
    });
    t.after(() => server.close());
    const report = await run(study, server, { concurrency: 8 });
    // 3 distinct documents × 2 votes.
    assert.equal(server.requests(), 6);
    assert.deepEqual([report.requests, report.cached, report.done, report.suggestions], [6, 4, 10, 5]);
    assert.equal((await study.store.judge.calls(study.studyId)).length, 6);
    const stored = await study.store.judge.suggestions(study.studyId, report.judge);
    const votesOf = (docid: string) => stored.find((s) => s.docid === docid)!.votes.map((v) => [v.callId, v.label]);
    assert.equal(stored.length, 5);
    assert.deepEqual(votesOf('d1-2'), votesOf('d1-1'));
    assert.deepEqual(votesOf('d1-4'), votesOf('d1-1'));
    assert.notDeepEqual(votesOf('d1-3'), votesOf('d1-1'));
    await study.close();
  });
