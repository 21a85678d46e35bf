// The Batch API judge run end to end on a real study record (SQLite and PostgreSQL), through the real `openai` SDK
// against the local Files + Batches server (../openAiBatchServer.ts) the test starts: submit writes, records, uploads
// and creates; status follows the batch and, once it has finished, records every line as a call exactly as an online
// call is (labels, parse failures with their raw text, tokens, cost at batch prices) and writes the suggestions;
// the cache rule holds both ways with online runs; large jobs split within the limits; failed and expired lines are
// retried in a batch or online; cancel cancels.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type TestContext, test } from 'node:test';
import { createBatchApi, inputFileName } from '../../../../core/judge/batch/batchApi.ts';
import { unrecordedInputFileAge } from '../../../../core/judge/batch/batchInputFiles.ts';
import type { BatchRunOptions } from '../../../../core/judge/batch/batchRun.ts';
import { cancelBatches, pairsToRetry, refreshBatches } from '../../../../core/judge/batch/batchStatus.ts';
import { submitBatches } from '../../../../core/judge/batch/batchSubmit.ts';
import { estimateJudgeJob } from '../../../../core/judge/budget/jobEstimate.ts';
import { createChatClient } from '../../../../core/judge/chatClient.ts';
import { normaliseEndpoint } from '../../../../core/judge/endpointApproval.ts';
import { judgeSetup } from '../../../../core/judge/judgeSetup.ts';
import { type JudgeProgress, judgeStudy } from '../../../../core/judge/judgeStudy.ts';
import { promptTemplate } from '../../../../core/judge/promptTemplate.ts';
import { type StoreKind, storeKinds } from '../../../storeKinds.ts';
import {
  type LabellingStudy,
  type LabellingStudyOptions,
  labellingStudy,
  plainStudy,
} from '../../labelling/labellingStudy.ts';
import { type BatchLineAnswer, type OpenAiBatchServer, startOpenAiBatchServer } from '../openAiBatchServer.ts';
import type { ChatBody } from '../openAiServer.ts';

const promptText = `Judge the document for the query.
Query: {{query}}
Document: {{document}}
Grades:
{{scale}}
Answer with a JSON object: {"rationale": "…", "label": N}.
`;
const prompt = { ...promptTemplate('prompts/judge.md', promptText), output: 'label' as const };

/** The document a request is about ("document D for query Q"). */
function pairOf(body: ChatBody): { q: number; d: number } {
  const match = /Document: document (\d+) for query (\d+)/.exec(body.messages?.[0]?.content ?? '');
  assert.ok(match, `a prompt names its document: ${body.messages?.[0]?.content}`);
  return { d: Number(match[1]), q: Number(match[2]) };
}

const answer = (label: unknown) => JSON.stringify({ rationale: 'said so', label });
const usage = { prompt_tokens: 1000, completion_tokens: 100, total_tokens: 1100 };

function optionsFor(study: LabellingStudy, server: OpenAiBatchServer, more: Partial<BatchRunOptions> = {}) {
  return {
    prompt,
    api: createBatchApi({ baseURL: server.baseURL, apiKey: 'sk-test-0123456789' }),
    folder: join(study.folder, '.qrels-studio', 'batches'),
    prices: { 'judge-b': { inputPerMillion: 2, outputPerMillion: 8 } },
    ...more,
  } satisfies BatchRunOptions;
}

async function finishAll(server: OpenAiBatchServer) {
  for (const batch of server.batches()) await server.finish(batch.id);
}

/**
 * A study with judge "judge-b" (by default one query and three documents), and a batch server (finished by hand)
 * answering each line by its document; both closed after the test.
 */
async function judgeBStudy(
  t: TestContext,
  kind: StoreKind,
  spec: LabellingStudyOptions = { ...plainStudy(1, 3), extra: '  judge "judge-b" {}' },
) {
  const study = await labellingStudy(spec, kind);
  const server = await startOpenAiBatchServer({
    progress: 'manual',
    respondLine: ({ body }) => ({ content: answer(pairOf(body).d % 3) }),
  });
  t.after(async () => {
    await server.close();
    await study.close();
  });
  return { study, server, options: optionsFor(study, server) };
}

