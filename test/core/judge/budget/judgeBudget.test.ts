// A judge run's budget over a real study record (SQLite and PostgreSQL), through the real `openai` SDK against an
// OpenAI-compatible server on 127.0.0.1 that reports usage as OpenAI would: the prompt tokens of the messages it got,
// by OpenAI's published encoding (gpt-tokenizer's own chat encoder, not the budget's frame arithmetic). The estimate
// must count exactly what a run then sends (cached votes left out); a budget below the estimate, or a model without a
// price, must send nothing; an online run must stop at its budget with calls in flight, losing nothing it paid for.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { countTokens, encodeChat } from 'gpt-tokenizer/encoding/o200k_base';
import { BudgetRefusal } from '../../../../core/judge/budget/budgetGuard.ts';
import { budgetedJob, estimateJudgeJob } from '../../../../core/judge/budget/jobEstimate.ts';
import { type PendingPair, pendingVotes } from '../../../../core/judge/budget/pendingVotes.ts';
import { createChatClient } from '../../../../core/judge/chatClient.ts';
import { judgeCacheKey } from '../../../../core/judge/judgeCallStore.ts';
import { formatCost } from '../../../../core/judge/judgeProgressText.ts';
import { judgeSetup } from '../../../../core/judge/judgeSetup.ts';
import { judgeAnnotatorName, judgeStudy } from '../../../../core/judge/judgeStudy.ts';
import { voteCallRequest, voteParametersOf } from '../../../../core/judge/judgeVote.ts';
import type { PriceTable } from '../../../../core/judge/priceTable.ts';
import { promptTemplate, sha256 } from '../../../../core/judge/promptTemplate.ts';
import { storeKinds } from '../../../storeKinds.ts';
import { type LabellingStudy, labellingStudy, plainStudy } from '../../labelling/labellingStudy.ts';
import { type ChatBody, type OpenAiServer, startOpenAiServer } from '../openAiServer.ts';

const prompt = {
  ...promptTemplate(
    'prompts/judge.md',
    `Judge how well the document answers the query.
Query: {{query}}
Document: {{document}}
Grades:
{{scale}}
Answer with a JSON object: {"rationale": "…", "label": N}.
`,
  ),
  output: 'label' as const,
};
const model = 'gpt-4o-mini';
const prices: PriceTable = { [model]: { inputPerMillion: 150, outputPerMillion: 600 } };

/** What OpenAI bills as input for a request: its messages in the chat frame, and its response schema. */
function billedInput(body: ChatBody): { messages: number; schema: number } {
  const messages = (body.messages ?? []).map((m) => ({ role: m.role as 'user', content: m.content }));
  const format = body.response_format as { json_schema?: unknown } | undefined;
  return {
    messages: encodeChat(messages, model).length,
    schema: format?.json_schema === undefined ? 0 : countTokens(JSON.stringify(format.json_schema)),
  };
}

const answer = (label: number) => JSON.stringify({ rationale: 'the document names the query', label });

function documentsWithText(queries: number, perQuery: number) {
  const plain = plainStudy(queries, perQuery);
  // Documents of differing lengths, so that calls cost differently.
  plain.documents = plain.documents.map((d, i) => ({
    ...d,
    body: `${d.body}. ${'Relevance judgments decide which systems look better; '.repeat(1 + (i % 5))}`,
  }));
  return plain;
}

function jobOf(
  study: LabellingStudy,
  server: OpenAiServer,
  extra: Partial<Parameters<typeof estimateJudgeJob>[2]> = {},
) {
  return {
    setup: judgeSetup(study.study, { prompt }),
    prompt,
    endpoint: server.baseURL,
    prices,
    mode: 'online' as const,
    ...extra,
  };
}

function clientFor(server: OpenAiServer) {
  return createChatClient({ baseURL: server.baseURL, apiKey: 'sk-test', timeoutMs: 5_000, maxAttempts: 1 });
}

