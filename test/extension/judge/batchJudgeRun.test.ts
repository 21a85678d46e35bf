// "Run LLM judge" with the Batch API, without VS Code around it (extension/judge/batchJudgeRun.ts, on engineer A's
// core/judge/batch/), on a real study record (SQLite and PostgreSQL) through the real `openai` SDK against the
// Files and Batch APIs on 127.0.0.1 (test/core/judge/openAiBatchServer.ts): submit creates the batches and says so;
// status shows each batch's status and counts and records the finished ones (suggestions appear, a second submit
// sends nothing); cancel cancels the open ones; a budget the estimate at batch prices is over is refused before
// anything is uploaded.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { test } from 'node:test';
import { BudgetRefusal } from '../../../core/judge/budget/budgetGuard.ts';
import { createChatClient } from '../../../core/judge/chatClient.ts';
import { judgeAnnotatorName } from '../../../core/judge/judgeSetup.ts';
import { promptTemplate } from '../../../core/judge/promptTemplate.ts';
import {
  batchesOnRecord,
  batchInputFolder,
  batchStatusLines,
  cancelJudgeBatches,
  judgeBatchStatus,
  pairsLeftUnanswered,
  submitJudgeBatches,
  submitLines,
} from '../../../extension/judge/batchJudgeRun.ts';
import { type OnlineJudgeRun, onlineSummaryLine, runOnlineJudge } from '../../../extension/judge/onlineJudgeRun.ts';
import { type BatchLineAnswer, startOpenAiBatchServer } from '../../core/judge/openAiBatchServer.ts';
import { labellingStudy, plainStudy } from '../../core/labelling/labellingStudy.ts';
import { storeKinds } from '../../storeKinds.ts';

const prompt = {
  ...promptTemplate(
    'prompts/judge.md',
    'Query: {{query}}\nDocument: {{document}}\nGrades:\n{{scale}}\nAnswer {"rationale": "…", "label": N}.\n',
  ),
  output: 'label' as const,
};
const prices = { 'judge-b': { inputPerMillion: 2, outputPerMillion: 8 } };

async function batchStudy(
  kind: (typeof storeKinds)[number],
  judgeBlock: string,
  answer: (line: number) => BatchLineAnswer | undefined = () => undefined,
) {
  const study = await labellingStudy({ ...plainStudy(3, 4), extra: `  judge "judge-b" { ${judgeBlock} }` }, kind);
  const server = await startOpenAiBatchServer({
    progress: 'manual',
    // Its chat completions: what a retry online asks (the same endpoint, so the same cache keys as the batch lines).
    respond: () => ({
      content: JSON.stringify({ rationale: 'online', label: 2 }),
      usage: { prompt_tokens: 100, completion_tokens: 10 },
    }),
    respondLine: ({ line }) =>
      answer(line) ??
      (line === 2
        ? { content: 'not json at all' }
        : {
            content: JSON.stringify({ rationale: `line ${line}`, label: line % 3 }),
            usage: { prompt_tokens: 100, completion_tokens: 10 },
          }),
  });
  const run = {
    judge: study.study.judges[0]!,
    place: 1,
    endpoint: server.baseURL,
    apiKey: 'sk-test',
    prompt,
    prices,
    studyFolder: study.folder,
    limits: { maxRequests: 5, maxBytes: 1024 * 1024 },
  };
  return {
    study,
    server,
    run,
    /** The same judge run online against the same server (its chat completions), one attempt a call. */
    online: (more: Pick<OnlineJudgeRun, 'concurrency'> & Partial<OnlineJudgeRun>) =>
      runOnlineJudge(study.store, study.study, {
        judge: run.judge,
        place: 1,
        endpoint: server.baseURL,
        client: createChatClient({ baseURL: server.baseURL, apiKey: 'sk-test', maxAttempts: 1 }),
        prompt,
        prices,
        ...more,
      }),
    close: async () => {
      await server.close();
      await study.close();
    },
  };
}

