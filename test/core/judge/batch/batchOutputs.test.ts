// What `qrels-studio judge --batch` makes of a batch's output and error files (issue 22 "Must show"): answers
// outside the scale, malformed JSON and a broken output line are recorded as failures with their raw text, never as
// labels; lines that failed (an HTTP 500) or expired are recorded as failed calls and asked again with
// --retry-failed — in a new batch that holds only them, or online — while what was answered is never sent again.
// The local Files + Batch server (openAiBatchServer.ts) decides each line's answer; the CLI runs as a real process;
// the record is read through the storage port. Both store kinds.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import type { RecordedJudgeCall } from '../../../../core/store/port/judgePort.ts';
import { type CliStore, cliStore } from '../../../cli/cliStore.ts';
import { documentOf, judgeEnvironment, judgeWorkspace, labelAnswer } from '../../../cli/judgeCli.ts';
import { runCliAsync } from '../../../helpers.ts';
import { storeKinds } from '../../../storeKinds.ts';
import { type BatchLineAnswer, type OpenAiBatchServer, startOpenAiBatchServer } from '../openAiBatchServer.ts';
import { assertEachVoteOnce, recorded } from './batchCli.ts';

const pairs = 12;
const batchStudy = { queries: 3, perQuery: 4, titles: true };

/** Document d's kind of answer, d = 1…12: two of each. */
type Answer = 'outside-scale' | 'malformed-json' | 'broken-line' | 'http-500' | 'expired' | 'label';
const answers: Answer[] = ['label', 'outside-scale', 'malformed-json', 'broken-line', 'http-500', 'expired'];
const answerOf = (document: number): Answer => answers[document % answers.length]!;
const outsideScale = JSON.stringify({ rationale: 'very relevant', label: 7 });
// Cut off before its verdict (a `"label": 1` left in broken JSON is still read, as a "Label: 1" line is:
// judgeOutput.ts reads a stated verdict and guesses none).
const malformedJson = '{"rationale": "the passage is about the qu';

function lineAnswer(document: number, customId: string): BatchLineAnswer {
  switch (answerOf(document)) {
    case 'outside-scale':
      return { content: outsideScale };
    case 'malformed-json':
      return { content: malformedJson };
    case 'broken-line':
      // The API's line cut short: still names its request.
      return { rawLine: `{"id": "batch_req_x", "custom_id": "${customId}", "response": {"status_code": 200, "bo` };
    case 'http-500':
      return { status: 500, message: 'The server had an error while processing your request.' };
    case 'expired':
      return { expired: true };
    case 'label':
      return { content: labelAnswer(2) };
  }
}

/** The server, and the document each custom_id it was sent asks about. */
async function outputServer(): Promise<{ server: OpenAiBatchServer; documentOfId: Map<string, number> }> {
  const documentOfId = new Map<string, number>();
  const server = await startOpenAiBatchServer({
    respondLine: ({ body, customId }) => {
      documentOfId.set(customId, documentOf(body));
      return lineAnswer(documentOf(body), customId);
    },
    // Online, every retried vote gets a label.
    respond: () => ({ content: labelAnswer(1) }),
  });
  return { server, documentOfId };
}

async function judgedStudy(kind: (typeof storeKinds)[number]) {
  const kindStore = await cliStore(kind);
  const { server, documentOfId } = await outputServer();
  const root = judgeWorkspace(kindStore, `judge "judge-o" { endpoint "${server.baseURL}" }`, batchStudy);
  const env = judgeEnvironment(kindStore);
  const allow = ['--allow-endpoint', server.baseURL];
  await runBatchToTheEnd(kindStore, root, env, ['--batch', ...allow]);
  return { kindStore, server, documentOfId, root, env, allow };
}

/** Submits with `submit` (judge flags), then runs `judge --batch-status` until no batch of the record is open. */
async function runBatchToTheEnd(store: CliStore, root: string, env: NodeJS.ProcessEnv, submit: string[]) {
  const allow = submit.slice(submit.indexOf('--allow-endpoint'));
  const status = ['--batch-status', ...allow];
  for (const flags of [submit, status, status, status, status, status]) {
    const finished = await runCliAsync(['judge', 'wqt.assess', ...flags], root, env);
    // Exit code 1: some calls got no answer (run again to retry them), as online.
    assert.ok(finished.status === 0 || finished.status === 1, finished.stderr);
    const { batches } = await recorded(store, root);
    if (batches.length > 0 && batches.every((b) => b.recordedAt !== null)) return;
  }
  assert.fail('the batch job was not recorded after a submit and five status runs');
}

const documentOfCall = (call: RecordedJudgeCall) => Number(call.docid!.slice(1));