for (const kind of storeKinds)
  test(`the estimate counts the tokens the server then bills, for the votes the cache does not answer (${kind})`, async (t) => {
    const study = await labellingStudy(
      { ...documentsWithText(3, 4), extra: `  judge "${model}" { temperature 0  max_tokens 64  votes 2 }` },
      kind,
    );
    t.after(() => study.close());
    const billed: { messages: number; schema: number; output: number }[] = [];
    const server = await startOpenAiServer({
      respond: ({ body }) => {
        const content = answer(1);
        const input = billedInput(body);
        const output = countTokens(content);
        billed.push({ ...input, output });
        return { content, usage: { prompt_tokens: input.messages + input.schema, completion_tokens: output } };
      },
    });
    t.after(() => server.close());
    const run = (limit?: number) =>
      judgeStudy(study.store, study.study, {
        concurrency: 3,
        client: clientFor(server),
        prompt,
        prices,
        ...(limit !== undefined && { limit }),
      });

    // 5 of the 12 pairs judged first: their 10 votes are cached, and cost nothing in the estimate of the whole job.
    await run(5);
    assert.equal(server.requests(), 10);
    const estimate = await estimateJudgeJob(study.store, study.study, jobOf(study, server));
    assert.deepEqual([estimate.calls, estimate.prompts], [14, 7]);
    assert.deepEqual(estimate.counting, { kind: 'encoding', encoding: 'o200k_base' });
    assert.equal(estimate.outputBasis, 'max_tokens');
    assert.equal(estimate.outputTokens, 14 * 64);
    assert.equal(server.requests(), 10, 'estimating sends nothing');
    // At batch prices (none given for the batch): half.
    const batch = await estimateJudgeJob(study.store, study.study, jobOf(study, server, { mode: 'batch' }));
    assert.equal(batch.priceKind, 'batch');
    assert.ok(Math.abs(batch.cost! - estimate.cost! / 2) < 1e-12);

    billed.length = 0;
    const report = await run();
    assert.equal(server.requests(), 24);
    assert.equal(report.requests, 14);
    const sum = (pick: (b: (typeof billed)[number]) => number) => billed.reduce((n, b) => n + pick(b), 0);
    // Input: exactly what the server counted; output: at most max_tokens a call.
    assert.equal(
      estimate.inputTokens,
      sum((b) => b.messages),
    );
    assert.equal(
      estimate.formatTokens,
      sum((b) => b.schema),
    );
    assert.ok(sum((b) => b.output) <= estimate.outputTokens);
    assert.ok(estimate.cost !== undefined && report.cost <= estimate.cost + 1e-12, `${report.cost} ≤ ${estimate.cost}`);

    // Everything answered: the estimate of a finished job is nothing.
    const after = await estimateJudgeJob(study.store, study.study, jobOf(study, server));
    assert.deepEqual([after.calls, after.inputTokens, after.cost], [0, 0, 0]);
  });

for (const kind of storeKinds)
  test(`a budget below the estimate, or a budget without a price, sends nothing and says why (${kind})`, async (t) => {
    const study = await labellingStudy(
      { ...documentsWithText(2, 3), extra: `  judge "${model}" { max_tokens 100  votes 3 }` },
      kind,
    );
    t.after(() => study.close());
    const server = await startOpenAiServer({ respond: () => ({ content: answer(0) }) });
    t.after(() => server.close());
    const estimate = await estimateJudgeJob(study.store, study.study, jobOf(study, server));
    assert.equal(estimate.calls, 18);
    const budget = estimate.cost! * 0.9;
    await assert.rejects(
      budgetedJob(study.store, study.study, jobOf(study, server), budget),
      (error: Error) =>
        error instanceof BudgetRefusal &&
        error.message.includes(
          `estimated cost ${formatCost(estimate.cost!)} is over the budget ${formatCost(budget)}`,
        ) &&
        error.message.includes('18 calls') &&
        error.message.includes('nothing was sent'),
    );
    await assert.rejects(
      budgetedJob(study.store, study.study, jobOf(study, server, { prices: {} }), 100),
      (error: Error) =>
        error instanceof BudgetRefusal &&
        /judge 'gpt-4o-mini' has a budget of \$100\.00 but no price/.test(error.message) &&
        error.message.includes('--price gpt-4o-mini=INPUT,OUTPUT'),
    );
    // Within it: a guard for the run, and still nothing sent.
    const within = await budgetedJob(study.store, study.study, jobOf(study, server), estimate.cost! * 1.01);
    assert.equal(within.estimate.calls, 18);
    assert.equal(server.requests(), 0);
  });