for (const kind of storeKinds) {
  test(`submit, status with counts, the finished batches recorded; a second submit sends nothing (${kind})`, async () => {
    const { study, server, run, close } = await batchStudy(kind, 'mode batch  max_tokens 16');
    try {
      const judge = judgeAnnotatorName('judge-b', prompt.hash);
      const submitted = await submitJudgeBatches(study.store, study.study, run);
      // 12 votes, at most 5 requests a batch: 3 batches, each recorded with its API id.
      assert.equal(submitted.batches.length, 3);
      assert.deepEqual(
        submitted.batches.map((b) => b.requests),
        [5, 5, 2],
      );
      assert.ok(submitted.batches.every((b) => b.batchId?.startsWith('batch')));
      const [head, ...perBatch] = submitLines(submitted);
      assert.match(
        head!,
        /^judge llm:judge-b@\w{8}: 3 batches created with 12 requests \(0 answered already, 0 in open batches\)/,
      );
      assert.deepEqual(
        perBatch,
        submitted.batches.map((b) => `  ${b.batchId}: ${b.requests} requests`),
      );
      assert.equal(server.routeCounts().get('batches.create'), 3);
      assert.equal(server.requests(), 0, 'no chat request: everything went in batches');
      // Input files are gone once their batch exists.
      const inputs = batchInputFolder(study.folder);
      assert.deepEqual(existsSync(inputs) ? readdirSync(inputs) : [], []);
      assert.deepEqual(await batchesOnRecord(study.store, study.study, run.judge, prompt), {
        open: 3,
        toCollect: 0,
        unanswered: 0,
      });

      // Two batches finish at the API; the status looks at all three and records the two.
      const [a, b, c] = server.batches().map((x) => x.id);
      await server.finish(a!);
      await server.finish(b!);
      assert.deepEqual(await batchesOnRecord(study.store, study.study, run.judge, prompt), {
        open: 3,
        toCollect: 0,
        unanswered: 0,
      });
      const status = await judgeBatchStatus(study.store, study.study, run);
      assert.equal(status.open, 1);
      const lines = batchStatusLines(status);
      assert.equal(lines[0], `judge ${judge}: 3 batches, 1 open`);
      assert.equal(
        lines.filter((l) => /^ {2}batch\S+: completed · 5 of 5 done · recorded \(5 calls\)$/.test(l)).length,
        2,
      );
      assert.ok(
        lines.some((l) => new RegExp(`^ {2}${c}: (validating · 2 requests|in_progress · 0 of 2 done)$`).test(l)),
        lines.join('\n'),
      );
      // The first batch's line 2 was not JSON: recorded as a failure to parse, never a label.
      assert.equal(
        lines.filter((l) => /^ {4}recorded now: 5 calls \(4 answered, 1 unparsed, 0 failed\), \d+ suggestions$/.test(l))
          .length,
        2,
        lines.join('\n'),
      );
      const labelled = async () =>
        (await study.store.judge.suggestions(study.studyId, judge)).filter((s) => s.label !== null).length;
      assert.equal(await labelled(), 8);

      await server.finish(c!);
      const last = await judgeBatchStatus(study.store, study.study, run);
      assert.equal(last.open, 0);
      assert.deepEqual(await batchesOnRecord(study.store, study.study, run.judge, prompt), {
        open: 0,
        toCollect: 0,
        unanswered: 0,
      });
      assert.equal(await labelled(), 9, '12 pairs, one unparsed answer in each of the three batches');

      // Everything answered (the unparsed line included: it is a recorded call): nothing is sent again.
      const again = await submitJudgeBatches(study.store, study.study, run);
      assert.equal(again.batches.length, 0);
      assert.match(submitLines(again)[0]!, /nothing to send/);
      assert.equal(server.routeCounts().get('batches.create'), 3);
    } finally {
      await close();
    }
  });

  test(`cancel: the open batches are cancelled at the API, and the status says so (${kind})`, async () => {
    const { study, server, run, close } = await batchStudy(kind, 'mode batch  max_tokens 16');
    try {
      await submitJudgeBatches(study.store, study.study, run);
      const cancelled = await cancelJudgeBatches(study.store, study.study, run);
      assert.equal(cancelled.cancelled.length, 3);
      assert.equal(server.routeCounts().get('batches.cancel'), 3);
      for (const batch of server.batches()) await server.finish(batch.id);
      const status = await judgeBatchStatus(study.store, study.study, run);
      assert.equal(status.open, 0);
      assert.ok(
        batchStatusLines(status)
          .slice(1)
          .filter((l) => l.startsWith('  batch'))
          .every((l) => / cancelled /.test(l)),
        batchStatusLines(status).join('\n'),
      );
    } finally {
      await close();
    }
  });

  test(`a budget the estimate at batch prices is over: refused, nothing uploaded (${kind})`, async () => {
    // 12 calls × up to 4096 output tokens at half of $8 per million ≈ $0.197 > $0.05.
    const { study, server, run, close } = await batchStudy(kind, 'mode batch  max_tokens 4096  budget 0.05 USD');
    try {
      await assert.rejects(submitJudgeBatches(study.store, study.study, run), (error: unknown) => {
        assert.ok(error instanceof BudgetRefusal, String(error));
        assert.match(error.message, /batch/);
        return true;
      });
      assert.equal(server.routeCounts().get('files.create') ?? 0, 0);
      assert.equal(server.routeCounts().get('batches.create') ?? 0, 0);
      // The same job fits a budget of $0.25 at batch prices (it would not online: ≈ $0.39).
      let estimated = 0;
      const fits = await submitJudgeBatches(
        study.store,
        study.study,
        { ...run, judge: { ...run.judge, budget: { amount: 0.25, currency: 'USD' } } },
        {
          onEstimate: (estimate) => {
            estimated = estimate.cost ?? Number.NaN;
          },
        },
      );
      assert.ok(estimated > 0.1 && estimated < 0.25, `estimate ${estimated}`);
      assert.equal(fits.batches.length, 3);
    } finally {
      await close();
    }
  });
}

