// One sending run per judge on a machine, as users run the CLI (the built CLI as real processes, the real `openai`
// SDK against the local Files + Batches + chat server): while an online run is under way (a chat request held at the
// server), `judge --batch` of the same judge is refused — exit 1, the run named, nothing uploaded — and once it has
// ended the batch submit goes ahead and sends only what the online run left; while a batch submit is under way (its
// upload held), an online run is refused with no chat request. A killed run's marker is taken over (the kill tests
// in test/core/judge/batch/batchKills.test.ts run again after SIGKILL). Both store kinds (the marker is beside the
// study's database folder for either).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startOpenAiBatchServer } from '../core/judge/openAiBatchServer.ts';
import { runCliAsync, startCliProcess } from '../helpers.ts';
import { storeKinds } from '../storeKinds.ts';
import { cliStore } from './cliStore.ts';
import { documentOf, judgeEnvironment, judgeWorkspace, labelAnswer, testApiKey } from './judgeCli.ts';

/** Waits for the held request; fails (rather than waiting for ever) when the run ends first. */
async function heldOrFailed(
  arrived: Promise<void>,
  finished: Promise<{ status: number | null; stderr: string }>,
): Promise<void> {
  const first = await Promise.race([arrived.then(() => undefined), finished]);
  if (first !== undefined) assert.fail(`the run ended before its request was held: ${first.status} ${first.stderr}`);
}

const usage = { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 };

for (const kind of storeKinds)
  test(`a batch submit while an online run of the judge is under way is refused, and the reverse; after it, it goes ahead (${kind})`, async (t) => {
    const kindStore = await cliStore(kind);
    // The first chat answer waits until the test lets it go (chat is the plain server's: answered, not held, there).
    let chatArrived!: () => void;
    const arrived = new Promise<void>((resolve) => {
      chatArrived = resolve;
    });
    let releaseChat!: () => void;
    const chatReleased = new Promise<void>((resolve) => {
      releaseChat = resolve;
    });
    const server = await startOpenAiBatchServer({
      apiKey: testApiKey,
      progress: 'manual',
      respond: async ({ body }) => {
        chatArrived();
        await chatReleased;
        return { content: labelAnswer(documentOf(body) % 3), usage };
      },
    });
    t.after(() => releaseChat());
    t.after(() => server.close());
    const root = judgeWorkspace(kindStore, `judge "judge-b" { endpoint "${server.baseURL}" }`);
    const env = judgeEnvironment(kindStore, { OPENAI_API_KEY: testApiKey });
    const allow = ['--allow-endpoint', server.baseURL];

    // An online run of two pairs, its first chat request held at the server.
    const online = startCliProcess(['judge', 'wqt.assess', '--limit', '2', '--concurrency', '1', ...allow], root, env);
    await heldOrFailed(arrived, online.finished);
    const refused = await runCliAsync(['judge', 'wqt.assess', '--batch', ...allow], root, env);
    assert.equal(refused.status, 1, refused.stderr);
    assert.match(
      refused.stderr,
      new RegExp(
        `^an online run of judge llm:judge-b@[0-9a-f]{8} is under way \\(process ${online.child.pid}, since [^)]+\\): ` +
          'wait for it to end, or stop it, before a batch submit — the votes it has in flight are not on record yet',
      ),
    );
    assert.equal(server.routeCounts().get('files.create') ?? 0, 0, 'nothing uploaded');
    releaseChat();
    const ended = await online.finished;
    assert.equal(ended.status, 0, ended.stderr);
    assert.equal(server.requests(), 2);

    // The online run has ended: the submit goes ahead with the two pairs it left — its upload held this time, and an
    // online run meanwhile is refused without a chat request.
    const upload = server.hold('files.create');
    const submit = startCliProcess(['judge', 'wqt.assess', '--batch', ...allow], root, env);
    await heldOrFailed(upload.arrived, submit.finished);
    const onlineRefused = await runCliAsync(['judge', 'wqt.assess', ...allow], root, env);
    assert.equal(onlineRefused.status, 1, onlineRefused.stderr);
    assert.match(onlineRefused.stderr, /^a batch submit of judge llm:judge-b@[0-9a-f]{8} is under way \(process \d+/);
    assert.equal(server.requests(), 2, 'no chat request');
    upload.release();
    const submitted = await submit.finished;
    assert.equal(submitted.status, 0, submitted.stderr);
    assert.match(submitted.stdout, /^votes: 4 \(2 answered already, 0 in open batches\), 2 sent now$/m);
  });
