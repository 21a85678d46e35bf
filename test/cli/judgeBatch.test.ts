// `qrels-studio judge --batch` as users run it: the built CLI as a real process against the local Files + Batches
// server (test/core/judge/openAiBatchServer.ts) through the real `openai` SDK, a real study record of either store
// kind. It refuses an endpoint not approved before any request; submits and returns with the batch ids and what to
// run next; --batch-status follows the batch and records it once finished (calls at half price, suggestions);
// --wait stays until then; lines that got no answer make exit code 1 and are asked again by --retry-failed online;
// the judge block's `mode batch` makes a plain run a batch run; --cancel cancels; an online run leaves out what an
// open batch holds and says so.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { type BatchLineAnswer, startOpenAiBatchServer } from '../core/judge/openAiBatchServer.ts';
import { runCliAsync } from '../helpers.ts';
import { storeKinds } from '../storeKinds.ts';
import { type CliStore, cliStore } from './cliStore.ts';
import { documentOf, judgeEnvironment, judgeWorkspace, labelAnswer, testApiKey } from './judgeCli.ts';

const apiKey = testApiKey;
const workspace = judgeWorkspace;

/** The CLI's environment with the test server's key. */
const environment = (store: CliStore, extra: Record<string, string> = {}) =>
  judgeEnvironment(store, { OPENAI_API_KEY: apiKey, ...extra });

const cli = runCliAsync;
const answer = labelAnswer;
const usage = { prompt_tokens: 1000, completion_tokens: 20, total_tokens: 1020 };

