// "Run LLM judge"'s online run without VS Code around it (extension/judge/onlineJudgeRun.ts), on a real study record
// (SQLite and PostgreSQL) through the real `openai` SDK against a server on 127.0.0.1: the notification's lines show
// spent / budget; a job whose estimate is over the judge block's `budget` is refused with nothing sent; a judge
// without a budget shows the cost alone. (Stopping mid-run at the budget is core's, tested in test/core/judge/budget/.)
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BudgetRefusal } from '../../../core/judge/budget/budgetGuard.ts';
import type { JobEstimate } from '../../../core/judge/budget/costEstimate.ts';
import { createChatClient } from '../../../core/judge/chatClient.ts';
import { judgeAnnotatorName } from '../../../core/judge/judgeSetup.ts';
import { promptTemplate } from '../../../core/judge/promptTemplate.ts';
import { runOnlineJudge } from '../../../extension/judge/onlineJudgeRun.ts';
import { startOpenAiServer } from '../../core/judge/openAiServer.ts';
import { labellingStudy, plainStudy } from '../../core/labelling/labellingStudy.ts';
import { storeKinds } from '../../storeKinds.ts';

const prompt = {
  ...promptTemplate(
    'prompts/judge.md',
    'Query: {{query}}\nDocument: {{document}}\nGrades:\n{{scale}}\nAnswer {"rationale": "…", "label": N}.\n',
  ),
  output: 'label' as const,
};

// $1 per million input and $4 per million output tokens: the server's answers below cost 100 × 1 + 10 × 4 = 140 µ$.
const prices = { 'judge-a': { inputPerMillion: 1, outputPerMillion: 4 } };

async function judged(kind: (typeof storeKinds)[number], judgeBlock: string) {
  const study = await labellingStudy({ ...plainStudy(3, 4), extra: `  judge "judge-a" { ${judgeBlock} }` }, kind);
  const server = await startOpenAiServer({
    respond: () => ({
      content: JSON.stringify({ rationale: 'on topic', label: 1 }),
      usage: { prompt_tokens: 100, completion_tokens: 10 },
    }),
  });
  const client = createChatClient({ baseURL: server.baseURL, apiKey: 'sk-test', maxAttempts: 1 });
  const messages: string[] = [];
  let estimate: JobEstimate | undefined;
  const run = () =>
    runOnlineJudge(study.store, study.study, {
      judge: study.study.judges[0]!,
      place: 1,
      endpoint: server.baseURL,
      client,
      prompt,
      prices,
      concurrency: 2,
      onEstimate: (e) => {
        estimate = e;
      },
      onProgress: (message) => messages.push(message),
    });
  return {
    study,
    server,
    run,
    messages,
    estimate: () => estimate,
    close: async () => {
      await server.close();
      await study.close();
    },
  };
}

for (const kind of storeKinds) {
  test(`a budget the job fits: every progress line says spent / budget, the last one what the calls cost (${kind})`, async () => {
    const it = await judged(kind, 'max_tokens 16  budget 5 USD');
    try {
      const report = await it.run();
      assert.equal(report.suggestions, 12);
      assert.equal(it.server.requests(), 12);
      assert.ok(it.estimate(), 'estimated before anything was sent');
      assert.equal(it.estimate()!.calls, 12);
      assert.equal(it.messages.length, 12);
      for (const message of it.messages)
        assert.match(message, / · \$0\.\d{4} \/ \$5\.00 budget( · \$0\.\d{4} in flight)? · /);
      // All answered: 12 × 140 µ$ spent, nothing in flight.
      assert.match(
        it.messages.at(-1)!,
        /^12\/12 · [\d.]+ calls\/s · 1,320 tokens · \$0\.0017 \/ \$5\.00 budget · 0 failures$/,
      );
      assert.equal(report.stoppedAtBudget, 0);
    } finally {
      await it.close();
    }
  });

  test(`an estimate over the budget is refused before any call (${kind})`, async () => {
    // max_tokens 4096 a call × 12 calls at $4 per million output tokens ≈ $0.197: over a budget of 1 cent.
    const it = await judged(kind, 'max_tokens 4096  budget 0.01 USD');
    try {
      await assert.rejects(it.run(), (error: unknown) => {
        assert.ok(error instanceof BudgetRefusal, String(error));
        assert.match(error.message, /\$0\.01/);
        return true;
      });
      assert.equal(it.server.requests(), 0, 'nothing sent');
      assert.deepEqual(it.messages, []);
      assert.equal(
        (await it.study.store.judge.suggestions(it.study.studyId, judgeAnnotatorName('judge-a', prompt.hash))).length,
        0,
      );
    } finally {
      await it.close();
    }
  });

  test(`no budget: the cost alone, as before (${kind})`, async () => {
    const it = await judged(kind, 'max_tokens 16');
    try {
      await it.run();
      assert.equal(it.estimate(), undefined, 'no estimate without a budget');
      assert.match(it.messages.at(-1)!, /^12\/12 · [\d.]+ calls\/s · 1,320 tokens · \$0\.0017 · 0 failures$/);
    } finally {
      await it.close();
    }
  });
}