for (const kind of storeKinds)
  test(`an online run stops at its budget: spent + in flight never passes it, and every call paid for is recorded (${kind})`, async (t) => {
    const study = await labellingStudy(
      { ...documentsWithText(4, 10), extra: `  judge "${model}" { temperature 0  max_tokens 50 }` },
      kind,
    );
    t.after(() => study.close());
    const job = jobOf(study, { baseURL: '' } as OpenAiServer);
    let guard: Awaited<ReturnType<typeof budgetedJob>>['budget'] | undefined;
    let amount = 0;
    const overruns: string[] = [];
    const server = await startOpenAiServer({
      respond: ({ body }) => {
        const state = guard!.state();
        if (state.spent + state.inFlight > amount + 1e-12) overruns.push(`${state.spent} + ${state.inFlight}`);
        const input = billedInput(body);
        // The model uses all its max_tokens: what is spent is what was estimated.
        return {
          content: answer(2),
          latencyMs: 15,
          usage: { prompt_tokens: input.messages + input.schema, completion_tokens: 50 },
        };
      },
    });
    t.after(() => server.close());
    job.endpoint = server.baseURL;
    const estimate = await estimateJudgeJob(study.store, study.study, job);
    assert.equal(estimate.calls, 40);
    amount = estimate.cost! * 0.3;
    // The run's own check comes first: the whole job is over this budget.
    await assert.rejects(budgetedJob(study.store, study.study, job, amount), BudgetRefusal);
    // So the guard is made as budgetedJob makes it, to see the stop (a run started within its budget stops only
    // when the model answers longer than estimated — with max_tokens it cannot).
    const { OnlineBudget } = await import('../../../../core/judge/budget/onlineBudget.ts');
    const { tokenCounter } = await import('../../../../core/judge/budget/tokenCount.ts');
    guard = new OnlineBudget({ amount, model, price: prices[model]!, counter: await tokenCounter(model) });
    const progress: { spent: number; inFlight: number }[] = [];
    const report = await judgeStudy(study.store, study.study, {
      concurrency: 6,
      client: clientFor(server),
      prompt,
      prices,
      budget: guard,
      onProgress: (p) => progress.push(p.budget!),
    });
    assert.deepEqual(overruns, []);
    for (const p of progress) assert.ok(p.spent + p.inFlight <= amount + 1e-12, `${p.spent} + ${p.inFlight}`);
    const requests = server.requests();
    assert.ok(server.maxInFlight() > 1, 'calls ran concurrently');
    assert.ok(requests >= 10 && requests <= 14, `about 30 % of 40 calls: ${requests}`);
    assert.equal(report.stoppedAtBudget, 40 - requests);
    assert.equal(report.requests, requests);
    // Nothing paid for is lost: each request the server answered is on record with its cost, within the budget.
    const calls = await study.store.judge.calls(study.studyId);
    assert.equal(calls.length, requests);
    const recorded = calls.reduce((n, c) => n + (c.cost ?? Number.NaN), 0);
    assert.ok(recorded <= amount + 1e-12, `${recorded} ≤ ${amount}`);
    assert.ok(Math.abs(recorded - guard.state().spent) < 1e-12);
    assert.deepEqual([guard.state().inFlight, report.suggestions], [0, requests]);

    // A larger budget finishes the job, asking only what is missing.
    const rest = await budgetedJob(study.store, study.study, job, estimate.cost!);
    assert.equal(rest.estimate.calls, 40 - requests);
    guard = rest.budget;
    amount = estimate.cost!;
    const second = await judgeStudy(study.store, study.study, {
      concurrency: 6,
      client: clientFor(server),
      prompt,
      prices,
      budget: rest.budget,
    });
    assert.deepEqual([second.requests, second.cached, second.stoppedAtBudget], [40 - requests, requests, 0]);
    assert.equal(server.requests(), 40);
  });