for (const kind of storeKinds) {
  test(`--batch submits and returns; --batch-status follows and records at half price; a re-run asks nothing (${kind})`, async (t) => {
    const kindStore = await cliStore(kind);
    const server = await startOpenAiBatchServer({
      apiKey,
      progress: { pollsPerStep: 1 },
      respondLine: ({ body }) => ({ content: answer(documentOf(body) % 3), usage }),
    });
    t.after(() => server.close());
    const root = workspace(kindStore, `judge "judge-b" { endpoint "${server.baseURL}"  votes 2 }`);
    const env = environment(kindStore);

    const refused = await cli(['judge', 'wqt.assess', '--batch'], root, env);
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /not approved — pass --allow-endpoint/);
    assert.equal(server.requestLog().length, 0);

    const allow = ['--allow-endpoint', server.baseURL, '--price', 'judge-b=2,8'];
    const submitted = await cli(['judge', 'wqt.assess', '--batch', ...allow], root, env);
    assert.equal(submitted.status, 0, submitted.stderr);
    const [batch] = server.batches();
    assert.match(submitted.stdout, /— Batch API$/m);
    assert.match(submitted.stdout, /^votes: 8 \(0 answered already, 0 in open batches\), 8 sent now$/m);
    assert.match(submitted.stdout, new RegExp(`^batch ${batch!.id}: 8 requests$`, 'm'));
    assert.match(submitted.stdout, /^next: qrels-studio judge wqt\.assess --batch-status/m);
    assert.ok(!submitted.stdout.includes(apiKey) && !submitted.stderr.includes(apiKey));

    let status = await cli(['judge', 'wqt.assess', '--batch-status', ...allow], root, env);
    for (let polls = 1; !/recorded 8 calls/.test(status.stdout) && polls < 10; polls++) {
      assert.equal(status.status, 0, status.stderr);
      assert.match(status.stdout, new RegExp(`^batch ${batch!.id}  (validating|in_progress|finalizing) `, 'm'));
      status = await cli(['judge', 'wqt.assess', '--batch-status', ...allow], root, env);
    }
    assert.equal(status.status, 0, status.stderr);
    assert.match(status.stdout, new RegExp(`^batch ${batch!.id}  completed  8/8 done, 0 failed · recorded$`, 'm'));
    assert.match(status.stdout, /^ {2}recorded 8 calls \(8 answered\), 4 suggestions written$/m);

    const store = await kindStore.open(join(root, 'wqt.assess'));
    try {
      const studyId = await store.studies.studyId('wqt');
      const totals = await store.judge.callTotals(studyId);
      assert.equal(totals.answered, 8);
      // Half of $2 / $8 per million: 8 × (1000 × 1 + 20 × 4) / 1M.
      assert.ok(Math.abs(totals.cost - (8 * (1000 * 1 + 20 * 4)) / 1e6) < 1e-12);
      const [judge] = (await store.judgeBatches.batches(studyId)).map((b) => b.judge);
      const suggestions = await store.judge.suggestions(studyId, judge!);
      assert.deepEqual(
        suggestions.map((s) => [s.docid, s.label]),
        [
          ['d1', 1],
          ['d2', 2],
          ['d3', 0],
          ['d4', 1],
        ],
      );
    } finally {
      await store.close();
    }

    const again = await cli(['judge', 'wqt.assess', '--batch', ...allow], root, env);
    assert.equal(again.status, 0, again.stderr);
    assert.match(again.stdout, /^votes: 8 \(8 answered already, 0 in open batches\), 0 sent now$/m);
    assert.match(again.stdout, /^no batch created: nothing to ask$/m);
    assert.equal(server.routeCounts().get('batches.create'), 1);
    assert.equal(server.requests(), 0);
  });

  test(`an online run while a batch is open asks only what the batch does not hold, and says to run --batch-status (${kind})`, async (t) => {
    const kindStore = await cliStore(kind);
    const server = await startOpenAiBatchServer({
      apiKey,
      progress: 'manual',
      respond: ({ body }) => ({ content: answer(documentOf(body) % 3), usage }),
    });
    t.after(() => server.close());
    const root = workspace(kindStore, `judge "judge-b" { endpoint "${server.baseURL}"  votes 2 }`);
    const env = environment(kindStore);
    const allow = ['--allow-endpoint', server.baseURL, '--price', 'judge-b=2,8'];
    const submitted = await cli(['judge', 'wqt.assess', '--batch', '--limit', '1', ...allow], root, env);
    assert.equal(submitted.status, 0, submitted.stderr);
    assert.match(submitted.stdout, /^votes: 2 \(0 answered already, 0 in open batches\), 2 sent now$/m);

    const online = await cli(['judge', 'wqt.assess', ...allow], root, env);
    assert.equal(online.status, 0, online.stderr);
    assert.match(online.stdout, /^votes: 6 of 6 \(6 asked, 0 from the cache\), 2 in open batches$/m);
    assert.match(
      online.stdout,
      /^in open batches: 2 votes not asked \(a batch of this judge holds them\); qrels-studio judge wqt\.assess --batch-status records them when their batches finish$/m,
    );
    assert.match(online.stdout, /^suggestions: 3 written$/m);
    assert.equal(server.requests(), 6);
  });

  test(`--wait stays until recorded; unanswered lines exit 1 and --retry-failed online asks only them (${kind})`, async (t) => {
    const kindStore = await cliStore(kind);
    const lines: Record<number, BatchLineAnswer> = {
      1: { content: answer(1) },
      2: { content: answer(9) },
      3: { expired: true },
      4: { status: 503, message: 'overloaded' },
    };
    const server = await startOpenAiBatchServer({
      apiKey,
      progress: { pollsPerStep: 1 },
      respondLine: ({ body }) => lines[documentOf(body)]!,
      respond: ({ body }) => ({ content: answer(documentOf(body) % 3) }),
    });
    t.after(() => server.close());
    const root = workspace(kindStore, `judge "judge-b" { endpoint "${server.baseURL}" }`);
    const env = environment(kindStore, { QRELS_STUDIO_BATCH_POLL_MS: '10' });
    const allow = ['--allow-endpoint', server.baseURL];
    const waited = await cli(['judge', 'wqt.assess', '--batch', '--wait', ...allow], root, env);
    assert.equal(waited.status, 1, waited.stderr);
    assert.match(waited.stdout, /expired {2}4\/4 done|expired {2}\d+\/4 done/);
    assert.match(waited.stdout, /recorded 4 calls \(1 answered, 1 not on the scale or not JSON, 2 without an answer\)/);
    assert.match(
      waited.stderr,
      /2 requests got no answer \(failed or expired\): qrels-studio judge wqt\.assess --retry-failed/,
    );

    const retried = await cli(['judge', 'wqt.assess', '--retry-failed', 'online', ...allow], root, env);
    assert.equal(retried.status, 0, retried.stderr);
    assert.match(retried.stdout, /^retrying online the votes batches left unanswered: 2 pairs$/m);
    assert.equal(server.requests(), 2);
    assert.deepEqual(server.bodies().map(documentOf).sort(), [3, 4]);
    const nothing = await cli(['judge', 'wqt.assess', '--retry-failed', 'online', ...allow], root, env);
    assert.match(nothing.stdout, /unanswered: 0 pairs$/m);
    assert.equal(server.requests(), 2);
  });

  test(`a judge with mode batch runs as a batch; --cancel cancels its open batch (${kind})`, async (t) => {
    const kindStore = await cliStore(kind);
    const server = await startOpenAiBatchServer({ apiKey, progress: 'manual' });
    t.after(() => server.close());
    const root = workspace(kindStore, `judge "judge-b" { endpoint "${server.baseURL}"  mode batch }`);
    const env = environment(kindStore);
    const allow = ['--allow-endpoint', server.baseURL];
    const submitted = await cli(['judge', 'wqt.assess', ...allow], root, env);
    assert.equal(submitted.status, 0, submitted.stderr);
    assert.equal(server.batches().length, 1);
    assert.equal(server.requests(), 0);
    const cancelled = await cli(['judge', 'wqt.assess', '--cancel', ...allow], root, env);
    assert.equal(cancelled.status, 0, cancelled.stderr);
    assert.match(cancelled.stdout, new RegExp(`^batch ${server.batches()[0]!.id}: cancelling$`, 'm'));
    assert.equal(server.routeCounts().get('batches.cancel'), 1);
    const none = await cli(['judge', 'wqt.assess', '--cancel', ...allow], root, env);
    assert.match(none.stdout, /^no open batch to cancel$/m);
  });
}