for (const kind of storeKinds) {
  test(`what batches left unanswered: counted for the QuickPick, retried in a new batch, then online (${kind})`, async () => {
    // Lines 3 and 4 of every batch fail (a server error, an expired line): four votes over the three batches.
    const { study, server, run, online, close } = await batchStudy(kind, 'mode batch  max_tokens 16', (line) =>
      line === 3 ? { status: 500, message: 'overloaded' } : line === 4 ? { expired: true } : undefined,
    );
    try {
      await submitJudgeBatches(study.store, study.study, run);
      for (const batch of server.batches()) await server.finish(batch.id);
      await judgeBatchStatus(study.store, study.study, run);
      const onRecord = await batchesOnRecord(study.store, study.study, run.judge, prompt);
      assert.deepEqual(onRecord, { open: 0, toCollect: 0, unanswered: 4 });
      const left = await pairsLeftUnanswered(study.store, study.study, run);
      assert.equal(left.size, 4);

      // In a new batch: exactly those four votes.
      const retried = await submitJudgeBatches(study.store, study.study, run, { pairIds: left });
      assert.deepEqual(
        retried.batches.map((b) => b.requests),
        [4],
      );
      const [, , , fourth] = server.batches();
      // That batch fails two again (its lines 3 and 4); online answers the two still missing.
      await server.finish(fourth!.id);
      assert.equal(server.customIds(fourth!.id).length, 4);
      await judgeBatchStatus(study.store, study.study, run);
      const stillLeft = await pairsLeftUnanswered(study.store, study.study, run);
      assert.equal(stillLeft.size, 2);
      const report = await online({ concurrency: 2, pairIds: stillLeft });
      assert.equal(server.requests(), 2, 'only the votes batches left unanswered');
      assert.equal(report.failures, 0);
      assert.deepEqual(await batchesOnRecord(study.store, study.study, run.judge, prompt), {
        open: 0,
        toCollect: 0,
        unanswered: 0,
      });
    } finally {
      await close();
    }
  });
}