for (const kind of storeKinds)
  test(`a run started within its budget stops when answers run longer than estimated (no max_tokens) (${kind})`, async (t) => {
    const study = await labellingStudy(
      { ...documentsWithText(2, 10), extra: `  judge "${model}" { temperature 0 }` },
      kind,
    );
    t.after(() => study.close());
    const concurrency = 4;
    const server = await startOpenAiServer({
      respond: ({ body }) => {
        const input = billedInput(body);
        // Far longer than the schema's answer with its 150-token rationale.
        return {
          content: answer(1),
          latencyMs: 10,
          usage: { prompt_tokens: input.messages + input.schema, completion_tokens: 1_000 },
        };
      },
    });
    t.after(() => server.close());
    const job = jobOf(study, server);
    const estimate = await estimateJudgeJob(study.store, study.study, job);
    assert.equal(estimate.outputBasis, 'schema');
    const amount = estimate.cost!;
    const checked = await budgetedJob(study.store, study.study, job, amount);
    const report = await judgeStudy(study.store, study.study, {
      concurrency,
      client: clientFor(server),
      prompt,
      prices,
      budget: checked.budget,
    });
    const requests = server.requests();
    assert.ok(report.stoppedAtBudget! > 0, 'stopped before the 20 calls');
    assert.equal(report.stoppedAtBudget, 20 - requests);
    const calls = await study.store.judge.calls(study.studyId);
    assert.equal(calls.length, requests, 'every answered call is on record');
    // Past the budget at most by what the calls in flight overran their estimates.
    const spent = calls.reduce((n, c) => n + c.cost!, 0);
    const perCall = Math.max(...calls.map((c) => c.cost!));
    assert.ok(spent <= amount + concurrency * perCall, `${spent} ≤ ${amount} + ${concurrency} × ${perCall}`);
    assert.ok(Math.abs(spent - checked.budget.state().spent) < 1e-12);
  });

for (const kind of storeKinds)
  test(`a batch estimate and an online one leave out the votes an open batch holds: neither run sends them (${kind})`, async (t) => {
    const study = await labellingStudy(
      { ...documentsWithText(2, 3), extra: `  judge "${model}" { max_tokens 40  votes 2 }` },
      kind,
    );
    t.after(() => study.close());
    const endpoint = 'https://api.openai.com/v1';
    const job = { ...jobOf(study, { baseURL: endpoint } as OpenAiServer), mode: 'batch' as const };
    const { setup } = job;
    // The first pair's votes, held by a batch recorded (as a submit records it) and not yet closed.
    let first: PendingPair | undefined;
    for await (const pair of pendingVotes(study.store, study.study, { setup, prompt, endpoint, limit: 1 }))
      first = pair;
    const parametersOf = voteParametersOf(setup);
    const requests = [0, 1].map((voteIndex) => {
      const parameters = parametersOf(setup.shapeOf([]), voteIndex);
      const promptHash = sha256(first!.prompt);
      return {
        customId: `p${first!.pairId}-v${voteIndex}`,
        cacheKey: judgeCacheKey(voteCallRequest(setup, endpoint, parameters, promptHash, voteIndex)),
        pairId: first!.pairId,
        voteIndex,
        promptHash,
        parameters: parameters.json,
      };
    });
    const annotator = judgeAnnotatorName(model, prompt.hash);
    await study.store.judge.judgeAnnotator(annotator);
    await study.store.judgeBatches.recordBatch({
      batchKey: 'held',
      studyId: study.studyId,
      judge: annotator,
      endpoint,
      model,
      promptTemplateHash: prompt.hash,
      inputSha256: '0'.repeat(64),
      inputBytes: 1,
      createdAt: new Date(0).toISOString(),
      requests,
    });
    const batch = await estimateJudgeJob(study.store, study.study, job);
    const online = await estimateJudgeJob(study.store, study.study, { ...job, mode: 'online' });
    assert.deepEqual([batch.calls, online.calls], [10, 10]);
  });