for (const kind of storeKinds) {
  test(`answers outside the scale, malformed JSON and a broken line are failures with their raw text, never labels (${kind})`, async (t) => {
    const { kindStore, server, root } = await judgedStudy(kind);
    t.after(() => server.close());
    const { calls, batches } = await recorded(kindStore, root);
    assertEachVoteOnce(calls, pairs, 'one batch');
    assert.equal(batches.length, 1);
    assert.equal(batches[0]!.status, 'expired', 'a batch with expired lines ends expired');
    const byAnswer = (answer: Answer) => calls.filter((c) => answerOf(documentOfCall(c)) === answer);

    for (const call of byAnswer('outside-scale')) {
      assert.equal(call.parsedLabel, null, `${call.docid}: 7 is not on the scale 0–2`);
      assert.equal(call.errorKind, 'parse');
      assert.equal(call.rawOutput, outsideScale);
      assert.deepEqual([call.inputTokens !== null, call.outputTokens !== null], [true, true], 'tokens kept');
    }
    for (const call of byAnswer('malformed-json')) {
      assert.equal(call.parsedLabel, null);
      assert.equal(call.errorKind, 'parse');
      assert.equal(call.rawOutput, malformedJson);
    }
    for (const call of byAnswer('broken-line')) {
      assert.equal(call.parsedLabel, null);
      assert.notEqual(call.errorKind, null);
      assert.match(call.rawOutput, /"status_code": 200, "bo$/, 'the broken line is kept as it came');
    }
    for (const call of [...byAnswer('http-500'), ...byAnswer('expired')]) {
      assert.equal(call.parsedLabel, null);
      assert.notEqual(call.errorKind, null);
      assert.notEqual(call.errorKind, 'parse');
    }
    for (const call of byAnswer('label')) {
      assert.equal(call.parsedLabel, 2);
      assert.equal(call.errorKind, null);
    }
    assert.match(
      byAnswer('expired')[0]!.error ?? '',
      /expired/i,
      'an expired line says so in the record (the API said batch_expired)',
    );

    // The suggestions: labels only from the answers on the scale.
    const studyStore = await kindStore.open(join(root, 'wqt.assess'));
    try {
      const studyId = await studyStore.studies.studyId('wqt');
      const suggestions = await studyStore.judge.suggestions(studyId, calls[0]!.judge!);
      const labelled = suggestions.filter((s) => s.label !== null).map((s) => Number(s.docid.slice(1)));
      assert.deepEqual(
        labelled.sort((a, b) => a - b),
        [6, 12],
        'only the two documents answered on the scale have a label',
      );
    } finally {
      await studyStore.close();
    }
  });

  test(`--retry-failed --batch asks the failed and expired lines again in a new batch, nothing answered (${kind})`, async (t) => {
    const { kindStore, server, documentOfId, root, env, allow } = await judgedStudy(kind);
    t.after(() => server.close());
    assert.equal(server.batches().length, 1);
    const first = await recorded(kindStore, root);
    const answerOfId = (customId: string) => answerOf(documentOfId.get(customId)!);
    const failedCustomIds = server
      .customIds(server.batches()[0]!.id)
      .filter((id) => ['http-500', 'expired'].includes(answerOfId(id)));
    assert.equal(failedCustomIds.length, 4);
    await runBatchToTheEnd(kindStore, root, env, ['--batch', '--retry-failed', ...allow]);
    const created = server.batches();
    assert.equal(created.length, 2, 'one new batch');
    const retried = server.customIds(created[1]!.id);
    // custom_id is the pair and vote (batchLines.ts customIdOf), the same in both batches.
    for (const customId of failedCustomIds) assert.ok(retried.includes(customId), `${customId} is asked again`);
    const answered = server
      .customIds(created[0]!.id)
      .filter((id) => ['label', 'outside-scale', 'malformed-json'].includes(answerOfId(id)));
    assert.equal(answered.length, 6);
    assert.deepEqual(
      retried.filter((id) => answered.includes(id)),
      [],
      'an answered vote is never sent again',
    );
    assert.equal(server.requests(), 0, 'nothing online');
    const after = await recorded(kindStore, root);
    assert.equal(after.calls.length, first.calls.length + retried.length, 'each retried line recorded once more');
  });

  test(`--retry-failed without --batch asks the failed and expired lines online, once each (${kind})`, async (t) => {
    const { kindStore, server, root, env, allow } = await judgedStudy(kind);
    t.after(() => server.close());
    const first = await recorded(kindStore, root);
    const failedDocuments = first.calls
      .filter((c) => ['http-500', 'expired'].includes(answerOf(documentOfCall(c))))
      .map(documentOfCall);
    assert.equal(failedDocuments.length, 4);
    const online = await runCliAsync(['judge', 'wqt.assess', '--retry-failed', ...allow], root, env);
    assert.ok(online.status === 0 || online.status === 1, online.stderr);
    const asked = server.bodies().map(documentOf);
    for (const document of failedDocuments) assert.ok(asked.includes(document), `d${document} is asked online`);
    assert.deepEqual(
      asked.filter((d) => ['label', 'outside-scale', 'malformed-json'].includes(answerOf(d))),
      [],
      'an answered vote is never sent again',
    );
    assert.equal(new Set(asked).size, asked.length, 'each asked once');
    assert.equal(server.batches().length, 1, 'no new batch');
  });
}