for (const kind of storeKinds) {
  test(`a cancelled submit: the batch being uploaded is finished and recorded, no further batch is written, nothing is left half-recorded; the next submit sends the rest (${kind})`, async () => {
    const { study, server, run, close } = await batchStudy(kind, 'mode batch  max_tokens 16');
    try {
      const controller = new AbortController();
      // The first batch's upload waits at the server until the user has pressed Cancel.
      const hold = server.hold('files.create');
      void hold.arrived.then(() => {
        controller.abort();
        hold.release();
      });
      const submitted = await submitJudgeBatches(study.store, study.study, run, { signal: controller.signal });
      assert.equal(submitted.cancelled, true);
      assert.deepEqual(
        submitted.batches.map((b) => [b.requests, b.batchId === server.batches()[0]?.id]),
        [[5, true]],
      );
      assert.equal(server.routeCounts().get('files.create'), 1);
      assert.equal(server.routeCounts().get('batches.create'), 1);
      assert.match(
        submitLines(submitted)[0]!,
        /^judge llm:judge-b@\w{8}: cancelled — 1 batch created before the cancel with 5 requests, recorded .*the votes not in a batch were not sent/,
      );
      // On record: the one batch, created; no batch only prepared, no input file left behind.
      const recorded = await study.store.judgeBatches.batches(study.studyId);
      assert.deepEqual(
        recorded.map((b) => [b.requests, b.batchId !== null, b.status]),
        [[5, true, 'validating']],
      );
      const inputs = batchInputFolder(study.folder);
      assert.deepEqual(existsSync(inputs) ? readdirSync(inputs) : [], []);
      // The next submit sends the seven votes the cancel left, each once.
      const rest = await submitJudgeBatches(study.store, study.study, run);
      assert.equal(rest.cancelled, false);
      assert.equal(rest.inOpenBatches, 5);
      assert.deepEqual(
        rest.batches.map((b) => b.requests),
        [5, 2],
      );
      for (const batch of server.batches()) await server.finish(batch.id);
      const customIds = server.batches().flatMap((b) => server.customIds(b.id));
      assert.equal(customIds.length, 12);
      assert.equal(new Set(customIds).size, 12);
    } finally {
      await close();
    }
  });

  test(`online while batches are open: the summary says how many votes they hold and to run Batch status; an online retry is cancelled like a run (${kind})`, async () => {
    // Every batch line expires: what the batches hold is owed again once they are recorded.
    const { study, server, run, online, close } = await batchStudy(kind, 'max_tokens 16', () => ({ expired: true }));
    try {
      await submitJudgeBatches(study.store, study.study, run);
      const report = await online({ concurrency: 1 });
      assert.equal(report.inOpenBatches, 12);
      assert.equal(server.requests(), 0, 'the votes open batches hold are not asked online');
      assert.match(
        onlineSummaryLine(report),
        /; 12 votes left out: open batches hold them — run "Batch status" to record them$/,
      );
      assert.doesNotMatch(onlineSummaryLine({ ...report, inOpenBatches: undefined }), /open batches/);

      // The batches end with every line expired; the online retry of their pairs is cancelled after its first vote.
      for (const batch of server.batches()) await server.finish(batch.id);
      await judgeBatchStatus(study.store, study.study, run);
      const left = await pairsLeftUnanswered(study.store, study.study, run);
      assert.equal(left.size, 12);
      const controller = new AbortController();
      const retried = await online({
        concurrency: 1,
        pairIds: left,
        signal: controller.signal,
        onProgress: () => controller.abort(),
      });
      assert.equal(retried.cancelled, true);
      assert.ok(retried.requests >= 1 && retried.requests < 12, `${retried.requests} calls before the cancel`);
      assert.match(onlineSummaryLine(retried), / — cancelled: what was answered is stored$/);
      // What was asked is on record (nothing in flight is lost); the rest is still owed.
      const answeredOnline = (await study.store.judge.calls(study.studyId)).filter((c) =>
        c.rawOutput.includes('online'),
      );
      assert.equal(answeredOnline.length, server.requests());
      assert.equal((await pairsLeftUnanswered(study.store, study.study, run)).size, 12 - server.requests());
    } finally {
      await close();
    }
  });
}