for (const kind of storeKinds) {
  test(`a batch round trip: submitted, followed, recorded as online calls at half price, suggestions written; online then asks nothing (${kind})`, async (t) => {
    const study = await labellingStudy(
      { ...plainStudy(2, 3), extra: '  judge "judge-b" { votes 2  seed 5  temperature 0.5  max_tokens 50 }' },
      kind,
    );
    const server = await startOpenAiBatchServer({
      progress: 'manual',
      respondLine: ({ body }) => ({ content: answer(pairOf(body).d % 3), usage }),
    });
    t.after(async () => {
      await server.close();
      await study.close();
    });
    const options = optionsFor(study, server);
    const submitted = await submitBatches(study.store, study.study, options);
    assert.equal(submitted.votes, 12);
    assert.equal(submitted.batches.length, 1);
    assert.equal(submitted.batches[0]!.requests, 12);
    const [apiBatch] = server.batches();
    assert.equal(submitted.batches[0]!.batchId, apiBatch!.id);
    assert.equal(apiBatch!.completion_window, '24h');
    assert.equal(apiBatch!.metadata?.qrels_studio_batch, submitted.batches[0]!.batchKey);
    // Recorded at once: the file id and batch id are in the record before the batch has done anything.
    const [recorded] = await study.store.judgeBatches.batches(study.studyId);
    assert.equal(recorded!.batchId, apiBatch!.id);
    assert.equal(recorded!.inputFileId, apiBatch!.input_file_id);
    assert.equal(recorded!.requests, 12);
    assert.deepEqual(recorded!.prices, { inputPerMillion: 1, outputPerMillion: 4 });

    // Not finished yet: status records nothing.
    await server.advance(apiBatch!.id);
    const early = await refreshBatches(study.store, study.study, options);
    assert.equal(early.open, 1);
    assert.equal(early.batches[0]!.batch.status, 'in_progress');
    assert.equal((await study.store.judge.calls(study.studyId)).length, 0);

    await finishAll(server);
    const done = await refreshBatches(study.store, study.study, options);
    assert.equal(done.open, 0);
    assert.equal(done.batches[0]!.batch.status, 'completed');
    assert.deepEqual(done.batches[0]!.batch.counts, { total: 12, completed: 12, failed: 0 });
    assert.equal(done.batches[0]!.recordedNow!.recorded, 12);
    assert.equal(done.batches[0]!.recordedNow!.suggestions, 6);
    const calls = await study.store.judge.calls(study.studyId);
    assert.equal(calls.length, 12);
    for (const call of calls) {
      assert.equal(call.parsedLabel, Number(call.docid!.split('-')[1]) % 3);
      assert.equal(call.inputTokens, 1000);
      assert.equal(call.outputTokens, 100);
      // Batch prices: half of $2 / $8 per million.
      assert.ok(Math.abs(call.cost! - (1000 * 1 + 100 * 4) / 1e6) < 1e-12);
      assert.equal(call.judge, submitted.judge);
    }
    const seeds = new Set(calls.map((c) => JSON.parse(c.parameters).seed));
    assert.deepEqual([...seeds].sort(), [5, 6]);
    const suggestions = await study.store.judge.suggestions(study.studyId, submitted.judge);
    assert.equal(suggestions.length, 6);
    for (const s of suggestions) {
      assert.equal(s.label, Number(s.docid.split('-')[1]) % 3);
      assert.equal(s.confidence, 1);
      assert.equal(s.votes.length, 2);
    }

    // A second look records nothing again; a second submit asks nothing; an online run is served from the cache.
    const again = await refreshBatches(study.store, study.study, options);
    assert.equal(again.batches[0]!.recordedNow, undefined);
    const resubmitted = await submitBatches(study.store, study.study, options);
    assert.equal(resubmitted.cached, 12);
    assert.equal(resubmitted.batches.length, 0);
    const online = await judgeStudy(study.store, study.study, {
      concurrency: 2,
      client: createChatClient({ baseURL: server.baseURL, apiKey: 'sk-test-0123456789', maxAttempts: 1 }),
      prompt,
      prices: {},
    });
    assert.equal(online.cached, 12);
    assert.equal(server.requests(), 0);
    assert.equal(server.routeCounts().get('batches.create'), 1);
    assert.equal(server.routeCounts().get('files.create'), 1);
  });

  test(`an online run leaves out the votes an open batch holds, counts them, and its estimate matches what it sends (${kind})`, async (t) => {
    const study = await labellingStudy(
      { ...plainStudy(2, 3), extra: '  judge "judge-b" { votes 2  seed 5  temperature 0.5  max_tokens 50 }' },
      kind,
    );
    const server = await startOpenAiBatchServer({
      progress: 'manual',
      respond: ({ body }) => ({ content: answer(pairOf(body).d % 3), usage }),
      respondLine: ({ body }) => ({ content: answer(pairOf(body).d % 3), usage }),
    });
    t.after(async () => {
      await server.close();
      await study.close();
    });
    const options = optionsFor(study, server);
    // Open batches: both votes of the first two pairs, and only the first vote of the third (the same judge with one
    // vote per pair: a vote's cache key does not depend on how many votes a pair has).
    const [judgeModel] = study.study.judges;
    const oneVote = { ...study.study, judges: [{ ...judgeModel!, votes: 1 }] };
    await submitBatches(study.store, study.study, { ...options, limit: 2 });
    const third = await submitBatches(study.store, oneVote, { ...options, limit: 3 });
    assert.deepEqual(
      [third.inOpenBatches, third.batches[0]!.requests],
      [2, 1],
      "the second batch holds only the third pair's first vote",
    );
    assert.equal(server.batches().length, 2);

    const setup = judgeSetup(study.study, { prompt });
    const estimate = await estimateJudgeJob(study.store, study.study, {
      setup,
      prompt,
      endpoint: normaliseEndpoint(server.baseURL),
      prices: options.prices,
      mode: 'online',
    });
    const progress: JudgeProgress[] = [];
    const online = await judgeStudy(study.store, study.study, {
      concurrency: 2,
      client: createChatClient({ baseURL: server.baseURL, apiKey: 'sk-test-0123456789', maxAttempts: 1 }),
      prompt,
      prices: {},
      onProgress: (p) => progress.push(p),
    });
    // 6 pairs × 2 votes, 5 held: 7 asked, and the estimate counted exactly those.
    assert.equal(online.inOpenBatches, 5);
    assert.equal(online.total, 7);
    assert.equal(online.done, 7);
    assert.equal(online.requests, 7);
    assert.equal(server.requests(), 7);
    assert.equal(estimate.calls, 7);
    assert.equal(online.notStarted, 0);
    assert.equal(progress.at(-1)!.inOpenBatches, 5);
    // Suggestions of the pairs with every vote answered here; the others wait for their batch.
    assert.equal(online.suggestions, 3);
    const calls = await study.store.judge.calls(study.studyId);
    assert.equal(calls.length, 7);

    // The batches finish: their lines are recorded and every pair has its suggestion from both votes.
    await finishAll(server);
    const done = await refreshBatches(study.store, study.study, options);
    assert.equal(done.open, 0);
    const suggestions = await study.store.judge.suggestions(study.studyId, online.judge);
    assert.equal(suggestions.length, 6);
    for (const s of suggestions) assert.equal(s.votes.length, 2);
    assert.equal((await study.store.judge.calls(study.studyId)).length, 12);
    // Nothing is left to ask, and nothing is held any more.
    const again = await judgeStudy(study.store, study.study, {
      concurrency: 2,
      client: createChatClient({ baseURL: server.baseURL, apiKey: 'sk-test-0123456789', maxAttempts: 1 }),
      prompt,
      prices: {},
    });
    assert.deepEqual([again.cached, again.requests, again.inOpenBatches], [12, 0, undefined]);
  });

  test(`online answers are not asked in a batch; a batch line's body is what the online call sends (${kind})`, async (t) => {
    const study = await labellingStudy(
      { ...plainStudy(1, 4), extra: '  judge "judge-b" { seed 3  max_tokens 20 }' },
      kind,
    );
    const seen: ChatBody[] = [];
    // One server answers both: /v1/chat/completions online, /v1/files + /v1/batches for the batch.
    const server = await startOpenAiBatchServer({
      progress: 'manual',
      respond: ({ body }) => ({ content: answer(pairOf(body).d % 3) }),
      respondLine: ({ body }) => {
        seen.push(body);
        return { content: answer(pairOf(body).d % 3) };
      },
    });
    t.after(async () => {
      await server.close();
      await study.close();
    });
    const client = createChatClient({ baseURL: server.baseURL, apiKey: 'sk-test-0123456789', maxAttempts: 1 });
    await judgeStudy(study.store, study.study, { concurrency: 1, client, prompt, prices: {}, limit: 2 });
    const onlineBodies = server.bodies();
    assert.equal(onlineBodies.length, 2);
    const submitted = await submitBatches(study.store, study.study, optionsFor(study, server));
    assert.equal(submitted.votes, 4);
    assert.equal(submitted.cached, 2);
    assert.equal(submitted.batches[0]!.requests, 2);
    await finishAll(server);
    assert.equal(seen.length, 2);
    assert.deepEqual(seen.map((b) => pairOf(b).d).sort(), [3, 4]);
    // The same fields in the same order, the same values but for the prompt.
    for (const body of seen) {
      const { messages: _m, ...rest } = body;
      const { messages: _o, ...online } = onlineBodies[0]!;
      assert.deepEqual(Object.keys(body), Object.keys(onlineBodies[0]!));
      assert.deepEqual(rest, online);
    }
    await refreshBatches(study.store, study.study, optionsFor(study, server));
    assert.equal((await study.store.judge.suggestions(study.studyId, submitted.judge)).length, 4);
  });

  test(`a job splits within the limits (requests and bytes); a vote held by an open batch is not put in another (${kind})`, async (t) => {
    const { study, server } = await judgeBStudy(t, kind, {
      ...plainStudy(3, 4),
      extra: '  judge "judge-b" { votes 2 }',
    });
    const byCount = await submitBatches(study.store, study.study, {
      ...optionsFor(study, server),
      limits: { maxRequests: 5, maxBytes: 10_000_000 },
      limit: 6,
    });
    assert.deepEqual(
      byCount.batches.map((b) => b.requests),
      [5, 5, 2],
    );
    // The same pairs again while their batches are open: nothing new; the other pairs split by bytes, two lines
    // (of about the same size) to a file.
    const [firstFile] = server.files().filter((f) => f.purpose === 'batch');
    const maxBytes = Math.floor((firstFile!.bytes / 5) * 2.5);
    const bySize = await submitBatches(study.store, study.study, {
      ...optionsFor(study, server),
      limits: { maxRequests: 50_000, maxBytes },
    });
    assert.equal(bySize.inOpenBatches, 12);
    assert.equal(bySize.votes, 24);
    assert.deepEqual(
      bySize.batches.map((b) => b.requests),
      [2, 2, 2, 2, 2, 2],
    );
    for (const file of server
      .files()
      .filter((f) => f.purpose === 'batch')
      .slice(3)) {
      assert.ok(file.bytes <= maxBytes, `${file.filename}: ${file.bytes} bytes > ${maxBytes}`);
    }
    assert.equal(server.batches().length, 3 + bySize.batches.length);
    await finishAll(server);
    // Every vote in one batch only: 12 pairs × 2 votes, each custom id once over all batches.
    const all = server.batches().flatMap((b) => server.customIds(b.id));
    assert.equal(all.length, 24);
    assert.equal(new Set(all).size, 24);
    const status = await refreshBatches(study.store, study.study, optionsFor(study, server));
    assert.equal(status.open, 0);
    assert.equal((await study.store.judge.suggestions(study.studyId, status.judge)).length, 12);
  });

  test(`answers off the scale and malformed JSON are failures with their raw text; failed and expired lines are retried in a batch or online (${kind})`, async (t) => {
    const study = await labellingStudy({ ...plainStudy(1, 6), extra: '  judge "judge-b" {}' }, kind);
    let retried = false;
    const firstTime: Record<number, BatchLineAnswer> = {
      1: { content: answer(2) },
      2: { content: answer(7) },
      3: { content: '{"rationale": "cut off' },
      4: { status: 500, message: 'the model fell over' },
      5: { expired: true },
      6: { rawLine: 'this is not JSON' },
    };
    const server = await startOpenAiBatchServer({
      progress: 'manual',
      respond: ({ body }) => ({ content: answer(pairOf(body).d % 3) }),
      respondLine: ({ body }) => {
        const d = pairOf(body).d;
        if (!retried) return firstTime[d]!;
        return d === 6 ? { expired: true } : { content: answer(1) };
      },
    });
    t.after(async () => {
      await server.close();
      await study.close();
    });
    const options = optionsFor(study, server);
    const submitted = await submitBatches(study.store, study.study, options);
    await finishAll(server);
    const status = await refreshBatches(study.store, study.study, options);
    assert.equal(status.batches[0]!.batch.status, 'expired');
    const recorded = status.batches[0]!.recordedNow!;
    assert.deepEqual(
      { answered: recorded.answered, unparsed: recorded.unparsed, failed: recorded.failed, stray: recorded.strayLines },
      { answered: 1, unparsed: 2, failed: 3, stray: 1 },
    );
    const calls = await study.store.judge.calls(study.studyId);
    const of = (d: number) => calls.find((c) => c.docid === `d1-${d}`)!;
    assert.equal(of(1).parsedLabel, 2);
    assert.equal(of(2).parsedLabel, null);
    assert.equal(of(2).errorKind, 'parse');
    assert.equal(of(2).rawOutput, answer(7));
    assert.equal(of(3).errorKind, 'parse');
    assert.equal(of(3).rawOutput, '{"rationale": "cut off');
    assert.equal(of(4).errorKind, 'server');
    assert.match(of(4).error!, /fell over/);
    assert.equal(of(5).errorKind, 'timeout');
    assert.equal(of(5).attempts, 0);
    // The broken line names no request: its request is recorded as one the batch gave no line for.
    assert.equal(of(6).errorKind, 'timeout');
    const suggestions = await study.store.judge.suggestions(study.studyId, submitted.judge);
    assert.deepEqual(
      suggestions.map((s) => [s.docid, s.label]),
      [
        ['d1-1', 2],
        ['d1-2', null],
        ['d1-3', null],
      ],
    );

    // Retry in a batch: only the votes that got no answer (4, 5, 6); parse failures were answers. 6 expires again.
    assert.equal((await pairsToRetry(study.store, study.studyId, submitted.judge)).size, 3);
    retried = true;
    const retry = await submitBatches(study.store, study.study, {
      ...options,
      pairIds: await pairsToRetry(study.store, study.studyId, submitted.judge),
    });
    assert.equal(retry.batches.length, 1);
    assert.equal(retry.batches[0]!.requests, 3);
    await finishAll(server);
    await refreshBatches(study.store, study.study, options);
    // Then online: the one left.
    const left = await pairsToRetry(study.store, study.studyId, submitted.judge);
    assert.deepEqual([...left], [study.pairId('q1', 'd1-6')]);
    const online = await judgeStudy(study.store, study.study, {
      concurrency: 1,
      client: createChatClient({ baseURL: server.baseURL, apiKey: 'sk-test-0123456789', maxAttempts: 1 }),
      prompt,
      prices: {},
      pairIds: left,
    });
    assert.equal(online.requests, 1);
    assert.equal(server.requests(), 1);
    assert.equal((await pairsToRetry(study.store, study.studyId, submitted.judge)).size, 0);
    assert.equal((await study.store.judge.suggestions(study.studyId, submitted.judge)).length, 6);
  });

  test(`cancel cancels the open batches; their lines are recorded as cancelled and asked again by the next run (${kind})`, async (t) => {
    const study = await labellingStudy({ ...plainStudy(1, 3), extra: '  judge "judge-b" {}' }, kind);
    const server = await startOpenAiBatchServer({ progress: 'manual' });
    t.after(async () => {
      await server.close();
      await study.close();
    });
    const options = optionsFor(study, server);
    const submitted = await submitBatches(study.store, study.study, options);
    const cancelled = await cancelBatches(study.store, study.study, options);
    assert.equal(cancelled.cancelled.length, 1);
    assert.equal(server.routeCounts().get('batches.cancel'), 1);
    await finishAll(server);
    const status = await refreshBatches(study.store, study.study, options);
    assert.equal(status.batches[0]!.batch.status, 'cancelled');
    const calls = await study.store.judge.calls(study.studyId);
    assert.equal(calls.length, 3);
    assert.ok(calls.every((c) => c.errorKind === 'cancelled'));
    // Nothing open to cancel now; the next --batch asks the three votes again.
    assert.equal((await cancelBatches(study.store, study.study, options)).cancelled.length, 0);
    const again = await submitBatches(study.store, study.study, options);
    assert.equal(again.batches[0]!.requests, 3);
    assert.notEqual(again.batches[0]!.batchKey, submitted.batches[0]!.batchKey);
    // A changed prompt is another judge: the first judge's open batch is named, not followed.
    const changed = { ...promptTemplate('prompts/other.md', `${promptText}Be strict.\n`), output: 'label' as const };
    const other = await refreshBatches(study.store, study.study, { ...options, prompt: changed });
    assert.deepEqual(other.batches, []);
    assert.deepEqual(other.otherJudges, [{ judge: submitted.judge, open: 1 }]);
  });

  test(`a run stopped after the upload, or after the batch was created, is picked up: the file and the batch are found by their key, never made twice (${kind})`, async (t) => {
    const { study, server, options } = await judgeBStudy(t, kind);
    const stopped = new Error('stopped here');
    // Uploaded, then stopped before the file id was recorded.
    await assert.rejects(
      submitBatches(study.store, study.study, {
        ...options,
        api: {
          ...options.api,
          upload: async (path, name) => {
            await options.api.upload(path, name);
            throw stopped;
          },
        },
      }),
      stopped,
    );
    let [batch] = await study.store.judgeBatches.batches(study.studyId);
    assert.equal(batch!.status, 'prepared');
    assert.equal(batch!.inputFileId, null);
    // The run that picks it up creates the batch, then stops before recording its id.
    await assert.rejects(
      submitBatches(study.store, study.study, {
        ...options,
        api: {
          ...options.api,
          create: async (fileId, key) => {
            await options.api.create(fileId, key);
            throw stopped;
          },
        },
      }),
      stopped,
    );
    [batch] = await study.store.judgeBatches.batches(study.studyId);
    assert.notEqual(batch!.inputFileId, null);
    assert.equal(batch!.batchId, null);
    assert.equal(server.routeCounts().get('files.create'), 1, 'the uploaded file was found, not uploaded again');
    // And the next run finds the batch by its metadata.
    const resumed = await submitBatches(study.store, study.study, options);
    assert.equal(resumed.batches.length, 1);
    assert.equal(resumed.batches[0]!.resumed, true);
    assert.equal(resumed.inOpenBatches, 3);
    assert.equal(server.routeCounts().get('batches.create'), 1);
    assert.equal(server.batches().length, 1);
    [batch] = await study.store.judgeBatches.batches(study.studyId);
    assert.equal(batch!.batchId, server.batches()[0]!.id);
    await finishAll(server);
    const status = await refreshBatches(study.store, study.study, options);
    assert.equal(status.batches[0]!.recordedNow!.recorded, 3);
    // A recorded batch whose input never left this machine, and whose file is gone, is forgotten and asked anew.
    const lost = await study.store.judgeBatches.recordBatch({
      batchKey: 'lost-key',
      studyId: study.studyId,
      judge: status.judge,
      endpoint: 'http://nowhere/v1',
      model: 'judge-b',
      promptTemplateHash: prompt.hash,
      inputSha256: 'f'.repeat(64),
      inputBytes: 10,
      createdAt: new Date().toISOString(),
      requests: [],
    });
    const after = await submitBatches(study.store, study.study, options);
    assert.match(after.batches.find((b) => b.id === lost)!.reason!, /gone or changed and was never uploaded/);
    assert.equal((await study.store.judgeBatches.batches(study.studyId)).length, 1);
  });

  test(`an input file is kept while its batch may still be uploaded from it, and removed once the batch id is on record; leftovers are swept (${kind})`, async (t) => {
    const { study, server, options } = await judgeBStudy(t, kind);
    const files = () => readdirSync(options.folder).sort();
    const stopped = new Error('stopped here');
    const stopBeforeUpload = { ...options, api: { ...options.api, upload: async () => Promise.reject(stopped) } };
    // Stopped before the upload: the batch is recorded, its input only here — kept, by a status run too.
    await assert.rejects(submitBatches(study.store, study.study, stopBeforeUpload), stopped);
    const [prepared] = await study.store.judgeBatches.batches(study.studyId);
    const preparedFile = inputFileName(prepared!.batchKey);
    assert.deepEqual(files(), [preparedFile]);
    await assert.rejects(refreshBatches(study.store, study.study, stopBeforeUpload), stopped);
    assert.deepEqual(files(), [preparedFile], 'kept: the batch may still be uploaded from it');
    // The next run uploads it and creates the batch: the copy goes as the batch id is recorded.
    const resumed = await submitBatches(study.store, study.study, options);
    assert.equal(resumed.batches[0]!.batchId, server.batches()[0]!.id);
    assert.deepEqual(files(), []);

    // What kills leave: the input of a created batch (killed between recording its id and deleting the copy), an
    // old file no batch records (written just before a kill), and a fresh one (another run may be writing it).
    writeFileSync(join(options.folder, preparedFile), 'a leftover copy\n');
    const old = inputFileName('never-recorded-old');
    const fresh = inputFileName('never-recorded-fresh');
    writeFileSync(join(options.folder, old), '{}\n');
    writeFileSync(join(options.folder, fresh), '{}\n');
    writeFileSync(join(options.folder, 'notes.txt'), 'not ours\n');
    const longAgo = (Date.now() - unrecordedInputFileAge - 60_000) / 1000;
    utimesSync(join(options.folder, old), longAgo, longAgo);
    await refreshBatches(study.store, study.study, options);
    assert.deepEqual(files(), [fresh, 'notes.txt'].sort());
    // The batch is still followed from the API (no local copy needed) and records every line.
    await finishAll(server);
    const status = await refreshBatches(study.store, study.study, options);
    assert.equal(status.batches[0]!.recordedNow!.recorded, 3);
    assert.equal(server.routeCounts().get('batches.create'), 1);

    // Cancelling a batch never uploaded forgets it and its copy.
    const cancelStudy = await labellingStudy({ ...plainStudy(1, 2), extra: '  judge "judge-b" {}' }, kind);
    t.after(() => cancelStudy.close());
    const cancelOptions = optionsFor(cancelStudy, server);
    await assert.rejects(
      submitBatches(cancelStudy.store, cancelStudy.study, { ...cancelOptions, api: stopBeforeUpload.api }),
      stopped,
    );
    const [unsent] = await cancelStudy.store.judgeBatches.batches(cancelStudy.studyId);
    const unsentPath = join(cancelOptions.folder, inputFileName(unsent!.batchKey));
    assert.ok(existsSync(unsentPath));
    const cancelled = await cancelBatches(cancelStudy.store, cancelStudy.study, cancelOptions);
    assert.equal(cancelled.forgotten, 1);
    assert.equal(existsSync(unsentPath), false);
  });
}
